/**
 * Tool execution: resolve -> validate -> build -> attach token -> send -> normalize.
 *
 * An input that fails validation is refused before the connection lookup and never reaches the upstream; only its
 * execution record then looks up the connection the call would have used (`noteIntendedConnection`). The upstream's JSON
 * answer is returned as `data`; an empty answer (204, or 200 with no body, e.g. a DELETE) becomes `{}` so that
 * `data` is always an object a caller can inspect, and no field is invented that the upstream did not send.
 */
import { randomUUID } from 'node:crypto';
import { readModelInput, type ModelInput } from '../agent/model-input.js';
import type { ExecuteToolInput, ExecuteToolResult } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { UpstreamCall } from '../http/client.js';
import { isDialectRateLimit, parseBody, upstreamError } from '../http/normalize.js';
import { assertOverrideAllowed } from '../oauth/endpoints.js';
import { isIdempotentMethod } from '../http/retry.js';
import { joinUpstreamUrl } from '../http/url.js';
import type { ToolDefinition, Violation } from '../types.js';
import type { RuntimeContext } from './context.js';
import { unknownToolError } from './unknown-tool.js';
import { runPrecheck } from './precheck.js';
import { noteIntendedConnection, resolveTarget } from './resolve-target.js';
import { reportScopeRefusal } from './scope-refusal.js';
import { sendAuthorized } from './send-authorized.js';
import { apiBaseUrl, connectorHeaders } from './upstream-headers.js';

function stripVersions(value: Record<string, unknown>): Record<string, unknown> {
  if (!('tool_version' in value) && !('schema_version' in value)) return value;
  const { tool_version: _t, schema_version: _s, ...rest } = value;
  return rest;
}

/** Google answers some rate limits with 403 and a reason in the body, which is retried like a 429. */
function isGoogleRateLimit(status: number, body: Buffer): boolean {
  return status === 403 && isDialectRateLimit('google', status, parseBody(body));
}

function mayRetry(tool: ToolDefinition, method: string): boolean {
  if (tool.retry === 'never') return false;
  return tool.retry === 'safe' || isIdempotentMethod(method);
}

/** The tool's input read back from its model-side shapes (null = absent, {name, value} pairs, JSON text): agent/model-input.ts. */
function modelInput(tool: ToolDefinition, raw: unknown): ModelInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConnectorError('invalid_input', 'tool_input must be an object.', {
      details: { violations: [{ pointer: '', message: 'tool_input must be an object', keyword: 'type' }] },
    });
  }
  return readModelInput(tool.inputSchema, raw as Record<string, unknown>);
}

/** The tool's input, validated (versions stripped), or `invalid_input` naming every violation (in the decoded input). */
function validInput(tool: ToolDefinition, read: ModelInput): Record<string, unknown> {
  const checked = tool.validate(read.input);
  if (!checked.ok) {
    const names = checked.violations.map((v) => v.message).join('; ');
    throw new ConnectorError('invalid_input', `Invalid input for ${tool.name}: ${names}`, { details: { violations: checked.violations } });
  }
  return stripVersions(checked.value as Record<string, unknown>);
}

/**
 * `run`, whose `invalid_input` (the validator's, a pre-check's, a request builder's: each found in the decoded input)
 * is answered said of the input as the model wrote it: each violation's pointer and name, and the message that
 * quotes them (read.modelSide). An input sent as objects keeps every pointer as it was.
 */
async function asTheModelWroteIt<T>(read: ModelInput, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw modelSideError(error, read);
  }
}

function modelSideError(error: unknown, read: ModelInput): unknown {
  if (!(error instanceof ConnectorError) || error.code !== 'invalid_input' || !isViolations(error.details)) return error;
  const before = error.details.violations;
  const after = before.map((v) => read.modelSide(v));
  if (after.every((v, i) => v === before[i])) return error;
  // The error's message quotes the violations' messages in order (`Invalid input for x: a; b`): each is replaced where it is.
  let message = '';
  let rest = error.message;
  before.forEach((v, i) => {
    const at = rest.indexOf(v.message);
    if (at < 0) return;
    message += rest.slice(0, at) + after[i]!.message;
    rest = rest.slice(at + v.message.length);
  });
  return new ConnectorError('invalid_input', message + rest, {
    status: error.status,
    details: { ...error.details, violations: after },
    ...(error.cause !== undefined ? { cause: error.cause } : {}),
  });
}

