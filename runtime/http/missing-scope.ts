/**
 * Recognizes a provider's "your grant does not cover this" refusal, in each dialect's own shape:
 * - Google: 403 with `errors[].reason = "insufficientPermissions"` or an ErrorInfo `ACCESS_TOKEN_SCOPE_INSUFFICIENT`;
 *   the scopes that would do are in the `WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="..."` header.
 * - HubSpot: 403 `category: "MISSING_SCOPES"`; the scopes are in `errors[].context.requiredGranularScopes` (or
 *   `requiredScopes` in older answers), and the entry's `message` says whether any one of them would do ("One or more
 *   of the following scopes are required.", the answer HubSpot's object API guide shows for reading deals) or all are
 *   needed ("All of the following scopes are required.").
 * - Notion: 403 `code: "restricted_resource"` (a capability the integration lacks); Notion names no scope.
 * @see https://cloud.google.com/apis/design/errors
 * @see https://developers.hubspot.com/docs/api/error-handling
 * @see https://developers.notion.com/reference/status-codes
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorDialect } from '../types.js';
import { dialectCodes } from './dialect-codes.js';

export interface MissingScope {
  /** The scopes the provider names for the call; empty when it names none. */
  requiredScopes: string[];
  /** The provider says the call needs all of them (HubSpot's "All of the following ..."); else any one would do. */
  allRequired: boolean;
}

type Json = Record<string, unknown>;
/** HubSpot's wording for scopes that are all needed, beside "One or more of the following scopes are required.". */
const ALL_OF = /^all of the following scopes/i;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `scope="a b c"` from a `WWW-Authenticate: Bearer` challenge (RFC 6750 section 3). */
export function challengeScopes(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(', ') : header;
  const match = text === undefined ? null : /\bscope="([^"]*)"/i.exec(text);
  return match === null ? [] : match[1]!.split(/\s+/).filter(Boolean);
}

function google(codes: readonly string[], headers: IncomingHttpHeaders): MissingScope | undefined {
  const refused = codes.includes('insufficientPermissions') || codes.includes('ACCESS_TOKEN_SCOPE_INSUFFICIENT');
  // The challenge lists the scopes any one of which admits the call (the method's "one of the following" scopes).
  return refused ? { requiredScopes: challengeScopes(headers['www-authenticate']), allRequired: false } : undefined;
}

function hubspot(body: Json, codes: readonly string[]): MissingScope | undefined {
  if (!codes.includes('MISSING_SCOPES')) return undefined;
  const entries = list(body.errors).filter(isObject);
  const scopes = entries.flatMap((e) => {
    const context = isObject(e.context) ? e.context : {};
    return [...list(context.requiredGranularScopes), ...list(context.requiredScopes)].filter((s): s is string => typeof s === 'string');
  });
  const allRequired = entries.some((e) => typeof e.message === 'string' && ALL_OF.test(e.message));
  return { requiredScopes: [...new Set(scopes)], allRequired };
}

/** The missing scope or capability this answer reports, or undefined when it is some other refusal. */
export function missingScope(dialect: ErrorDialect, status: number, body: unknown, headers: IncomingHttpHeaders): MissingScope | undefined {
  if (status !== 403 || !isObject(body)) return undefined;
  const codes = dialectCodes(dialect, body);
  if (dialect === 'google') return google(codes, headers);
  if (dialect === 'hubspot') return hubspot(body, codes);
  return codes.includes('restricted_resource') ? { requiredScopes: [], allRequired: false } : undefined;
}
