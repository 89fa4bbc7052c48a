import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorName } from '../runtime/types.js';
import { createApiModules } from './apis/registry.js';
import { ApiGateway } from './core/api-gateway.js';
import { createControl } from './core/control.js';
import { FaultTable, RollingWindows } from './core/faults.js';
import { RequestRecorder } from './core/recorder.js';
import { sendJson } from './core/http.js';
import { createRequestHandler } from './core/server.js';
import { route } from './core/services.js';
import { GrantStore } from './oauth/grant-store.js';
import { readStateFile, StateSaver } from './persist/state-file.js';
import { PROVIDER_ORIGIN_PREFIXES, type ProviderOrigin, type Sandbox, type SandboxControl, type SandboxEndpoints, type SandboxOptions } from './types.js';

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
 * (an ephemeral port on 127.0.0.1 unless told otherwise). Every instance has its own state, in memory, or kept in
 * `stateFile` across restarts (with its port).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const saved = options.stateFile === undefined ? null : readStateFile(options.stateFile);
  const store = new GrantStore();
  const modules = createApiModules();
  if (saved !== null) {
    store.restoreState(saved.grants);
    for (const [service, users] of Object.entries(saved.apis)) {
      const module = modules.get(service as ConnectorName);
      if (module !== undefined) for (const [user, data] of users) module.users.set(user, data);
    }
  }
  for (const c of options.clients ?? []) store.registerClient(c);
  const faults = new FaultTable();
  const windows = new RollingWindows();
  const recorder = new RequestRecorder();
  const gateway = new ApiGateway({ modules, store, faults, windows, now, providerRateLimits: options.providerRateLimits ?? true });
  const seedUser = (user: string) => gateway.seedAll(user);

  let port = 0;
  const saver =
    options.stateFile === undefined
      ? undefined
      : new StateSaver(
          options.stateFile,
          () => ({ port, grants: store.persistentState(), apis: Object.fromEntries([...modules].map(([name, m]) => [name, m.users])) }),
          (error) => process.emitWarning(`the sandbox state could not be saved: ${(error as Error).message}`),
        );
  const control = saver === undefined ? createControl({ store, faults, windows, recorder, now, seedUser }) : savingAfterEachCall(createControl({ store, faults, windows, recorder, now, seedUser }), saver);

  let url = '';
  const endpoints = (c: ConnectorName) => sandboxEndpoints(url, c);
  const handler = createRequestHandler({ gateway, oauth: { store, now, seedUser }, control, faults, recorder, endpoints, now });
  // With a state file, every answered request may have changed state (a code issued, an event written): save soon.
  const serve =
    saver === undefined
      ? handler
      : (req: IncomingMessage, res: ServerResponse) => {
          res.once('finish', () => saver.changed());
          return handler(req, res);
        };
  // The control API has an origin of its own, and the providers' origins never answer it: connections point at the
  // providers' origin, so a tenant's connection must not reach the control API (its request records, its revocations)
  // by a path. The connector composed with the sandbox refuses `controlUrl` as an override target.
  const isControl = (req: IncomingMessage) => route(new URL(req.url ?? '/', 'http://sandbox.local').pathname)?.kind === 'control';
  const notHere = (res: ServerResponse) => sendJson(res, 404, { error: 'not_found', message: 'The sandbox control API is served on its own origin (sandbox.controlUrl).' });
  const providers = (req: IncomingMessage, res: ServerResponse) => (isControl(req) ? notHere(res) : void serve(req, res));
  const host = options.host ?? '127.0.0.1';
  let main: { server: Server; port: number };
  if (!options.port && saved !== null && saved.port > 0) {
    // The port it had, so connections pointing at it keep working; if another process took it, a new one.
    main = await listen(createServer(providers), saved.port, host).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      return listen(createServer(providers), 0, host);
    });
  } else {
    main = await listen(createServer(providers), options.port ?? 0, host);
  }
  port = main.port;
  url = originOf(host, main.port);
  saver?.flush();

  // The control API also refuses any request carrying credentials: every API call the connector sends carries the
  // account's bearer token, so even a sandbox the connector was not told about (one run alone, `npm run sandbox`)
  // cannot be read through a tenant's proxy call; the operator's own requests never carry one.
  const controlServer = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!isControl(req)) return sendJson(res, 404, { error: 'not_found', message: 'Only the control API (/_sandbox/...) is served here.' });
      if (req.headers.authorization !== undefined) return sendJson(res, 403, { error: 'forbidden', message: 'The control API takes no credentials.' });
      return void serve(req, res);
    }),
    0,
    host,
  );
  const controlUrl = originOf(host, controlServer.port);

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
        void serve(req, res);
      });
      const bound = await listen(server, 0, host);
      extra.push(server);
      origins[name] = originOf(host, bound.port);
    }
  }
  return {
    url,
    port: main.port,
    controlUrl,
    origins,
    endpoints,
    control,
    close: async () => {
      await Promise.all([main.server, controlServer.server, ...extra].map(closeServer));
      saver?.flush();
    },
  };
}

/** The control API, saving state after each call (registering a client, issuing or revoking tokens change it). */
function savingAfterEachCall(control: SandboxControl, saver: StateSaver): SandboxControl {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(control) as [string, (...args: unknown[]) => unknown][]) {
    wrapped[name] = (...args: unknown[]) => {
      const out = fn(...args);
      saver.changed();
      return out;
    };
  }
  return wrapped as unknown as SandboxControl;
}

function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function listen(server: Server, port: number, host: string): Promise<{ server: Server; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}
