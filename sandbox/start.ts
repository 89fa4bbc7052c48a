import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorName } from '../runtime/types.js';
import { createApiModules } from './apis/registry.js';
import { ApiGateway } from './core/api-gateway.js';
import { createControl } from './core/control.js';
import { FaultTable, RollingWindows } from './core/faults.js';
import { RequestRecorder } from './core/recorder.js';
import { createRequestHandler } from './core/server.js';
import { GrantStore } from './oauth/grant-store.js';
import { PROVIDER_ORIGIN_PREFIXES, type ProviderOrigin, type Sandbox, type SandboxEndpoints, type SandboxOptions } from './types.js';

/** Where each connector's OAuth server and API live on the sandbox (see the layout in `types.ts`). */
export function sandboxEndpoints(url: string, connector: ConnectorName): SandboxEndpoints {
  switch (connector) {
    case 'workspace':
      return {
        authorizationUrl: `${url}/notion/v1/oauth/authorize`,
        tokenUrl: `${url}/notion/v1/oauth/token`,
        revocationUrl: `${url}/notion/v1/oauth/revoke`,
        apiBaseUrl: `${url}/notion`,
      };
    case 'crm':
      return {
        authorizationUrl: `${url}/hubspot/oauth/authorize`,
        tokenUrl: `${url}/hubspot/oauth/v1/token`,
        revocationUrl: `${url}/hubspot/oauth/v1/refresh-tokens`,
        apiBaseUrl: `${url}/hubspot`,
      };
    case 'calendar':
    case 'sheets':
    case 'docs':
      return {
        authorizationUrl: `${url}/google/o/oauth2/v2/auth`,
        tokenUrl: `${url}/google/token`,
        revocationUrl: `${url}/google/revoke`,
        apiBaseUrl: `${url}/${connector}`,
      };
  }
}

/**
 * Starts the sandbox: fake OAuth servers and stateful fake APIs for the five providers on one local HTTP server
 * (an ephemeral port on 127.0.0.1 unless told otherwise). Every instance has its own state.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const store = new GrantStore();
  for (const c of options.clients ?? []) store.registerClient(c);
  const faults = new FaultTable();
  const windows = new RollingWindows();
  const recorder = new RequestRecorder();
  const modules = createApiModules();
  const gateway = new ApiGateway({ modules, store, faults, windows, now, providerRateLimits: options.providerRateLimits ?? true });
  const seedUser = (user: string) => gateway.seedAll(user);
  const control = createControl({ store, faults, windows, recorder, now, seedUser });

  let url = '';
  const endpoints = (c: ConnectorName) => sandboxEndpoints(url, c);
  const handler = createRequestHandler({ gateway, oauth: { store, now, seedUser }, control, faults, recorder, endpoints, now });
  const host = options.host ?? '127.0.0.1';
  const main = await listen(createServer(handler), options.port ?? 0, host);
  url = originOf(host, main.port);

  // Each fake provider is also served at the root of an origin of its own, at its real paths, because official
  // clients keep only the host of a configured root URL (Google's `rootUrl`). These origins reach the same handler
  // under the provider's prefix, so they share all state, and the control API is not reachable through them.
  const origins = {} as Record<ProviderOrigin, string>;
  const extra: Server[] = [];
  if (options.providerOrigins ?? true) {
    for (const name of Object.keys(PROVIDER_ORIGIN_PREFIXES) as ProviderOrigin[]) {
      const prefix = PROVIDER_ORIGIN_PREFIXES[name];
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        req.url = `${prefix}${req.url ?? '/'}`;
        void handler(req, res);
      });
      const bound = await listen(server, 0, host);
      extra.push(server);
      origins[name] = originOf(host, bound.port);
    }
  }
  return {
    url,
    port: main.port,
    origins,
    endpoints,
    control,
    close: async () => {
      await Promise.all([main.server, ...extra].map(closeServer));
    },
  };
}

function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function listen(server: Server, port: number, host: string): Promise<{ server: Server; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}
