/**
 * Test harness for the runtime: a real sandbox, a real SQLite store in a temp dir (or PostgreSQL), a connector with
 * short HTTP timings, and `authorize()` that runs link -> open -> consent page (driven like a browser) -> callback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectors } from '../../generated/connectors.gen.js';
import { tools } from '../../generated/tools.gen.js';
import type { AccountView, Connector, ConnectionView, EnvironmentScope } from '../../runtime/api.js';
import { createConnector, type RuntimeOptions } from '../../runtime/connector.js';
import { parseKeyring } from '../../runtime/crypto/keyring.js';
import { consent, startSandbox } from '../../sandbox/index.js';
import type { OAuthProvider, Sandbox, SandboxEndpoints } from '../../sandbox/types.js';
import { openStore, type OpenStoreOptions } from '../../runtime/store/open-store.js';
import type { Store } from '../../runtime/store/types.js';
import type { ConnectorDefinition, ConnectorName, ToolDefinition } from '../../runtime/types.js';

export const TEST_KEYS = `k1:${Buffer.alloc(32, 0x5a).toString('base64')}`;
export const BASE_URL = 'http://service.test';
export const ENV = 'env_test';

export const PROVIDER: Record<ConnectorName, OAuthProvider> = {
  workspace: 'notion',
  calendar: 'google',
  sheets: 'google',
  docs: 'google',
  crm: 'hubspot',
};

/** The tool and connector definitions the generator emitted, as the runtime loads them. */
export async function loadDefinitions(): Promise<{ tools: readonly ToolDefinition[]; connectors: readonly ConnectorDefinition[] }> {
  return { tools, connectors: Object.values(connectors) };
}

export interface Harness {
  sandbox: Sandbox;
  store: Store;
  connector: Connector;
  env: EnvironmentScope;
  /** A clock tests can move: shared by the sandbox (token expiry) and the runtime. */
  clock: { now: number; advance(ms: number): void };
  /** Creates a connection pointing at the sandbox, with its OAuth client registered there. */
  /** `extra.overrides` replaces the sandbox endpoints (e.g. an API base pointed at a recording server). */
  connection(connector: ConnectorName, name?: string, extra?: { allowed_redirect_urls?: string[]; scopes?: string[]; overrides?: SandboxEndpoints }): Promise<ConnectionView>;
  /** Link -> open -> consent (allow) -> callback. Returns the ACTIVE account. */
  authorize(connectionName: string, identifier: string, user?: string): Promise<AccountView>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  runtime?: Partial<RuntimeOptions>;
  /** openStore options for PostgreSQL (or another SQLite file); default a fresh SQLite file. */
  storeOptions?: Omit<OpenStoreOptions, 'keyring'>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = { now: Date.now(), advance(ms: number) { clock.now += ms; } };
  const now = () => clock.now;
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-runtime-'));
  const sandbox = await startSandbox({ now, providerRateLimits: false });
  const store = await openStore({ dataDir, ...options.storeOptions, keyring: parseKeyring(TEST_KEYS) });
  if ((await store.getEnvironment(ENV)) === null) await store.createEnvironment({ id: ENV, name: 'test' });
  const definitions = await loadDefinitions();
  const connector = await createConnector({
    store,
    baseUrl: BASE_URL,
    now,
    definitions,
    http: { timeoutMs: 5_000, connectTimeoutMs: 2_000, maxRetries: 2, maxRetryDelayMs: 20 },
    baseRetryDelayMs: 5,
    ...options.runtime,
  });
  const env = connector.environment(ENV);

  const harness: Harness = {
    sandbox,
    store,
    connector,
    env,
    clock,
    async connection(kind, name = kind, extra = {}) {
      const clientId = `client-${name}-${Math.random().toString(36).slice(2)}`;
      const clientSecret = `secret-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
      const view = await env.createConnection({
        name,
        connector: kind,
        client_id: clientId,
        client_secret: clientSecret,
        overrides: sandbox.endpoints(kind),
        ...extra,
      });
      sandbox.control.registerClient({ provider: PROVIDER[kind], clientId, clientSecret, redirectUris: [view.redirect_uri] });
      return view;
    },
    async authorize(connectionName, identifier, user = `${identifier}@example.com`) {
      const { link } = await env.authorizationLink({ connection_name: connectionName, identifier });
      const token = link.split('/').pop() as string;
      const opened = await connector.oauth.openLink(token);
      const answer = await consent(opened.redirectTo, { user });
      const connectionId = new URL(answer.location).pathname.split('/')[4] as string;
      const done = await connector.oauth.callback(connectionId, answer.params, opened.browserCookie);
      return done.account;
    },
    async close() {
      await connector.close();
      await store.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
