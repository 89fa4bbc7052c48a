/**
 * Google API errors, in both shapes the three Google fakes answer with.
 *
 * Handlers throw {@link GoogleApiError}; each module renders it in its own dialect: Calendar keeps the legacy
 * `errors[]` array beside `code`/`message`/`status`, Sheets and Docs send only `code`/`message`/`status` (plus
 * `details` where Google adds an `ErrorInfo`).
 * @see https://developers.google.com/calendar/api/guides/errors
 * @see https://cloud.google.com/apis/design/errors
 */
import type { ApiResponse } from '../../types.js';

/** The canonical gRPC status name Google puts in `error.status` for each HTTP status it uses. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'FAILED_PRECONDITION',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The legacy `reason` Calendar uses when a handler does not name one. */
const DEFAULT_REASONS: Record<number, string> = {
  400: 'badRequest',
  401: 'authError',
  403: 'forbidden',
  404: 'notFound',
  409: 'duplicate',
  410: 'deleted',
  412: 'conditionNotMet',
  429: 'rateLimitExceeded',
  500: 'backendError',
  501: 'notImplemented',
  503: 'backendError',
};

const USAGE_LIMIT_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
]);

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN');
}

export interface GoogleErrorOptions {
  /** Legacy reason (Calendar's `errors[0].reason`), e.g. `timeRangeEmpty`. */
  reason?: string;
  /** Legacy domain; derived from the reason when absent (`usageLimits` for quota reasons, else `global`). */
  domain?: string;
  /** What was wrong: a query parameter (`parameter`) or a header (`header`), and its name. */
  locationType?: 'parameter' | 'header';
  location?: string;
  /** `error.details` entries (e.g. a `google.rpc.ErrorInfo`). */
  details?: unknown[];
  headers?: Record<string, string>;
}

/** An expected API failure inside a Google fake; the module's `handle` turns it into a response. */
export class GoogleApiError extends Error {
  readonly status: number;
  readonly options: GoogleErrorOptions;

  constructor(status: number, message: string, options: GoogleErrorOptions = {}) {
    super(message);
    this.name = 'GoogleApiError';
    this.status = status;
    this.options = options;
  }
}

/** Calendar's shape: `{error:{errors:[{domain,reason,message,locationType?,location?}],code,message,status}}`. */
export function legacyErrorResponse(error: GoogleApiError): ApiResponse {
  const { status, options } = error;
  const reason = options.reason ?? DEFAULT_REASONS[status] ?? 'unknown';
  const domain = options.domain ?? (USAGE_LIMIT_REASONS.has(reason) ? 'usageLimits' : 'global');
  const item: Record<string, string> = { domain, reason, message: error.message };
  if (options.locationType) item.locationType = options.locationType;
  if (options.location) item.location = options.location;
  const body: Record<string, unknown> = { errors: [item], code: status, message: error.message, status: statusName(status) };
  if (options.details) body.details = options.details;
  return withHeaders({ status, body: { error: body } }, options.headers);
}

/** Sheets' and Docs' shape: `{error:{code,message,status[,details]}}`. */
export function modernErrorResponse(error: GoogleApiError): ApiResponse {
  const { status, options } = error;
  const body: Record<string, unknown> = { code: status, message: error.message, status: statusName(status) };
  if (options.details) body.details = options.details;
  return withHeaders({ status, body: { error: body } }, options.headers);
}

function withHeaders(response: ApiResponse, headers?: Record<string, string>): ApiResponse {
  return headers ? { ...response, headers } : response;
}

/**
 * The error the core asks for (401, 429, injected faults), as a {@link GoogleApiError}. 401 names the
 * Authorization header like Google does; 429 and quota reasons carry Google's `ErrorInfo`.
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
    options.locationType = 'header';
    options.location = 'Authorization';
    options.reason ??= 'authError';
    headers['www-authenticate'] = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
    options.details = [errorInfo('ACCESS_TOKEN_EXPIRED', service)];
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
