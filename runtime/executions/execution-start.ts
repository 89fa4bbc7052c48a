/** What a tool call or proxy request tells the execution history before it runs (see `execution-tracker.ts`). */
import type { ExecuteToolInput, ExecutionListQuery, ExecutionView, ProxyInput } from '../api.js';
import type { ExecutionFilter, ExecutionRecord } from '../store/types.js';
import type { ExecutionStart } from './execution-tracker.js';
import { JsonText } from '../proxy/json-text.js';
import { OpaqueText } from './redact-input.js';
import { proxyPathTemplate } from './proxy-template.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value.slice(0, 256) : null);

export function toolStart(environmentId: string, input: ExecuteToolInput, resolveName: (name: string) => string | undefined): ExecutionStart {
  const named = typeof input?.tool_name === 'string' ? input.tool_name : '';
  return {
    kind: 'tool',
    environmentId,
    connectionName: text(input?.connection_name),
    identifier: text(input?.identifier),
    // An alias is recorded as the tool it names, so one filter finds every call of a tool.
    operation: resolveName(named) ?? (named.slice(0, 200) || '(none)'),
    input: () => input?.tool_input ?? null,
  };
}

export function proxyStart(environmentId: string, input: ProxyInput): ExecutionStart {
  const method = typeof input?.method === 'string' ? input.method.toUpperCase().slice(0, 10) : '?';
  return {
    kind: 'proxy',
    environmentId,
    connectionName: text(input?.connection_name),
    identifier: text(input?.identifier),
    operation: `${method} ${proxyPathTemplate(input?.path)}`,
    input: () => ({ method, path: input?.path ?? null, query: input?.query ?? null, body: capturedBody(input?.body, contentType(input?.headers)) }),
  };
}

/** The Content-Type a proxy call's own headers give (any case of the name), if any. */
function contentType(headers: unknown): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type' && typeof value === 'string') return value;
  return undefined;
}

/**
 * The body as it is captured, parsed wherever it can be, so that its fields are redacted by name as an object body's
 * are: JSON text (what the HTTP service passes, or a string the caller labelled JSON) parsed; a string labelled
 * `application/x-www-form-urlencoded` as its parameters (a repeated one as a list). Kept as a string, a form's
 * `client_secret=…` or a JSON text's `"refresh_token"` went into the history whole. A body that is text after that
 * (text/plain, XML or any other type, JSON text that does not parse or is a bare string) has no field names to
 * redact by, so it is kept as `[redacted]` ({@link OpaqueText}), never as its text.
 */
function capturedBody(body: unknown, type: string | undefined): unknown {
  const read = readBody(body, type);
  return typeof read === 'string' ? new OpaqueText(read) : read;
}

function readBody(body: unknown, type: string | undefined): unknown {
  const text = body instanceof JsonText ? body.text : typeof body === 'string' && type !== undefined && /[/+]json\b/i.test(type) ? body : undefined;
  if (text !== undefined) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (typeof body === 'string' && type !== undefined && /^application\/x-www-form-urlencoded\b/i.test(type.trim())) {
    // A Map, then own properties: a parameter named `__proto__` is a field like any other.
    const params = new Map<string, string | string[]>();
    for (const [key, value] of new URLSearchParams(body)) {
      const seen = params.get(key);
      params.set(key, seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]);
    }
    return Object.fromEntries(params);
  }
  return body ?? null;
}

export function executionFilter(query: ExecutionListQuery): ExecutionFilter {
  const filter: ExecutionFilter = {};
  if (query.connection_name !== undefined) filter.connectionName = query.connection_name;
  if (query.identifier !== undefined) filter.identifier = query.identifier;
  if (query.tool !== undefined) filter.operation = query.tool;
  if (query.outcome !== undefined) filter.outcome = query.outcome;
  if (query.error_code !== undefined) filter.errorCode = query.error_code;
  if (query.since !== undefined) filter.since = query.since;
  if (query.until !== undefined) filter.until = query.until;
  return filter;
}

export function executionView(rec: ExecutionRecord): ExecutionView {
  return {
    id: rec.id,
    started_at: rec.startedAt,
    kind: rec.kind,
    connection_id: rec.connectionId,
    connection_name: rec.connectionName,
    identifier: rec.identifier,
    operation: rec.operation,
    outcome: rec.outcome,
    error_code: rec.errorCode,
    error_message: rec.errorMessage,
    upstream_status: rec.upstreamStatus,
    attempts: rec.attempts,
    duration_ms: rec.durationMs,
    input: rec.input,
  };
}
