/**
 * The one error catalogue: stable codes, each with its HTTP status, whose side it points to and a one-line meaning.
 *
 * The HTTP service renders every error as `{"error": {"code", "message", "details"?, "retry_after_seconds"?,
 * "execution_id"?, "request_id"}}` with the status from this table (`retry_after_seconds` beside a Retry-After header,
 * `execution_id` on a failed tool call or proxy request); the OpenAPI document and `docs/errors.md` list the same
 * codes (a test keeps them in step).
 * Messages and details never contain a secret: callers build them from names and ids, never from token values.
 */

/**
 * Whose side an error points to: who must act before the call can succeed.
 * - `request`: the caller's request (the agent's input, the application's token or pace); fix the call.
 * - `authorization`: the authorization the call rests on: the end user's of the connected account (the user must
 *   authorize again), or the application's OAuth client on the connection, when the provider refuses it (the
 *   operator fixes the connection).
 * - `provider`: the upstream API failed, rate-limited the call or did not answer; retry later.
 * - `service`: this service (starting, shedding load, or a bug).
 * An entry's `upstream4xxSide`, where it has one, is its side when the provider answered with a 4xx, and its
 * `refusedClientSide` its side when a token refresh was refused for the application's OAuth client (see {@link errorSide}).
 */
export type ErrorSide = 'request' | 'authorization' | 'provider' | 'service';

/** One code's entry: its HTTP status, its side (and where it has them, its sides for the cases above), its meaning. */
export interface CatalogueEntry {
  status: number;
  side: ErrorSide;
  upstream4xxSide?: ErrorSide;
  refusedClientSide?: ErrorSide;
  meaning: string;
}

