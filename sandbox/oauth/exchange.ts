import type { OAuthProvider, RegisteredClient } from '../types.js';
import { verifyPkce } from './authorize.js';
import type { OAuthContext } from './context.js';
import type { AccessTokenRecord, Grant, RefreshTokenRecord } from './grant-store.js';

export type ExchangeFailure =
  | 'code_invalid'
  | 'code_reused'
  | 'code_expired'
  | 'code_other_client'
  | 'redirect_mismatch'
  | 'verifier_missing'
  | 'verifier_invalid';

export interface Issued {
  grant: Grant;
  access: AccessTokenRecord;
  refresh: RefreshTokenRecord | null;
}

/**
 * The authorization-code grant (RFC 6749 section 4.1.3) common to the three providers: the code is single-use,
 * bound to its client and to the redirect URI of the authorize request, and (RFC 7636) to its PKCE challenge.
 */
export function exchangeCode(
  ctx: OAuthContext,
  provider: OAuthProvider,
  client: RegisteredClient,
  input: { code: string; redirectUri: string | null; codeVerifier: string | null },
  lifetimeSeconds: number | null,
): Issued | { failure: ExchangeFailure } {
  const taken = ctx.store.takeCode(provider, input.code, ctx.now());
  if (!taken.ok) return { failure: taken.why === 'used' ? 'code_reused' : taken.why === 'expired' ? 'code_expired' : 'code_invalid' };
  const code = taken.code;
  if (code.clientId !== client.clientId) return { failure: 'code_other_client' };
  if (code.redirectUri !== input.redirectUri) return { failure: 'redirect_mismatch' };
  if (code.codeChallenge) {
    if (!input.codeVerifier) return { failure: 'verifier_missing' };
    if (!verifyPkce(code.codeChallenge, code.codeChallengeMethod, input.codeVerifier)) return { failure: 'verifier_invalid' };
  }
  const grant = ctx.store.createGrant(provider, client.clientId, code.user, code.scopes);
  const access = ctx.store.issueAccessToken(grant, ctx.now(), lifetimeSeconds);
  const refresh = code.issueRefreshToken ? ctx.store.issueRefreshToken(grant) : null;
  return { grant, access, refresh };
}

/**
 * The refresh-token grant (RFC 6749 section 6). With `rotate` the used refresh token dies and a new one is issued
 * (Notion); otherwise the same one stays valid (Google, HubSpot).
 */
export function refreshGrant(
  ctx: OAuthContext,
  provider: OAuthProvider,
  client: RegisteredClient,
  token: string,
  opts: { rotate: boolean; lifetimeSeconds: number | null },
): Issued | { failure: 'refresh_invalid' } {
  const record = ctx.store.lookupRefresh(provider, token);
  if (!record || record.revoked || record.clientId !== client.clientId) return { failure: 'refresh_invalid' };
  const grant = ctx.store.grant(record.grantId);
  if (!grant) return { failure: 'refresh_invalid' };
  const access = ctx.store.issueAccessToken(grant, ctx.now(), opts.lifetimeSeconds);
  if (!opts.rotate) return { grant, access, refresh: record };
  record.revoked = true;
  return { grant, access, refresh: ctx.store.issueRefreshToken(grant) };
}

/** RFC 6749 section 2.3.1 client authentication, done the same way for every style once the credentials are found. */
export function authenticateClient(
  ctx: OAuthContext,
  provider: OAuthProvider,
  clientId: string | undefined,
  clientSecret: string | undefined,
): { client: RegisteredClient } | { failure: 'unknown_client' | 'bad_secret' } {
  const client = ctx.store.client(provider, clientId);
  if (!client) return { failure: 'unknown_client' };
  if (clientSecret === undefined || clientSecret !== client.clientSecret) return { failure: 'bad_secret' };
  return { client };
}
