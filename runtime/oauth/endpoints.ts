/** The OAuth endpoints one connection uses: the connector's, or the connection's overrides (the sandbox's). */
import { overrideRefusal, type ConnectionOverridePolicy } from '../connection-override-policy.js';
import { ConnectorError } from '../errors.js';
import type { ConnectionOverrides } from '../store/types.js';
import type { OAuthDefinition } from '../types.js';

export interface OAuthEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string | null;
}

/**
 * Refuses a stored override the current policy does not allow (a row written before the policy, or under a laxer
 * one, e.g. a development database taken to production): the check at input time alone would trust it forever.
 */
export function assertOverridesAllowed(overrides: ConnectionOverrides, policy: ConnectionOverridePolicy): void {
  for (const [key, value] of Object.entries(overrides)) {
    if (typeof value === 'string') assertOverrideAllowed(key, value, policy);
  }
}

/** {@link assertOverridesAllowed} for one stored override (a tool call uses only `apiBaseUrl`). */
export function assertOverrideAllowed(key: string, value: string, policy: ConnectionOverridePolicy): void {
  const refusal = overrideRefusal(value, policy);
  if (refusal !== null) {
    throw new ConnectorError('invalid_request', `This connection's overrides.${key} ${refusal}; update or recreate the connection.`);
  }
}

export function resolveEndpoints(oauth: OAuthDefinition, overrides: ConnectionOverrides, policy: ConnectionOverridePolicy): OAuthEndpoints {
  assertOverridesAllowed(overrides, policy);
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
