/**
 * Errors the HTTP client throws: the service's error body turned back into a {@link ConnectorError}, so code written
 * against the in-process runtime catches the same codes and statuses (an `upstream_error` keeps the upstream's 4xx,
 * as in-process, and a failed call's `executionId`), plus the request id to quote.
 */
import { ConnectorError, isErrorCode, type ErrorCode } from '../errors.js';

export class ServiceError extends ConnectorError {
  /** The `x-request-id` of the failed request (from the body, else the header). */
  readonly requestId: string | undefined;
  /** The HTTP status the service answered. */
  readonly httpStatus: number;

  constructor(code: ErrorCode, message: string, init: { httpStatus: number; requestId?: string; details?: unknown; retryAfterSeconds?: number; executionId?: string }) {
    super(code, message, {
      status: init.httpStatus,
      ...(init.details !== undefined ? { details: init.details } : {}),
      ...(init.retryAfterSeconds !== undefined ? { retryAfterSeconds: init.retryAfterSeconds } : {}),
      ...(init.executionId !== undefined ? { executionId: init.executionId } : {}),
    });
    this.name = 'ServiceError';
    this.requestId = init.requestId;
    this.httpStatus = init.httpStatus;
  }
}

/** Builds the error for a non-2xx response whose body has been read as `body` (parsed JSON or text). */
export function serviceErrorFrom(status: number, headers: Headers, body: unknown): ServiceError {
  const requestId = headers.get('x-request-id') ?? undefined;
  const retryAfter = Number(headers.get('retry-after'));
  const retry = Number.isFinite(retryAfter) && headers.has('retry-after') ? { retryAfterSeconds: retryAfter } : {};
  const err = (body as { error?: unknown } | null)?.error;
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; details?: unknown; execution_id?: unknown; request_id?: unknown };
    const code = isErrorCode(e.code) ? e.code : status >= 500 ? 'internal' : 'invalid_request';
    return new ServiceError(code, typeof e.message === 'string' ? e.message : `HTTP ${status}`, {
      httpStatus: status,
      requestId: typeof e.request_id === 'string' ? e.request_id : requestId,
      ...(e.details !== undefined ? { details: e.details } : {}),
      ...(typeof e.execution_id === 'string' ? { executionId: e.execution_id } : {}),
      ...retry,
    });
  }
  // The OAuth token endpoint's own shape: {"error": "invalid_client"}.
  if (typeof err === 'string') {
    return new ServiceError('unauthorized', `The service refused the application credentials (${err})`, { httpStatus: status, ...(requestId ? { requestId } : {}) });
  }
  const code: ErrorCode = status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 429 ? 'rate_limited' : status >= 500 ? 'internal' : 'invalid_request';
  return new ServiceError(code, `The service answered HTTP ${status}`, { httpStatus: status, ...(requestId ? { requestId } : {}), ...retry });
}

/**
 * The service's answer body: parsed JSON, the raw text when it is not JSON (a proxy's HTML error page, say), or
 * undefined when empty. Throws the {@link ServiceError} for a non-2xx answer.
 */
export async function readServiceResponse(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) throw serviceErrorFrom(response.status, response.headers, body);
  return body;
}
