/**
 * A tool's hints for upstream refusals an agent can fix itself (`upstream_errors` in its spec, then its connector's):
 * which one, if any, matches an upstream error answer, by its status, the provider's codes (dialect-codes.ts) and its
 * message.
 */
import type { ErrorDialect, UpstreamErrorHint } from '../types.js';
import { dialectCodes } from './dialect-codes.js';

/**
 * The first of `hints` that matches this refusal: its status, its code when it names one (any of the body's codes),
 * and its text when it names one (in the provider's message, case-insensitive); undefined when none does.
 */
export function matchingHint(hints: readonly UpstreamErrorHint[], dialect: ErrorDialect, status: number, body: unknown, message: string | undefined): string | undefined {
  let codes: string[] | undefined;
  const text = message?.toLowerCase() ?? '';
  for (const h of hints) {
    if (h.status !== status) continue;
    if (h.code !== undefined && !(codes ??= dialectCodes(dialect, body)).includes(h.code)) continue;
    if (h.messageContains !== undefined && !text.includes(h.messageContains.toLowerCase())) continue;
    return h.hint;
  }
  return undefined;
}

/**
 * The message with the hint after it, as its own sentence (a full stop added only where the message has no end of
 * its own, which may sit inside a closing bracket or quote, or is the ellipsis of a message cut short).
 */
export function withHint(message: string, hint: string): string {
  return sentence(message, `Hint: ${hint}`);
}

/** `text` and another sentence after it, with the period the first lacks. */
export function sentence(text: string, next: string): string {
  return `${text}${/[.!?…]["')\]]*$/.test(text) ? '' : '.'} ${next}`;
}
