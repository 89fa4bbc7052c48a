/**
 * Sends an upstream call with the account's bearer token; on 401, refreshes once and retries once. This is the one
 * place the 401 -> refresh -> retry rule lives, for tool calls and proxy requests alike.
 */
import type { UpstreamCall, UpstreamResponse } from '../http/client.js';
import { reauthorizationRequired } from '../oauth/reauthorization.js';
import type { AccessToken, AuthTarget } from '../oauth/refresh.js';
import type { TokenSet } from '../store/types.js';
import type { RuntimeContext } from './context.js';

export interface AuthorizedResponse extends UpstreamResponse {
  /** The token the final attempt used, so answers and error bodies can be scrubbed of it. */
  token: string;
  /** The token set it is the access token of: the key of its redactions (`token-redactions.ts`). */
  tokens: TokenSet;
}

export async function sendAuthorized(ctx: RuntimeContext, target: AuthTarget, build: (bearer: string) => UpstreamCall): Promise<AuthorizedResponse> {
  // The execution history learns each upstream answer here (and the connection earlier, in resolveTarget).
  const execution = ctx.execution;
  try {
    const first = await ctx.refresher.accessToken(target);
    const res = await ctx.http.send(build(`Bearer ${first.token}`));
    execution?.noteResponse(res);
    if (res.status !== 401) return withToken(res, first);
    ctx.cache.invalidateAccount(target.account);
    const second = await ctx.refresher.afterRejection(target, first.version);
    const retried = await ctx.http.send(build(`Bearer ${second.token}`));
    execution?.noteResponse(retried);
    if (retried.status === 401) {
      // A token minted a moment ago was refused too: the grant no longer works for this API.
      throw reauthorizationRequired(target.account, target.connection.name, 'access token refused after refresh');
    }
    return withToken(retried, second);
  } catch (error) {
    // Whatever went wrong (EXPIRED, DISCONNECTED, a failed refresh), the next call starts from the database.
    ctx.cache.invalidateAccount(target.account);
    throw error;
  }
}

function withToken(res: UpstreamResponse, used: AccessToken): AuthorizedResponse {
  const out = res as AuthorizedResponse;
  out.token = used.token;
  out.tokens = used.tokens;
  return out;
}
