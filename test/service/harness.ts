/**
 * A running service for tests: the sandbox, a connector on a fresh SQLite file, the fastify service listening on a
 * free port, and two environments (tenants) with their credentials. No mocks: everything talks over real sockets.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { ConnectionView, Connector } from '../../runtime/api.js';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createConnector, type RuntimeOptions } from '../../runtime/connector.js';
import { startSandbox } from '../../sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/types.js';
import { buildService, type ServiceOptions } from '../../runtime/service/build-service.js';
import { createEnvironment } from '../../runtime/service/environments.js';
import { freePort } from '../../runtime/service/free-port.js';
import { loggerOptions } from '../../runtime/service/logging.js';
import type { ConnectorName } from '../../runtime/types.js';
import { Receiver } from '../runtime/webhooks/receiver.js';

export interface TestEnv {
  environmentId: string;
  clientId: string;
  clientSecret: string;
}

export interface Harness {
  sandbox: Sandbox;
  connector: Connector;
  app: FastifyInstance;
  url: string;
  signingKey: Uint8Array | readonly Uint8Array[];
  /** The connector's data directory and encryption keys, for another process opening the same store. */
  dataDir: string;
  encryptionKeys: string;
  a: TestEnv;
  b: TestEnv;
  /** A bearer token for the environment. */
  token(env: TestEnv): Promise<string>;
  /** `fetch` against the service with JSON in and out. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; body: any }>;
  /** Creates a connection pointing at the sandbox, registered there with its redirect URI. */
  sandboxConnection(env: TestEnv, connector: ConnectorName, name?: string): Promise<ConnectionView>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<Omit<ServiceOptions, 'connector' | 'logger'>> {
  /** Captures the service's pino lines, the connector's too (one logger, as `startService` has). */
  logStream?: Writable;
  /** The captured logger's level. Default `info`. */
  logLevel?: string;
  /** The connector's clock (token expiry, links, the history), apart from the service's `now`. Default `Date.now`. */
  connectorNow?: () => number;
  /** Options for the sandbox (e.g. a `stateFile`, which holds every token it issued). */
  sandboxOptions?: SandboxOptions;
  definitions?: RuntimeOptions['definitions'];
  executions?: RuntimeOptions['executions'];
  /** A store to use instead of a fresh SQLite file (e.g. a PostgreSQL schema); the caller closes it. */
  store?: RuntimeOptions['store'];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox(options.sandboxOptions);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-service-'));
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  const logger = options.logStream ? pino(loggerOptions(options.logLevel ?? 'info'), options.logStream) : false;
  const connector = await createConnector({
    baseUrl: url,
    dataDir,
    encryptionKeys,
    http: { timeoutMs: 5000, maxRetries: 1, maxRetryDelayMs: 50 },
    ...(options.definitions ? { definitions: options.definitions } : {}),
    ...(options.executions ? { executions: options.executions } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(logger ? { logger } : {}),
    ...(options.connectorNow ? { now: options.connectorNow } : {}),
  });
  const signingKey = options.signingKey ?? new Uint8Array(randomBytes(32));
  const { logStream: _ignored, logLevel: _level, connectorNow: _now, sandboxOptions: _sandboxOptions, definitions: _defs, store: _store, executions: _executions, ...serviceOptions } = options;
  const app = await buildService({ ...serviceOptions, connector, sandbox, signingKey, logger });
  await app.listen({ port, host: '127.0.0.1' });
  const a = await createEnvironment(connector.store, { name: 'tenant-a' });
  const b = await createEnvironment(connector.store, { name: 'tenant-b' });

  const tokens = new Map<string, string>();
  const call: Harness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, headers: response.headers, body };
  };
  const token = async (env: TestEnv) => {
    const cached = tokens.get(env.clientId);
    if (cached) return cached;
    const res = await call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: env.clientId, client_secret: env.clientSecret } });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
    tokens.set(env.clientId, res.body.access_token);
    return res.body.access_token as string;
  };

  return {
    sandbox,
    connector,
    app,
    url,
    signingKey,
    dataDir,
    encryptionKeys,
    a,
    b,
    token,
    call,
    async sandboxConnection(env, name, connectionName = name) {
      const secret = `secret-${randomBytes(8).toString('hex')}`;
      const res = await call('POST', '/api/v1/connections', {
        token: await token(env),
        body: { name: connectionName, connector: name, client_id: `client-${connectionName}-${env.environmentId}`, client_secret: secret, overrides: sandbox.endpoints(name) },
      });
      if (res.status !== 201) throw new Error(`creating a connection failed: ${res.status} ${JSON.stringify(res.body)}`);
      // The service's scope registered the client with the sandbox (sandbox-connections.ts), as for any caller.
      return res.body as ConnectionView;
    },
    async close() {
      await app.close();
      await connector.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A harness and an API token of environment A: the set-up most service test files start with. */
export async function startWithToken(options: HarnessOptions = {}): Promise<{ h: Harness; token: string }> {
  const h = await startHarness(options);
  return { h, token: await h.token(h.a) };
}

/** Whom connectSandboxUser connects: `identifier` of `env` (default A), consenting as `user`. */
interface SandboxUser {
  identifier: string;
  user?: string;
  env?: TestEnv;
}

/**
 * Connects end user `identifier` through the sandbox, the set-up of every test that needs a connected account: with
 * `connector`, first creates the environment's sandbox connection of it (named `connection`, else the connector's
 * name); without, uses the existing connection `connection`. Then a magic link (which must answer 200), consent on the
 * sandbox's page as `user` (the sandbox's default user unless given; the callback must answer 200), and the account
 * must read ACTIVE. `env` is environment A unless given. Answers the environment's API token, the account's id and the
 * connection it created (if any). Throws, naming the step, when any of these fails.
 */
export async function connectSandboxUser(
  h: Harness,
  options: SandboxUser & { connector: ConnectorName; connection?: string },
): Promise<{ token: string; accountId: string; connection: ConnectionView }>;
export async function connectSandboxUser(h: Harness, options: SandboxUser & { connection: string }): Promise<{ token: string; accountId: string; connection: undefined }>;
export async function connectSandboxUser(
  h: Harness,
  options: SandboxUser & { connector?: ConnectorName; connection?: string },
): Promise<{ token: string; accountId: string; connection: ConnectionView | undefined }> {
  const { identifier, user, env = h.a } = options;
  const token = await h.token(env);
  const connection = options.connector ? await h.sandboxConnection(env, options.connector, options.connection ?? options.connector) : undefined;
  const connectionName = connection?.name ?? options.connection!;
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connectionName, identifier } });
  if (link.status !== 200) throw new Error(`a magic link for ${identifier} on ${connectionName} failed: ${link.status} ${JSON.stringify(link.body)}`);
  const consent = await consentThroughSandbox(link.body.link, user ? { user } : {});
  if (consent.status !== 200) throw new Error(`${identifier} could not be authorized on ${connectionName}: the callback answered ${consent.status}`);
  const accountId = link.body.connected_account_id as string;
  const account = await h.call('GET', `/api/v1/connected_accounts/${accountId}`, { token });
  if (account.body?.status !== 'ACTIVE') throw new Error(`${identifier}'s account on ${connectionName} is not ACTIVE after consent: ${JSON.stringify(account.body)}`);
  return { token, accountId, connection };
}

/** Environment A's sandbox `crm` connection with `identifier` connected as `user`: connectSandboxUser for crm. */
export async function crmUser(h: Harness, identifier: string, user: string): Promise<{ token: string; connection: ConnectionView }> {
  const { token, connection } = await connectSandboxUser(h, { connector: 'crm', identifier, user });
  return { token, connection };
}

/**
 * The webhook tests' set-up: a harness whose background dispatcher polls rarely (each test runs it itself, so what
 * it delivered is known), a real local receiver registered as environment A's webhook endpoint, and A's sandbox
 * `calendar` connection `cal`. Answers the endpoint's signing secret beside the harness, A's token and the receiver.
 */
export async function webhookReceiverHarness(options: HarnessOptions = {}): Promise<{ h: Harness; token: string; receiver: Receiver; secret: string }> {
  const { h, token } = await startWithToken({ webhooks: { pollIntervalMs: 60_000 }, ...options });
  const receiver = await new Receiver().start();
  const created = await h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } });
  if (created.status !== 201) throw new Error(`the webhook endpoint was not created: ${created.status} ${JSON.stringify(created.body)}`);
  await h.sandboxConnection(h.a, 'calendar', 'cal');
  return { h, token, receiver, secret: created.body.secret };
}
