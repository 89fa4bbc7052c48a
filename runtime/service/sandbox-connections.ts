/**
 * Pointing connections at the in-process sandbox: which sandbox OAuth server serves a connector, and registering a
 * connection's client there so the sandbox's authorize and token endpoints accept it (with its exact redirect URI),
 * when the connection is made (at start, over the API or from the dashboard) and whenever an update gives it a client
 * secret (a new client_id comes with one).
 */
import type { Connector, ConnectionView, EnvironmentScope } from '../api.js';
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

/** Whether the connection's token endpoint is the sandbox's: its client lives in the sandbox, not at a provider. */
export function isSandboxConnection(sandbox: DevSandbox, connection: ConnectionView): boolean {
  const tokenUrl = connection.overrides.tokenUrl;
  return tokenUrl !== undefined && URL.canParse(tokenUrl) && new URL(tokenUrl).origin === new URL(sandbox.url).origin;
}

/**
 * The environment scope the service's API and dashboard act through when a sandbox is composed in: a sandbox
 * connection created, or given a client secret by an update (a new client_id with its secret, or a new secret), has
 * its client registered with the sandbox, or the sandbox would answer the next authorization with invalid_client. The
 * secret is taken from the input; none is ever read back.
 */
export function withSandboxClients(env: EnvironmentScope, sandbox: DevSandbox): EnvironmentScope {
  return {
    ...env,
    async createConnection(input) {
      const view = await env.createConnection(input);
      if (isSandboxConnection(sandbox, view)) registerWithSandbox(sandbox, view, input.client_secret);
      return view;
    },
    async updateConnection(idOrName, patch) {
      const view = await env.updateConnection(idOrName, patch);
      const secret = patch.client_secret;
      if (typeof secret === 'string' && secret !== '' && isSandboxConnection(sandbox, view)) registerWithSandbox(sandbox, view, secret);
      return view;
    },
  };
}

/**
 * `connector.environment`, as the service serves it: with a sandbox composed in (development), each scope through
 * {@link withSandboxClients}. The connector keeps its scopes (a bounded cache); the wrapper is made per call.
 */
export function serviceEnvironments(connector: Connector, sandbox: DevSandbox | undefined): (environmentId: string) => EnvironmentScope {
  if (sandbox === undefined) return (environmentId) => connector.environment(environmentId);
  return (environmentId) => withSandboxClients(connector.environment(environmentId), sandbox);
}
