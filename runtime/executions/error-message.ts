/**
 * A failed call's message as the execution history keeps it: the message the caller got in its error body, so an
 * operator reading the record later sees what the caller saw. That message is already free of the call's provider
 * tokens (`http/normalize.ts` redacts them from the provider's answer before quoting it, in every encoded form), and
 * the history applies input capture's rule to it as well: every value of a field input capture would redact
 * (`redact-input.ts`: secret-looking names and `AGENT_CONNECTOR_EXECUTION_REDACT_FIELDS`) becomes `[redacted]`,
 * since a refusal may quote the value it refuses, whether or not inputs are captured. Then it is clipped as an error
 * body's text is ({@link MAX_TEXT_BODY} characters, at a word break).
 */
import { clipped, MAX_TEXT_BODY, redact } from '../http/normalize.js';
import { redactedValues } from './redact-input.js';

export function recordedMessage(message: string, input: unknown, fields: ReadonlySet<string>): string {
  // Redacted before the cut, so a value across the cut does not leave its first characters behind.
  return clipped(redact(message, redactedValues(input, fields)), MAX_TEXT_BODY);
}
