import { hubspotError } from '../../dialects/hubspot.js';
import type { ApiResponse } from '../../types.js';

/** Thrown by handlers; rendered as a HubSpot error body. */
export class HubSpotApiError extends Error {
  constructor(
    readonly status: number,
    readonly category: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The answer to a request no route matched ({@link ApiResponse.unmodelled}). */
  unmodelled = false;

  toResponse(): ApiResponse {
    const response = hubspotError(this.status, this.message, { reason: this.category, details: this.extra });
    return this.unmodelled ? { ...response, unmodelled: true } : response;
  }
}

export function invalid(message: string, extra: Record<string, unknown> = {}): HubSpotApiError {
  return new HubSpotApiError(400, 'VALIDATION_ERROR', message, extra);
}

export function notFound(): HubSpotApiError {
  return new HubSpotApiError(404, 'OBJECT_NOT_FOUND', 'resource not found');
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
