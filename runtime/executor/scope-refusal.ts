/**
 * A provider's missing-scope refusal (`insufficient_scope`, see http/normalize.ts) is also an account event:
 * `account.scope_insufficient` tells the application that this user must authorize again with more scopes before it
 * learns so from a failing call of its own. One event per authorization and needed scope set (the dedupe key holds
 * the account's token version), so an agent retrying in a loop does not flood the endpoints.
 *
 * The refusal also gets `details.scopes_to_request`: the scopes a step-up authorization link should ask for. The
 * provider may name several scopes of which any one would do (Google lists `calendar`, `calendar.events` and
 * `calendar.events.owned` for an event insert; HubSpot says "One or more of the following scopes are required."): the
 * one the connector asks for by default is taken, else the first the connection asks for, so a step-up never asks for
 * more than the call needs. When it says all are needed (`details.required_scopes_all`, HubSpot's "All of the
 * following scopes are required."), all are asked for, or none when one of them is outside what the connector and
 * the connection ask for: a link leaving it out could not make the call work. A named scope that neither the
 * connector nor the connection asks for is never offered: the upstream names it (a server a connection's overrides
 * name, which receives every call's access token, could name all of Gmail), and an MCP call's step-up link is minted
 * from it without the application's say (`mcp/tool-call.ts`).
 */
import { ConnectorError } from '../errors.js';
import type { AuthTarget } from '../oauth/refresh.js';
import type { RuntimeContext } from './context.js';

/** The scopes a refusal names, and whether the provider says all of them are needed (else any one would do). */
export interface RequiredScopes {
  scopes: readonly string[];
  all: boolean;
}

/**
 * All the scopes when the provider says all are needed, provided the connector or the connection asks for each;
 * else one out of those that would each allow the call: the connector's default one, else the first the connection
 * asks for. None when no such choice exists.
 */
export function scopesToRequest(required: RequiredScopes, defaultScopes: readonly string[], connectionScopes: readonly string[]): string[] {
  if (required.all) {
    const known = required.scopes.every((scope) => defaultScopes.includes(scope) || connectionScopes.includes(scope));
    return known ? [...required.scopes] : [];
  }
  const chosen = required.scopes.find((scope) => defaultScopes.includes(scope)) ?? required.scopes.find((scope) => connectionScopes.includes(scope));
  return chosen === undefined ? [] : [chosen];
}

/**
 * Writes the event when `error` is a missing-scope refusal, then hands the error back to be thrown, with
 * `details.scopes_to_request` when the provider named the scopes.
 */
export async function reportScopeRefusal(ctx: RuntimeContext, target: AuthTarget, error: ConnectorError, tool: string): Promise<ConnectorError> {
  if (error.code !== 'insufficient_scope') return error;
  const details = (error.details ?? {}) as { required_scopes?: unknown; required_scopes_all?: unknown; resource?: unknown };
  const required = Array.isArray(details.required_scopes) ? details.required_scopes.filter((s): s is string => typeof s === 'string') : [];
  const all = details.required_scopes_all === true;
  const resource = typeof details.resource === 'string' ? details.resource : null;
  const { account } = target;
  try {
    await ctx.store.appendAccountEvent(account.id, {
      type: 'account.scope_insufficient',
      details: { tool, required_scopes: required, required_scopes_all: all, resource },
      dedupeKey: `scope_insufficient:${account.id}:${account.tokenVersion}:${required.length > 0 ? required.join(' ') : (resource ?? tool)}`,
    });
  } catch (e) {
    // The caller's answer is the refusal either way; a failed event write must not replace it.
    ctx.logger?.warn({ accountId: account.id, err: e }, 'account.scope_insufficient could not be written');
  }
  const toRequest = scopesToRequest({ scopes: required, all }, target.connector.oauth.defaultScopes, target.connection.scopes);
  if (toRequest.length === 0) return error;
  return new ConnectorError(error.code, error.message, {
    status: error.status,
    details: { ...(error.details as Record<string, unknown>), scopes_to_request: toRequest },
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(error.executionId !== undefined ? { executionId: error.executionId } : {}),
  });
}
