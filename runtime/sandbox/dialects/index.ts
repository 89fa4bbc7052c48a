import type { ErrorDialect } from '../../types.js';
import type { ApiResponse } from '../types.js';
import { googleError } from './google.js';
import { hubspotError } from './hubspot.js';
import { notionError } from './notion.js';

export { googleError } from './google.js';
export { hubspotError } from './hubspot.js';
export { notionError } from './notion.js';

export interface DialectErrorExtra {
  reason?: string;
  retryAfterSeconds?: number;
  details?: Record<string, unknown>;
}

/** An error response in the given provider dialect. `reason` is Notion's `code`, Google's `errors[0].reason`, HubSpot's `category`. */
export function dialectError(dialect: ErrorDialect, status: number, message: string, extra: DialectErrorExtra = {}): ApiResponse {
  switch (dialect) {
    case 'notion':
      return notionError(status, message, extra);
    case 'google':
      return googleError(status, message, extra);
    case 'hubspot':
      return hubspotError(status, message, extra);
  }
}
