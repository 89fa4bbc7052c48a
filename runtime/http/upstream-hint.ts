/**
 * A tool's hints for upstream refusals an agent can fix itself (`upstream_errors` in its spec): which one, if any,
 * matches an upstream error answer, read in the provider's own dialect.
 *
 * The error codes are where each dialect puts them:
 * - Google: `error.status` (`NOT_FOUND`), the legacy `error.errors[].reason` (`notFound`) and an ErrorInfo's
 *   `error.details[].reason`;
 * - Notion: `code` (`object_not_found`);
 * - HubSpot: `category` (`OBJECT_NOT_FOUND`), `subCategory`, and each `errors[].code` (`PROPERTY_DOESNT_EXIST`).
 * @see https://cloud.google.com/apis/design/errors
 * @see https://developers.notion.com/reference/status-codes
 * @see https://developers.hubspot.com/docs/api/error-handling
 */
import type { ErrorDialect, UpstreamErrorHint } from '../types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Each string `key` of the objects in `items`. */
function members(items: unknown[], key: string): unknown[] {
  return items.map((item) => (isObject(item) ? item[key] : undefined));
}

/** The error codes an upstream error body carries, where its dialect puts them. */
export function dialectCodes(dialect: ErrorDialect, body: unknown): string[] {
  if (!isObject(body)) return [];
  let codes: unknown[];
  if (dialect === 'google') {
    const error = isObject(body.error) ? body.error : {};
    codes = [error.status, ...members(list(error.errors), 'reason'), ...members(list(error.details), 'reason')];
  } else if (dialect === 'hubspot') {
    codes = [body.category, body.subCategory, ...members(list(body.errors), 'code')];
  } else {
    codes = [body.code];
  }
  return codes.filter((c): c is string => typeof c === 'string');
}

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

/** The message with the hint after it, as its own sentence. */
export function withHint(message: string, hint: string): string {
  return `${message}${/[.!?]$/.test(message) ? '' : '.'} Hint: ${hint}`;
}
