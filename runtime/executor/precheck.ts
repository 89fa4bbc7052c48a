/**
 * Runs a tool's pre-check (`precheck` in its spec): after validation, before the request is built. The check reads
 * the upstream only through {@link PrecheckIO.get}, which is the tool call's own path (the account's token, one
 * refresh on 401, the HTTP policy's retries, the same error mapping), so a pre-check never sees a credential and its
 * failures read like the tool call's.
 */
import { ConnectorError } from '../errors.js';
import { parseBody, upstreamError } from '../http/normalize.js';
import { joinUpstreamUrl } from '../http/url.js';
import type { AuthTarget } from '../oauth/refresh.js';
import type { Precheck, PrecheckIO, ToolDefinition } from '../types.js';
import type { RuntimeContext } from './context.js';
import { reportScopeRefusal } from './scope-refusal.js';
import { sendAuthorized } from './send-authorized.js';
import { apiBaseUrl, connectorHeaders } from './upstream-headers.js';

/** `tool` is the tool whose call this is: its name for scope refusals, its hints for the upstream's refusals. */
export function runPrecheck<I>(ctx: RuntimeContext, target: AuthTarget, precheck: Precheck<I>, input: I, tool: Pick<ToolDefinition, 'name' | 'upstreamErrors'>): Promise<I> {
  const { connector, connection, account } = target;
  const vh = connector.api.versionHeader;
  const chosen = vh === null ? undefined : (input as Record<string, unknown>)[vh.parameter];
  const io: PrecheckIO = {
    async get(path, extra = {}) {
      const url = joinUpstreamUrl(apiBaseUrl(connector, connection.overrides), path);
      const res = await sendAuthorized(ctx, target, (bearer) => {
        const headers: Record<string, string> = { ...connectorHeaders(connector), authorization: bearer };
        for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
        return { method: 'GET', url, headers, retry: true };
      });
      const dialect = connector.errorDialect;
      if (res.status < 200 || res.status >= 300) {
        // The read is the tool call's own (a database not shared is the same mistake either way), so are its hints.
        const refusal = upstreamError({ dialect, status: res.status, headers: res.headers, body: res.body, secrets: ctx.redactions.accessToken(res.tokens), resource: `GET ${path}`, hints: tool.upstreamErrors, repeatable: true, now: ctx.now() });
        throw await reportScopeRefusal(ctx, target, refusal, tool.name);
      }
      const data = parseBody(res.body);
      if (typeof data !== 'object' || data === null) {
        throw new ConnectorError('upstream_error', `The upstream API answered ${res.status} with a body that is not a JSON object.`, { details: { status: res.status, body: null } });
      }
      // What a pre-check reads, it may quote in a refusal (a database's column names) and caches for the account: an
      // upstream that echoes the request would put the user's token there, so it is scrubbed as a tool's answer is.
      return ctx.redactions.accessToken(res.tokens).apply(data);
    },
    cache: {
      get: (key) => ctx.prechecks.get(account.id, key),
      set: (key, value) => ctx.prechecks.set(account.id, key, value),
    },
    ...(vh === null ? {} : { version: typeof chosen === 'string' ? chosen : vh.default }),
  };
  return precheck(input, io);
}
