/**
 * A provider's missing-scope refusal (`insufficient_scope`, see http/normalize.ts) is also an account event:
 * `account.scope_insufficient` tells the application that this user must authorize again with more scopes before it
 * learns so from a failing call of its own. One event per authorization and needed scope set (the dedupe key holds
 * the account's token version), so an agent retrying in a loop does not flood the endpoints.
 */
import type { ConnectorError } from '../errors.js';
import type { AuthTarget } from '../oauth/refresh.js';
import type { RuntimeContext } from './context.js';

/** Writes the event when `error` is a missing-scope refusal, then hands the error back to be thrown. */
export async function reportScopeRefusal(ctx: RuntimeContext, target: AuthTarget, error: ConnectorError, tool: string): Promise<ConnectorError> {
  if (error.code !== 'insufficient_scope') return error;
  const details = (error.details ?? {}) as { required_scopes?: unknown; resource?: unknown };
  const required = Array.isArray(details.required_scopes) ? details.required_scopes.filter((s): s is string => typeof s === 'string') : [];
  const resource = typeof details.resource === 'string' ? details.resource : null;
  const { account } = target;
  try {
    await ctx.store.appendAccountEvent(account.id, {
      type: 'account.scope_insufficient',
      details: { tool, required_scopes: required, resource },
      dedupeKey: `scope_insufficient:${account.id}:${account.tokenVersion}:${required.length > 0 ? required.join(' ') : (resource ?? tool)}`,
    });
  } catch (e) {
    // The caller's answer is the refusal either way; a failed event write must not replace it.
    ctx.logger?.warn({ accountId: account.id, err: e }, 'account.scope_insufficient could not be written');
  }
  return error;
}
