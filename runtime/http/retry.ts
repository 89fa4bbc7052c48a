/**
 * When to retry and how long to wait: Retry-After parsing and capped, jittered exponential backoff.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-retry-after
 */
import type { HttpMethod } from '../types.js';
import type { HttpPolicy } from './policy.js';

/** Methods that are idempotent by definition (RFC 9110 §9.2.2); POST and PATCH are not. */
const IDEMPOTENT = new Set<string>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function isIdempotentMethod(method: HttpMethod | string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Parses a Retry-After header: delay-seconds or an HTTP-date. Returns milliseconds from `now`, or undefined when
 * the header is absent or unparseable (a malformed header must not turn into "retry immediately forever").
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names a weekday or month; this keeps Date.parse from reading "-1" as a year.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (1-based). A Retry-After from the upstream wins (it knows its own
 * window), capped at `maxRetryDelayMs`; otherwise exponential backoff with "full jitter" in [base/2, base] so that
 * many callers throttled together do not come back in lockstep.
 */
export function retryDelayMs(attempt: number, policy: HttpPolicy, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryDelayMs);
  const exponential = Math.min(policy.baseRetryDelayMs * 2 ** (attempt - 1), policy.maxRetryDelayMs);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Statuses worth another attempt: rate limited, or a transient server failure. 501 is a permanent answer. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}