function isViolations(details: unknown): details is { violations: Violation[] } {
  return typeof details === 'object' && details !== null && Array.isArray((details as { violations?: unknown }).violations);
}

export async function executeTool(ctx: RuntimeContext, environmentId: string, input: ExecuteToolInput): Promise<ExecuteToolResult> {
  const tool = ctx.tools.resolve(input?.tool_name);
  if (tool === undefined) throw unknownToolError(ctx.tools, input?.tool_name, '/tool_name');
  let read: ModelInput;
  let value: Record<string, unknown>;
  try {
    read = modelInput(tool, input.tool_input ?? {});
    value = await asTheModelWroteIt(read, () => validInput(tool, read));
  } catch (error) {
    // Refused as it is: nothing is sent. The history still names the connection the call would have used.
    await noteIntendedConnection(ctx, environmentId, input.connection_name, input.identifier, tool.connector);
    throw error;
  }

  const target = await resolveTarget(ctx, environmentId, input.connection_name, input.identifier, tool.connector);
  const { connector, connection } = target;
  // A stored API base override is checked again at use (the policy may be stricter than when it was written);
  // only the API base matters to a tool call, and most connections have none, so this costs nothing on the usual path.
  if (connection.overrides.apiBaseUrl !== undefined) assertOverrideAllowed('apiBaseUrl', connection.overrides.apiBaseUrl, ctx.overridePolicy);
  const request = await asTheModelWroteIt(read, async () => tool.buildRequest(tool.precheck === undefined ? value : await runPrecheck(ctx, target, tool.precheck, value, tool)));
  const url = joinUpstreamUrl(apiBaseUrl(connector, connection.overrides), request.path, request.query);
  const headers: Record<string, string> = { ...connectorHeaders(connector) };
  for (const [name, v] of Object.entries(request.headers)) headers[name.toLowerCase()] = v;
  let body: string | undefined;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const retry = mayRetry(tool, request.method);
  const dialect = connector.errorDialect;
  const isRateLimited = dialect === 'google' ? isGoogleRateLimit : undefined;
  const res = await sendAuthorized(ctx, target, (bearer: string): UpstreamCall => {
    // `headers` is this call's own object, and a second attempt (after a 401) starts after the first has ended.
    headers.authorization = bearer;
    const call: UpstreamCall = { method: request.method, url, headers, retry };
    if (body !== undefined) call.body = body;
    if (isRateLimited !== undefined) call.isRateLimited = isRateLimited;
    return call;
  });
  if (res.status < 200 || res.status >= 300) {
    // A refusal may mean what the pre-check read (a schema) changed upstream: the next call reads it again.
    if (tool.precheck !== undefined && res.status >= 400 && res.status < 500) ctx.prechecks.invalidateAccount(target.account.id);
    const refusal = upstreamError({ dialect, status: res.status, headers: res.headers, body: res.body, secrets: ctx.redactions.accessToken(res.tokens), resource: `${request.method} ${request.path}`, hints: tool.upstreamErrors, repeatable: retry, now: ctx.now() });
    throw await reportScopeRefusal(ctx, target, refusal, tool.name);
  }
  let data: unknown = res.body.length === 0 ? {} : parseBody(res.body);
  if (typeof data === 'string') {
    throw new ConnectorError('upstream_error', `The upstream API answered ${res.status} with a body that is not JSON.`, { details: { status: res.status, body: null } });
  }
  // An upstream that echoes the request (a debug field, an override's server) would hand the caller the user's
  // provider token, which the application must never see: scrubbed from the answer as from an error's body.
  data = ctx.redactions.accessToken(res.tokens).apply(data);
  if (tool.transformResponse !== undefined) data = tool.transformResponse(data, value);
  return { data, execution_id: randomUUID() };
}
