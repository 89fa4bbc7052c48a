/**
 * Providers without OAuth scopes. Notion's OAuth has none: what an integration may do is its capabilities (read,
 * update and insert content, comments, user information), set in the integration's settings, times the pages each
 * user shares at consent; its authorize URL takes no `scope` and its token response names none. The connector spec
 * says so with `default_scopes: []`, and every refusal of scopes for such a connector says it with this text.
 * Connections stored before scopes were refused for it may still hold some: {@link oauthScopes} is what the
 * authorization flow sends and records instead, so such scopes are never asked for nor taken as granted.
 *
 * @see https://developers.notion.com/reference/capabilities
 */
import type { ConnectorDefinition, OAuthDefinition } from '../types.js';

/** True when the connector's provider has no OAuth scopes to ask for (its spec's `default_scopes` is empty). */
export function hasNoOAuthScopes(oauth: Pick<OAuthDefinition, 'defaultScopes'>): boolean {
  return oauth.defaultScopes.length === 0;
}

/**
 * The scopes an authorize URL asks for and a grant records, given those of the connection, link or account: none
 * for a provider without OAuth scopes, whatever was stored (a connection saved before such scopes were refused).
 */
export function oauthScopes(oauth: Pick<OAuthDefinition, 'defaultScopes'>, scopes: readonly string[]): readonly string[] {
  return hasNoOAuthScopes(oauth) ? [] : scopes;
}

/** Why no scopes apply to such a connector, and where what they would have said is set instead (Notion is the only one of the five). */
export function noScopesReason(connector: ConnectorDefinition): string {
  return (
    `${connector.displayName} has no OAuth scopes: what the integration may do is set by its capabilities, in the ` +
    "integration's settings at https://www.notion.so/my-integrations (Capabilities), and each user picks the pages it may reach when connecting"
  );
}
