/**
 * The one renderer of Google API error bodies, for the three Google fakes (Calendar, Sheets, Docs) and for the
 * errors the sandbox core asks them for (401, 429, injected faults).
 * @see https://developers.google.com/calendar/api/guides/errors
 * @see https://cloud.google.com/apis/design/errors
 */
import type { ApiResponse } from '../types.js';

/** Google's top-level 401 messages: a token it does not accept (unknown, revoked or expired), and no token at all. */
export const GOOGLE_401_INVALID =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
export const GOOGLE_401_MISSING =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

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

/** Reasons Google files under the `usageLimits` domain (and answers with a `RATE_LIMIT_EXCEEDED` ErrorInfo). */
export const USAGE_LIMIT_REASONS: ReadonlySet<string> = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded']);

/** The `error.status` name for an HTTP status. */
export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN');
}

export interface GoogleErrorOptions {
  /** Legacy reason (Calendar's `errors[0].reason`), e.g. `timeRangeEmpty`. */
  reason?: string;
  /** The legacy `errors[0].message`, where Google words it differently from the top-level message. */
  itemMessage?: string;
  /** Legacy domain; derived from the reason when absent (`usageLimits` for quota reasons, else `global`). */
  domain?: string;
  /** What was wrong: a query parameter (`parameter`) or a header (`header`), and its name. */
  locationType?: 'parameter' | 'header';
  location?: string;
  /** `error.details` entries (e.g. a `google.rpc.ErrorInfo`). */
  details?: unknown[];
  headers?: Record<string, string>;
}

/**
 * `legacy` is Calendar's `{error:{errors:[{domain,reason,message,locationType?,location?}],code,message,status}}`;
 * `modern` is Sheets' and Docs' `{error:{code,message,status[,details]}}`.
 */
export type GoogleErrorShape = 'legacy' | 'modern';

/** A Google error response in the given shape. */
export function googleError(status: number, message: string, options: GoogleErrorOptions = {}, shape: GoogleErrorShape = 'legacy'): ApiResponse {
  const body: Record<string, unknown> = {};
  if (shape === 'legacy') {
    const reason = options.reason ?? DEFAULT_REASONS[status] ?? 'unknown';
    const domain = options.domain ?? (USAGE_LIMIT_REASONS.has(reason) ? 'usageLimits' : 'global');
    const item: Record<string, string> = { message: options.itemMessage ?? message, domain, reason };
    if (options.locationType) item.locationType = options.locationType;
    if (options.location) item.location = options.location;
    body.errors = [item];
  }
  Object.assign(body, { code: status, message, status: statusName(status) });
  if (options.details) body.details = options.details;
  const response: ApiResponse = { status, body: { error: body } };
  return options.headers ? { ...response, headers: options.headers } : response;
}
