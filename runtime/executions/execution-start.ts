/** What a tool call or proxy request tells the execution history before it runs (see `execution-tracker.ts`). */
import type { ExecuteToolInput, ExecutionListQuery, ExecutionView, ProxyInput } from '../api.js';
import type { ExecutionFilter, ExecutionRecord } from '../store/types.js';
import type { ExecutionStart } from './execution-tracker.js';
import { JsonText } from '../proxy/json-text.js';
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
    input: () => ({ method, path: input?.path ?? null, query: input?.query ?? null, body: capturedBody(input?.body) }),
  };
}

/** A body given as its JSON text (what the HTTP service passes) is captured parsed, so its fields can be redacted. */
function capturedBody(body: unknown): unknown {
  if (!(body instanceof JsonText)) return body ?? null;
  try {
    return JSON.parse(body.text) as unknown;
  } catch {
    return body.text;
  }
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
    upstream_status: rec.upstreamStatus,
    attempts: rec.attempts,
    duration_ms: rec.durationMs,
    input: rec.input,
  };
}
