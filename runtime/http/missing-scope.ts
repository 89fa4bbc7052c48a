/**
 * Recognizes a provider's "your grant does not cover this" refusal, in each dialect's own shape:
 * - Google: 403 with `errors[].reason = "insufficientPermissions"` or an ErrorInfo `ACCESS_TOKEN_SCOPE_INSUFFICIENT`;
 *   the scopes that would do are in the `WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="..."` header.
 * - HubSpot: 403 `category: "MISSING_SCOPES"`; the scopes are in `errors[].context.requiredGranularScopes` (or
 *   `requiredScopes` in older answers).
 * - Notion: 403 `code: "restricted_resource"` (a capability the integration lacks); Notion names no scope.
 * @see https://cloud.google.com/apis/design/errors
 * @see https://developers.hubspot.com/docs/api/error-handling
 * @see https://developers.notion.com/reference/status-codes
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorDialect } from '../types.js';
import { dialectCodes } from './dialect-codes.js';

export interface MissingScope {
  /** The scopes the provider says would allow the call (any one of them, for Google); empty when it names none. */
  requiredScopes: string[];
}

type Json = Record<string, unknown>;
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
  return refused ? { requiredScopes: challengeScopes(headers['www-authenticate']) } : undefined;
}

function hubspot(body: Json, codes: readonly string[]): MissingScope | undefined {
  if (!codes.includes('MISSING_SCOPES')) return undefined;
  const scopes = list(body.errors).flatMap((e) => {
    const context = isObject(e) && isObject(e.context) ? e.context : {};
    return [...list(context.requiredGranularScopes), ...list(context.requiredScopes)].filter((s): s is string => typeof s === 'string');
  });
  return { requiredScopes: [...new Set(scopes)] };
}

/** The missing scope or capability this answer reports, or undefined when it is some other refusal. */
export function missingScope(dialect: ErrorDialect, status: number, body: unknown, headers: IncomingHttpHeaders): MissingScope | undefined {
  if (status !== 403 || !isObject(body)) return undefined;
  const codes = dialectCodes(dialect, body);
  if (dialect === 'google') return google(codes, headers);
  if (dialect === 'hubspot') return hubspot(body, codes);
  return codes.includes('restricted_resource') ? { requiredScopes: [] } : undefined;
}
