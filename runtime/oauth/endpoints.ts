/** The OAuth endpoints one connection uses: the connector's, or the connection's overrides (the sandbox's). */
import type { ConnectionOverrides } from '../store/types.js';
import type { OAuthDefinition } from '../types.js';

export interface OAuthEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string | null;
}

export function resolveEndpoints(oauth: OAuthDefinition, overrides: ConnectionOverrides): OAuthEndpoints {
  return {
    authorizationUrl: overrides.authorizationUrl ?? oauth.authorizationUrl,
    tokenUrl: overrides.tokenUrl ?? oauth.tokenUrl,
    revocationUrl: oauth.revocation === null ? null : (overrides.revocationUrl ?? oauth.revocation.url),
  };
}

/** The exact redirect URI registered with the provider for a connection. */
export function redirectUriFor(baseUrl: string, connectionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sso/v1/oauth/${encodeURIComponent(connectionId)}/callback`;
}
