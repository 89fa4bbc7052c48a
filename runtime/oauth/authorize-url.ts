/**
 * The provider's authorization request URL.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1
 */
import type { OAuthDefinition } from '../types.js';
import { oauthScopes } from './no-scopes.js';

export interface AuthorizeUrlInput {
  authorizationUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  /** S256 challenge, when the connector uses PKCE. */
  codeChallenge?: string;
}

export function buildAuthorizeUrl(oauth: OAuthDefinition, input: AuthorizeUrlInput): string {
  const url = new URL(input.authorizationUrl);
  // Fixed extras first, so that a connector can never override the protocol parameters set below.
  for (const [key, value] of Object.entries(oauth.extraAuthorizeParams)) url.searchParams.set(key, value);
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  // A provider without OAuth scopes defines no `scope` parameter: none is sent, even for a connection that stored some.
  const scopes = oauthScopes(oauth, input.scopes);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(oauth.scopeSeparator));
  url.searchParams.set('state', input.state);
  if (input.codeChallenge !== undefined) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}
