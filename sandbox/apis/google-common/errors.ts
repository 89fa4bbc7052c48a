/**
 * Google API errors, in both shapes the three Google fakes answer with.
 *
 * Handlers throw {@link GoogleApiError}; each module renders it in its own shape through the one Google renderer
 * (`dialects/google.ts`): Calendar keeps the legacy `errors[]` array beside `code`/`message`/`status`, Sheets and
 * Docs send only `code`/`message`/`status` (plus `details` where Google adds an `ErrorInfo`).
 * @see https://developers.google.com/calendar/api/guides/errors
 * @see https://cloud.google.com/apis/design/errors
 */
import { USAGE_LIMIT_REASONS, googleError, type GoogleErrorOptions } from '../../dialects/google.js';
import type { ApiResponse } from '../../types.js';

// How a refusal quotes a request value, shared with the other fakes (sandbox/core/value-text.ts).
export { valueText } from '../../core/value-text.js';

/** An expected API failure inside a Google fake; the module's `handle` turns it into a response. */
export class GoogleApiError extends Error {
  readonly status: number;
  readonly options: GoogleErrorOptions;
  /** The answer to a request no route matched ({@link ApiResponse.unmodelled}). */
  unmodelled = false;

  constructor(status: number, message: string, options: GoogleErrorOptions = {}) {
    super(message);
    this.name = 'GoogleApiError';
    this.status = status;
    this.options = options;
  }
}

/** Calendar's shape: `{error:{errors:[{domain,reason,message,locationType?,location?}],code,message,status}}`. */
export function legacyErrorResponse(error: GoogleApiError): ApiResponse {
  return googleError(error.status, error.message, error.options, 'legacy');
}

/** Sheets' and Docs' shape: `{error:{code,message,status[,details]}}`. */
export function modernErrorResponse(error: GoogleApiError): ApiResponse {
  return googleError(error.status, error.message, error.options, 'modern');
}

/**
 * The error the core asks for (401, 429, injected faults), as a {@link GoogleApiError}. A 401 is Google's: the
 * top-level message the core gives (`GOOGLE_401_*` in dialects/google.ts), a legacy item `Invalid Credentials` (`Login Required.` with reason `required` when no token
 * was sent) located at the Authorization header, and an ErrorInfo whose reason says why: `ACCESS_TOKEN_EXPIRED` only
 * for an expired token, `CREDENTIALS_MISSING` for none, `ACCESS_TOKEN_TYPE_UNSUPPORTED` for one Google does not know
 * (`extra.reason` picks: `expired`, `missing`, else unknown). 429 and quota reasons carry the `RATE_LIMIT_EXCEEDED`
 * ErrorInfo.
 */
export function coreError(
  service: string,
  status: number,
  message: string,
  extra: { reason?: string; retryAfterSeconds?: number } = {},
): GoogleApiError {
  const headers: Record<string, string> = {};
  if (extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(extra.retryAfterSeconds);
  const options: GoogleErrorOptions = {};
  if (extra.reason) options.reason = extra.reason;
  if (status === 401) {
    const why = extra.reason;
    const missing = why === 'missing';
    options.locationType = 'header';
    options.location = 'Authorization';
    options.reason = missing ? 'required' : 'authError';
    options.itemMessage = missing ? 'Login Required.' : 'Invalid Credentials';
    headers['www-authenticate'] = missing ? 'Bearer realm="https://accounts.google.com/"' : 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
    options.details = [errorInfo(missing ? 'CREDENTIALS_MISSING' : why === 'expired' ? 'ACCESS_TOKEN_EXPIRED' : 'ACCESS_TOKEN_TYPE_UNSUPPORTED', service)];
    if (Object.keys(headers).length > 0) options.headers = headers;
    return new GoogleApiError(401, message, options);
  } else if (status === 429 || (options.reason && USAGE_LIMIT_REASONS.has(options.reason))) {
    options.reason ??= 'rateLimitExceeded';
    options.details = [errorInfo('RATE_LIMIT_EXCEEDED', service)];
  }
  if (Object.keys(headers).length > 0) options.headers = headers;
  return new GoogleApiError(status, message, options);
}

/** A `google.rpc.ErrorInfo` detail. */
export function errorInfo(reason: string, service: string, metadata: Record<string, string> = {}): Record<string, unknown> {
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain: 'googleapis.com',
    metadata: { service, ...metadata },
  };
}

/**
 * A Drive file (spreadsheet, document) by id, as Sheets and Docs answer for it: the caller's own; one that exists but
 * is not shared with the caller is 403 PERMISSION_DENIED "The caller does not have permission", as Google answers
 * an account (a service account, another user) the file was never shared with; an id no file has is 404.
 */
export function findFile<File>(id: string, own: ReadonlyMap<string, File>, others: Iterable<ReadonlyMap<string, File>>): File {
  const file = own.get(id);
  if (file !== undefined) return file;
  for (const theirs of others) if (theirs.has(id)) throw new GoogleApiError(403, 'The caller does not have permission');
  throw new GoogleApiError(404, 'Requested entity was not found.');
}
