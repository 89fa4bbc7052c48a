import type { ApiResponse } from '../types.js';

/** google.rpc.Code names by HTTP status, as Google's JSON error body carries them in `error.status`. */
const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'NOT_FOUND',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

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
  503: 'backendError',
};

const USAGE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded']);

export interface GoogleErrorExtra {
  reason?: string;
  retryAfterSeconds?: number;
  /** `errors[0].domain`; defaults to `usageLimits` for rate-limit reasons, else `global`. */
  domain?: string;
  /** `errors[0].location` and `locationType` (e.g. a query parameter name). */
  location?: string;
  locationType?: 'parameter' | 'header';
  details?: Record<string, unknown>;
}

/**
 * A Google API error: `{error:{code, message, errors:[{domain, reason, message, ...}], status}}`, the shape
 * Calendar, Sheets and Docs share (the legacy `errors[]` array beside the newer `status`). A 401 also carries
 * `WWW-Authenticate`, as Google's front end sends it.
 * @see https://developers.google.com/calendar/api/guides/errors
 * @see https://cloud.google.com/apis/design/errors
 */
export function googleError(status: number, message: string, extra: GoogleErrorExtra = {}): ApiResponse {
  const reason = extra.reason ?? DEFAULT_REASONS[status] ?? 'backendError';
  const item: Record<string, unknown> = {
    domain: extra.domain ?? (USAGE_LIMIT_REASONS.has(reason) ? 'usageLimits' : 'global'),
    reason,
    message,
  };
  if (status === 401) {
    item.locationType = 'header';
    item.location = 'Authorization';
  }
  if (extra.location) {
    item.locationType = extra.locationType ?? 'parameter';
    item.location = extra.location;
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
  if (extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(extra.retryAfterSeconds)));
  return {
    status,
    headers,
    body: {
      error: {
        code: status,
        message,
        errors: [item],
        status: RPC_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
        ...(extra.details ? { details: [extra.details] } : {}),
      },
    },
  };
}
