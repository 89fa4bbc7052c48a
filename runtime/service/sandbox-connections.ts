/**
 * Pointing connections at the in-process sandbox: which sandbox OAuth server serves a connector, and registering a
 * connection's client there so the sandbox's authorize and token endpoints accept it (with its exact redirect URI).
 */
import type { ConnectionView } from '../api.js';
import type { ConnectorName } from '../types.js';
import type { DevSandbox } from './dev-sandbox.js';

export const SANDBOX_PROVIDER: Record<ConnectorName, 'notion' | 'google' | 'hubspot'> = {
  workspace: 'notion',
  calendar: 'google',
  sheets: 'google',
  docs: 'google',
  crm: 'hubspot',
};

/** Registers the connection's OAuth client with the sandbox (the secret is passed in: the view never has it). */
export function registerWithSandbox(sandbox: DevSandbox, connection: ConnectionView, clientSecret: string): void {
  sandbox.control.registerClient({
    provider: SANDBOX_PROVIDER[connection.connector],
    clientId: connection.client_id,
    clientSecret,
    redirectUris: [connection.redirect_uri],
  });
}