export const ERROR_CATALOGUE = {
  invalid_input: { status: 400, side: 'request', meaning: 'The tool input or request body is invalid; details list every violation with its JSON pointer.' },
  invalid_proxy_request: { status: 400, side: 'request', meaning: 'The proxy request is refused before anything is sent (unsafe path, method or header).' },
  invalid_request: { status: 400, side: 'request', meaning: 'The request to the service itself is malformed (bad JSON, missing field).' },
  unauthorized: { status: 401, side: 'request', meaning: 'Missing, invalid or expired application credentials or bearer token.' },
  unknown_tool: { status: 404, side: 'request', meaning: 'No tool or alias has this name.' },
  connection_not_found: { status: 404, side: 'request', meaning: 'No connection with this name or id in this environment.' },
  account_not_found: { status: 404, side: 'authorization', meaning: 'No connected account for this identifier and connection.' },
  not_found: { status: 404, side: 'request', meaning: 'No such route or resource.' },
  method_not_allowed: { status: 405, side: 'request', meaning: 'The path exists but does not take this method; the Allow header lists the methods it takes.' },
  conflict: { status: 409, side: 'request', meaning: 'The resource already exists (e.g. a connection name in use), or its state does not allow the request (e.g. a webhook delivery already delivered).' },
  ambiguous_connection: { status: 409, side: 'request', meaning: 'connection_name was omitted and the identifier has several accounts for this connector.' },
  reauthorization_required: { status: 409, side: 'authorization', meaning: 'The account is not usable (EXPIRED, DISCONNECTED or PENDING_AUTH); the user must authorize again through a new link.' },
  authorization_failed: { status: 400, side: 'authorization', meaning: 'The OAuth authorization could not be completed (bad, replayed or expired state, denied consent, failed code exchange, another provider account on a re-authorization).' },
  insufficient_scope: { status: 403, side: 'authorization', meaning: 'The user\'s grant lacks a scope (or the integration a capability) the call needs; details name the scopes needed where the provider says, else the resource refused.' },
  upstream_error: { status: 502, side: 'provider', upstream4xxSide: 'request', refusedClientSide: 'authorization', meaning: 'The upstream API answered with an error; a 4xx keeps its status (400, 403, 404, 409, 410, 412, 422, ...), a 5xx or unreadable answer is 502; details carry the upstream status and sanitized error body.' },
  upstream_rate_limited: { status: 429, side: 'provider', meaning: 'The upstream API rate-limited the call after retries; Retry-After says when to try again.' },
  upstream_timeout: { status: 504, side: 'provider', meaning: 'The upstream API did not answer in time.' },
  rate_limited: { status: 429, side: 'request', meaning: 'This environment sent too many requests to the service; Retry-After says when to try again.' },
  unsupported_media_type: { status: 415, side: 'request', meaning: 'The request body is not application/json, the only body the API takes.' },
  payload_too_large: { status: 413, side: 'request', meaning: 'The request body or the upstream response is larger than the limit.' },
  unavailable: { status: 503, side: 'service', meaning: 'The service is starting or stopping, or is shedding load because too many calls are waiting for one upstream; Retry-After says when to try again.' },
  internal: { status: 500, side: 'service', meaning: 'A bug in the service; the request id finds it in the logs.' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Whether `value` is a code of the catalogue (a stored record or a service's answer may carry another). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/**
 * The side of an error with this code, given the status the provider answered it with (none where it gave no
 * answer) and whether it is a token refresh that refused the application's OAuth client (`oauth/refresh-refusal.ts`
 * tells it from a recorded message): the entry's `refusedClientSide` for such a refusal, where it has one (its 401 is
 * the token endpoint's verdict on the connection's client id or secret, which the operator fixes, not one on the
 * call); else its `upstream4xxSide` for a 4xx, where it has one (an `upstream_error` 4xx, a missing record or a
 * refused value, is the request's, as the provider judged it: repeated unchanged it fails again); else its `side`.
 */
export function errorSide(code: ErrorCode, upstreamStatus: number | null, refusedClient = false): ErrorSide {
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  if (refusedClient && entry.refusedClientSide !== undefined) return entry.refusedClientSide;
  return upstreamStatus !== null && upstreamStatus >= 400 && upstreamStatus < 500 && entry.upstream4xxSide !== undefined ? entry.upstream4xxSide : entry.side;
}

/** A code's side as the OpenAPI document and docs/errors.md's table say it: `provider, or request for a provider 4xx, ...`. */
export function sideText(entry: CatalogueEntry): string {
  return [
    entry.side,
    ...(entry.upstream4xxSide === undefined ? [] : [`or ${entry.upstream4xxSide} for a provider 4xx`]),
    ...(entry.refusedClientSide === undefined ? [] : [`or ${entry.refusedClientSide} for a refused OAuth client`]),
  ].join(', ');
}

export interface ConnectorErrorOptions {
  details?: unknown;
  /**
   * The HTTP status, when it is not the catalogue's: only `upstream_error` uses it, to answer with the upstream's own
   * 4xx (a caller retries a 502, never a 404 or a 409).
   */
  status?: number;
  /** Seconds, for `upstream_rate_limited`, `rate_limited` and `unavailable`. */
  retryAfterSeconds?: number;
  cause?: unknown;
  /** The failed tool call's or proxy request's execution record (see {@link ConnectorError.forExecution}). */
  executionId?: string;
}

/**
 * The error every runtime operation throws for an expected failure. `code` is stable; `status` comes from the
 * catalogue. `cause` is kept non-enumerable so that serializing the error never carries an upstream object that
 * might hold a token.
 */
export class ConnectorError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;
  /** Set on the error of a tool call or proxy request: the id of its execution record, as a success's `execution_id`. */
  readonly executionId?: string;

  constructor(code: ErrorCode, message: string, options: ConnectorErrorOptions = {}) {
    super(message);
    this.name = 'ConnectorError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    if (options.details !== undefined) this.details = options.details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.executionId !== undefined) this.executionId = options.executionId;
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false, writable: false });
    }
  }

  /**
   * This error as the failure of the execution `executionId`: a copy carrying the id, not this error changed, since
   * one error may fail several calls at once (a shared token refresh's, say) and each has its own record.
   */
  forExecution(executionId: string): ConnectorError {
    return new ConnectorError(this.code, this.message, {
      status: this.status,
      ...(this.details !== undefined ? { details: this.details } : {}),
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      ...(this.cause !== undefined ? { cause: this.cause } : {}),
      executionId,
    });
  }

  /**
   * The service's error body (without the request id, which the HTTP layer adds). `retry_after_seconds` repeats the
   * Retry-After header for whoever reads only the body: an MCP host, or a model the application hands the error to.
   */
  toJSON(): { code: ErrorCode; message: string; details?: unknown; retry_after_seconds?: number; execution_id?: string } {
    const retryAfter = wholeRetryAfterSeconds(this);
    return {
      code: this.code,
      message: this.message,
      ...(this.details !== undefined ? { details: this.details } : {}),
      ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
      ...(this.executionId !== undefined ? { execution_id: this.executionId } : {}),
    };
  }
}

/** How long to wait, as the Retry-After header and the error bodies say it: whole seconds, rounded up, never negative. */
export function wholeRetryAfterSeconds(error: Pick<ConnectorError, 'retryAfterSeconds'>): number | undefined {
  return error.retryAfterSeconds === undefined ? undefined : Math.max(0, Math.ceil(error.retryAfterSeconds));
}

export function isConnectorError(value: unknown): value is ConnectorError {
  return value instanceof ConnectorError;
}
