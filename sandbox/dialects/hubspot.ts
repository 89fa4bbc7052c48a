import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../types.js';

const DEFAULT_CATEGORIES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'INVALID_AUTHENTICATION',
  403: 'MISSING_SCOPES',
  404: 'OBJECT_NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITS',
};

export interface HubSpotErrorExtra {
  /** The `category`, e.g. `VALIDATION_ERROR`; defaults by status. */
  reason?: string;
  retryAfterSeconds?: number;
  /** Extra top-level fields: `context`, `errors`, `subCategory`, `policyName`, `errorType`, ... */
  details?: Record<string, unknown>;
}

/**
 * A HubSpot error: `{status:"error", message, correlationId, category, ...}`.
 * @see https://developers.hubspot.com/docs/api/error-handling
 */
export function hubspotError(status: number, message: string, extra: HubSpotErrorExtra = {}): ApiResponse {
  const headers: Record<string, string> = {};
  if (extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(extra.retryAfterSeconds)));
  const category = extra.reason ?? DEFAULT_CATEGORIES[status];
  return {
    status,
    headers,
    body: {
      status: 'error',
      message,
      correlationId: randomUUID(),
      ...(category ? { category } : {}),
      ...(extra.details ?? {}),
    },
  };
}
