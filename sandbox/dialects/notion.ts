import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../types.js';

/** Notion's error code for each status the sandbox produces when the caller gives none. */
const DEFAULT_CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'restricted_resource',
  404: 'object_not_found',
  409: 'conflict_error',
  429: 'rate_limited',
  500: 'internal_server_error',
  502: 'internal_server_error',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/**
 * A Notion error response: `{object:"error", status, code, message, request_id}`.
 * @see https://developers.notion.com/reference/status-codes
 */
export function notionError(
  status: number,
  message: string,
  extra: { reason?: string; retryAfterSeconds?: number; details?: Record<string, unknown> } = {},
): ApiResponse {
  const headers: Record<string, string> = {};
  if (extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(extra.retryAfterSeconds)));
  return {
    status,
    headers,
    body: {
      object: 'error',
      status,
      code: extra.reason ?? DEFAULT_CODES[status] ?? 'internal_server_error',
      message,
      request_id: randomUUID(),
      ...(extra.details ? { additional_data: extra.details } : {}),
    },
  };
}
