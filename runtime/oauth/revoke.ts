/**
 * Token revocation on disconnect, in the connector's style.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009
 */
import type { UpstreamCall } from '../http/client.js';
import type { ClientCredentials, TokenSet } from '../store/types.js';
import type { OAuthDefinition } from '../types.js';
import { applyClientAuth, encodeParams } from './token-request.js';

/**
 * Builds the revocation request, or null when the connector has none or the token it revokes is absent.
 * `path_token` (HubSpot's legacy `DELETE /oauth/v1/refresh-tokens/{token}`) puts the token in the URL because the
 * provider demands it there; the URL therefore must never be logged.
 */
export function buildRevocationRequest(oauth: OAuthDefinition, revocationUrl: string | null, client: ClientCredentials, tokens: TokenSet): UpstreamCall | null {
  if (oauth.revocation === null || revocationUrl === null) return null;
  const token = oauth.revocation.token === 'refresh' ? (tokens.refreshToken ?? tokens.accessToken) : tokens.accessToken;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (oauth.revocation.style === 'path_token') {
    return { method: 'DELETE', url: `${revocationUrl.replace(/\/+$/, '')}/${encodeURIComponent(token)}`, headers, retry: false };
  }
  const params: Record<string, string> = { token };
  applyClientAuth(oauth, client, params, headers);
  const body = encodeParams(oauth.revocation.style === 'json_token' ? 'json' : 'form', params, headers);
  return { method: 'POST', url: revocationUrl, headers, body, retry: false };
}
