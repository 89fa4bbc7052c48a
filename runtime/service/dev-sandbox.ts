/**
 * What the service needs from a sandbox that a development start composes in. The sandbox itself lives in
 * `sandbox/`, which the production runtime never imports (test/runtime/no-sandbox-import.test.ts): the development
 * entry (`sandbox/dev-service.ts`, what `npm start` runs) starts it and hands it to `startService`.
 */
import type { ConnectionOverridePolicy } from '../connection-override-policy.js';
import type { ConnectorName } from '../types.js';

export interface DevSandbox {
  /** Origin of the fake providers; the sandbox connections' overrides point here. */
  url: string;
  /** Origin of the sandbox's control API (no authentication): never a connection target, whatever the policy. */
  controlUrl: string;
  /** The override URLs that point a connection of `connector` at the sandbox. */
  endpoints(connector: ConnectorName): { authorizationUrl: string; tokenUrl: string; revocationUrl: string; apiBaseUrl: string };
  control: {
    /** Registers a connection's OAuth client, so the sandbox's authorize and token endpoints accept it. */
    registerClient(client: { provider: 'notion' | 'google' | 'hubspot'; clientId: string; clientSecret: string; redirectUris: string[] }): void;
  };
}

/**
 * The connector's override policy with the sandbox composed in: its providers' origin allowed whatever the mode,
 * its control origin refused whatever the mode (so no tenant can point a connection at it and read other tenants'
 * sandbox tokens from its request records, or revoke them).
 */
export function withSandbox(policy: ConnectionOverridePolicy, sandbox: DevSandbox): ConnectionOverridePolicy {
  return {
    ...policy,
    allowedOrigins: [...policy.allowedOrigins, new URL(sandbox.url).origin],
    refusedOrigins: [...(policy.refusedOrigins ?? []), new URL(sandbox.controlUrl).origin],
  };
}
