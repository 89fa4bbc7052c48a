/**
 * The error codes a provider's error answer carries, where each dialect puts them: the one reader of them for every
 * rule that asks (a rate limit in Google's 403, a missing scope, a tool's upstream hints).
 * - Google: `error.status` (`NOT_FOUND`), the legacy `error.errors[].reason` (`notFound`, `rateLimitExceeded`,
 *   `insufficientPermissions`) and an ErrorInfo's `error.details[].reason` (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`);
 * - Notion: `code` (`object_not_found`, `restricted_resource`);
 * - HubSpot: `category` (`OBJECT_NOT_FOUND`, `MISSING_SCOPES`), `subCategory`, and each `errors[].code`
 *   (`PROPERTY_DOESNT_EXIST`).
 * @see https://cloud.google.com/apis/design/errors
 * @see https://developers.notion.com/reference/status-codes
 * @see https://developers.hubspot.com/docs/api/error-handling
 */
import type { ErrorDialect } from '../types.js';

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
