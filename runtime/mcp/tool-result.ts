/**
 * A tool call's outcome as an MCP `CallToolResult`. Success: `structuredContent` (the tool's `data`) and the same JSON
 * as text, for hosts that show only text. Failure: `isError: true` and one text block holding
 * `{"error": {code, message, violations?, details?, retry_after_seconds?, execution_id?, authorization_url?}}`, the
 * service's own error body, so the model can read what went wrong and correct itself: `violations` (an invalid
 * input's, at the top as they always were here), `details` (everything else the HTTP body's details say: the
 * provider's status and answer on `upstream_error`, `required_scopes` on `insufficient_scope`, ...), `retry_after_seconds`
 * (how long to wait before the same call can work, which a tool result has no header to say). Errors carry no
 * `structuredContent`: clients check it against the tool's output schema, which describes a success.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { wholeRetryAfterSeconds, type ConnectorError } from '../errors.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function successResult(data: unknown): CallToolResult {
  // structuredContent must be an object; an array or scalar answer travels as `{result: ...}`.
  const structured = isPlainObject(data) ? data : { result: data };
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: structured };
}

export interface ErrorExtras {
  /** An authorization link the user must open before the tool can run. */
  authorization_url?: string;
  authorization_url_expires_at?: string;
}

export function errorResult(
  error: Pick<ConnectorError, 'code' | 'message' | 'details' | 'retryAfterSeconds' | 'executionId'>,
  extras: ErrorExtras = {},
): CallToolResult {
  const { violations, ...rest } = isPlainObject(error.details) ? error.details : {};
  const retryAfter = wholeRetryAfterSeconds(error);
  const body = {
    code: error.code,
    message: error.message,
    ...(violations === undefined ? {} : { violations }),
    ...(Object.keys(rest).length === 0 ? {} : { details: rest }),
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
    ...(error.executionId === undefined ? {} : { execution_id: error.executionId }),
    ...extras,
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}
