/**
 * A failed call's message as the execution history keeps it: the message the caller got in its error body, so an
 * operator reading the record later sees what the caller saw. That message is already free of the call's provider
 * tokens (`http/normalize.ts` redacts them from the provider's answer before quoting it, in every encoded form), and
 * the history applies input capture's rule to it as well: every value input capture would redact (`redact-input.ts`:
 * the values of secret-looking fields and of `AGENT_CONNECTOR_EXECUTION_REDACT_FIELDS`, and a proxy body it cannot
 * read as fields) becomes `[redacted]`, whatever its length, since a refusal may quote the value it refuses, whether
 * or not inputs are captured. Then it is clipped as an error body's text is ({@link MAX_TEXT_BODY} characters, at a
 * word break).
 */
import { clipped, literalPattern, MAX_TEXT_BODY, MIN_REDACTED_SECRET, redact, secretForms } from '../http/normalize.js';
import { redactedValues } from './redact-input.js';

/** A letter, digit or `_` (any script): what a short value must not touch on either side to be taken as itself. */
const WORD_CHARACTER = String.raw`[\p{L}\p{N}_]`;

/**
 * `message` without any of `values`, in any of their encoded forms ({@link secretForms}). The one rule: the value of
 * a field known to be secret is never kept, whatever its length. A value of {@link MIN_REDACTED_SECRET} characters or
 * more is taken out wherever it appears, as a provider token is; a shorter one (a PIN, a 6-digit code, a short
 * password) where it stands as a word of its own, so `1234` goes from `pin 1234 refused` but `12345` and `x1234`
 * stay, and a one-letter value does not take every such letter out of the message.
 */
function withoutValues(message: string, values: readonly string[]): string {
  const given = [...new Set(values)].filter((value) => value !== '');
  const long = given.filter((value) => value.length >= MIN_REDACTED_SECRET);
  const short = given.filter((value) => value.length < MIN_REDACTED_SECRET);
  const redacted = redact(message, long);
  if (short.length === 0) return redacted;
  const forms = [...new Set(short.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const word = new RegExp(`(?<!${WORD_CHARACTER})(?:${forms.map(literalPattern).join('|')})(?!${WORD_CHARACTER})`, 'gu');
  return redacted.replace(word, '[redacted]');
}

export function recordedMessage(message: string, input: unknown, fields: ReadonlySet<string>): string {
  // Redacted before the cut, so a value across the cut does not leave its first characters behind.
  return clipped(withoutValues(message, redactedValues(input, fields)), MAX_TEXT_BODY);
}
