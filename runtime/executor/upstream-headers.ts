/** The headers every upstream API call of a connector carries, lower-cased. */
import { ACCEPT_ENCODING } from '../http/decode.js';
import type { ConnectorDefinition } from '../types.js';

/**
 * `accept`, `accept-encoding` (what the upstream client decodes, set here so the client need not copy the headers
 * to add it), the connector's fixed headers and its version header at its default value.
 */
export function connectorHeaders(connector: ConnectorDefinition): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING };
  for (const [name, value] of Object.entries(connector.api.headers)) headers[name.toLowerCase()] = value;
  if (connector.api.versionHeader !== null) headers[connector.api.versionHeader.name.toLowerCase()] = connector.api.versionHeader.default;
  return headers;
}

/** The API base for a connection: its override (the sandbox), else the connector's host root. */
export function apiBaseUrl(connector: ConnectorDefinition, overrides: { apiBaseUrl?: string }): string {
  return overrides.apiBaseUrl ?? connector.api.baseUrl;
}
