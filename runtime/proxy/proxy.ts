/**
 * The proxy: one upstream request on the user's behalf, to a path under the connector's fixed API base.
 *
 * Everything the caller controls is checked before the connection is even looked up, so a refused request costs
 * no database read and sends nothing. The upstream's answer comes back whatever its status (that is the point of a
 * proxy), without Set-Cookie or hop-by-hop headers; only a 401 that survives a refresh becomes
 * `reauthorization_required`. Only idempotent methods are retried on 429/5xx.
 */
import type { ProxyInput, ProxyResult } from '../api.js';
import { ConnectorError } from '../errors.js';
import { assertOverridesAllowed } from '../oauth/endpoints.js';
import { isIdempotentMethod } from '../http/retry.js';
import { joinUpstreamUrl } from '../http/url.js';
import type { HttpMethod } from '../types.js';
import type { RuntimeContext } from '../executor/context.js';
import { resolveTarget } from '../executor/resolve-target.js';
import { sendAuthorized } from '../executor/send-authorized.js';
import { apiBaseUrl, connectorHeaders } from '../executor/upstream-headers.js';
import { Redaction } from '../http/normalize.js';
import { jsonDepthExceededAt, MAX_JSON_DEPTH, valueDeeperThan } from '../json/untrusted-json.js';
import { pointerToken } from '../validation/violations.js';
import { checkProxyHeaders, filterResponseHeaders } from './headers.js';
import { JsonText } from './json-text.js';
import { applyPathAliases, checkProxyPath, proxyRefusal } from './path-safety.js';

const METHODS = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

function refuse(pointer: string, message: string, keyword?: string): never {
  throw proxyRefusal(pointer, message, keyword);
}

function checkMethod(method: unknown): HttpMethod {
  if (typeof method !== 'string' || !METHODS.has(method.toUpperCase() as HttpMethod)) {
    refuse('/method', `Proxy method must be one of ${[...METHODS].join(', ')}.`);
  }
  return method.toUpperCase() as HttpMethod;
}

function checkQuery(query: unknown): Record<string, string | string[]> | undefined {
  if (query === undefined || query === null) return undefined;
  if (typeof query !== 'object' || Array.isArray(query)) refuse('/query', 'Proxy query must be an object of names to strings or string arrays.');
  for (const [key, value] of Object.entries(query)) {
    const ok = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!ok) refuse(`/query/${pointerToken(key.slice(0, 64))}`, `Proxy query parameter ${JSON.stringify(key.slice(0, 64))} must be a string or an array of strings.`);
  }
  return query as Record<string, string | string[]>;
}

/**
 * The upstream body as the caller gets it: parsed JSON when the upstream says JSON, else text, else null. JSON
 * nested past the depth limit stays text: scrubbing and serializing it again would recurse that deep.
 */
function decodeBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return null;
  const text = body.toString('utf8');
  if (contentType !== undefined && /[/+]json\b/i.test(contentType) && jsonDepthExceededAt(text) === -1) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export async function runProxy(ctx: RuntimeContext, environmentId: string, input: ProxyInput): Promise<ProxyResult> {
  if (input === null || typeof input !== 'object') refuse('', 'Proxy request must be an object.', 'type');
  const method = checkMethod(input.method);
  const path = checkProxyPath(input.path);
  const callerHeaders = checkProxyHeaders(input.headers as Record<string, unknown> | undefined);
  const query = checkQuery(input.query);
  if (input.body !== undefined && input.body !== null && method === 'GET') refuse('/body', 'A GET proxy request cannot have a body.', 'body');
  if (typeof input.connection_name !== 'string' || input.connection_name === '') {
    throw new ConnectorError('invalid_request', 'connection_name is required.', {
      details: { violations: [{ pointer: '/connection_name', message: 'connection_name is required', keyword: 'required' }] },
    });
  }

  const target = await resolveTarget(ctx, environmentId, input.connection_name, input.identifier);
  const { connector, connection } = target;
  assertOverridesAllowed(connection.overrides, ctx.overridePolicy);
  const url = joinUpstreamUrl(apiBaseUrl(connector, connection.overrides), applyPathAliases(path, connector.proxyPathAliases), query);
  const headers: Record<string, string> = { ...connectorHeaders(connector), ...callerHeaders };
  let body: string | undefined;
  if (input.body !== undefined && input.body !== null) {
    if (typeof input.body === 'string' && headers['content-type'] !== undefined) {
      body = input.body;
    } else if (input.body instanceof JsonText) {
      body = input.body.text;
      headers['content-type'] ??= 'application/json';
    } else {
      // JSON.stringify recurses: a value nested thousands deep would overflow the stack instead of being refused.
      if (valueDeeperThan(input.body)) refuse('/body', `Proxy body is nested deeper than ${MAX_JSON_DEPTH} levels.`, 'depth');
      body = JSON.stringify(input.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const retry = isIdempotentMethod(method);
  const res = await sendAuthorized(ctx, target, (bearer) => ({
    method,
    url,
    headers: { ...headers, authorization: bearer },
    ...(body === undefined ? {} : { body }),
    retry,
  }));
  const contentType = res.headers['content-type'];
  // An upstream that echoes the request (a debug endpoint, an error quoting it) would hand the caller the user's
  // provider token, which the application must never see: every token this account holds is scrubbed. The call
  // usually used the account's own access token, and that set's redaction is kept; after a refresh, a redaction of
  // this call's own covers the new token and the set the call started from.
  const held = target.account.tokens;
  const redaction =
    held !== null && res.tokens === held
      ? ctx.redactions.accessAndRefreshTokens(held)
      : new Redaction([res.token, held?.accessToken, held?.refreshToken].filter((t): t is string => typeof t === 'string'));
  return {
    status: res.status,
    headers: redaction.apply(filterResponseHeaders(res.headers as Record<string, string | string[] | undefined>)),
    body: redaction.apply(decodeBody(res.body, typeof contentType === 'string' ? contentType : undefined)),
  };
}
