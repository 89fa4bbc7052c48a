/**
 * `startService()`: the service's start. On a fresh machine: SQLite in the data directory, a development environment
 * with application credentials and, when a development start hands it a sandbox (`sandbox/dev-service.ts`, what
 * `npm start` runs), one sandbox connection per system (`workspace`, `calendar`, `crm`, `sheets`, `docs`). Running
 * it again reuses all of it. The production runtime never imports the sandbox; it only knows {@link DevSandbox}.
 *
 * It checks, then listens, then writes (credentials, dev state, re-pointed sandbox connections): a start it refuses
 * (a production start with no application client to take, a client given with another secret) never binds its port,
 * and a start that cannot bind its port changes nothing another instance on the same data directory depends on.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Connector, ConnectionView } from '../api.js';
import { createConnector } from '../connector.js';
import { isConnectorError } from '../errors.js';
import { CONNECTOR_NAMES } from '../types.js';
import { buildService } from './build-service.js';
import { rateLimitRedis } from './rate-limit-redis.js';
import { ConfigError, readConfig, serviceUrlFor, type ServiceConfig } from './config.js';
import { withSandbox, type DevSandbox } from './dev-sandbox.js';
import { DEV_STATE_FILE, loadSigningKeys, prepareDataDir, readDevState, writeDevState } from './dev-state.js';
import { AppClientMissingError, newClientId, newClientSecret, prepareAppClient } from './environments.js';
import { freePort } from './free-port.js';
import { PURGE_INTERVAL_MS, schedulePurge } from './purge-schedule.js';
import { createServiceLogger } from './logging.js';
import { startOpenTelemetry } from '../telemetry/otel-sdk.js';
import { registerWithSandbox } from './sandbox-connections.js';

export const DEV_ENVIRONMENT_ID = 'env_development';

export interface RunningService<S extends DevSandbox = DevSandbox> {
  app: FastifyInstance;
  connector: Connector;
  /** The sandbox the start was given (its owner closes it), else null. */
  sandbox: S | null;
  /** The service's public base URL. */
  url: string;
  dashboardUrl: string;
  environmentId: string;
  clientId: string;
  /** Only when this start generated the secret (first start without AGENT_CONNECTOR_CLIENT_SECRET). */
  generatedClientSecret?: string;
  sandboxConnections: ConnectionView[];
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * The variables to configure from (default `process.env`). The OpenTelemetry SDK, once `OTEL_*` here turn it on,
   * reads its own settings from `process.env` whatever this is.
   */
  env?: NodeJS.ProcessEnv;
  config?: Partial<ServiceConfig>;
  logger?: Logger | false;
  /** How often expired OAuth states and authorization links are purged (default 10 minutes; also once at start). */
  purgeIntervalMs?: number;
  /** The service's clock (rate limits, access tokens); tests freeze it. Default `Date.now`. */
  now?: () => number;
}

export interface ServiceStartOptions<S extends DevSandbox> extends StartOptions {
  /** A running sandbox to point the development connections at (a development start composes it). */
  sandbox?: S;
}

/** Creates the sandbox connections, or re-points them at this run's sandbox with a fresh client secret. */
async function ensureSandboxConnections(connector: Connector, sandbox: DevSandbox, environmentId: string): Promise<ConnectionView[]> {
  const env = connector.environment(environmentId);
  const views: ConnectionView[] = [];
  for (const name of CONNECTOR_NAMES) {
    // Each start registers a fresh secret for the same client id: the sandbox's grants (kept in its state file) hang
    // off the client id, so accounts authorized before keep working, and no connection secret is read back.
    const clientSecret = newClientSecret();
    const overrides = sandbox.endpoints(name);
    let view: ConnectionView;
    try {
      const existing = await env.getConnection(name);
      view = await env.updateConnection(existing.id, { client_secret: clientSecret, overrides });
    } catch (error) {
      if (!isConnectorError(error) || error.code !== 'connection_not_found') throw error;
      view = await env.createConnection({ name, connector: name, client_id: `sandbox-${name}-client`, client_secret: clientSecret, overrides });
    }
    registerWithSandbox(sandbox, view, clientSecret);
    views.push(view);
  }
  return views;
}

export async function startService<S extends DevSandbox = DevSandbox>(options: ServiceStartOptions<S> = {}): Promise<RunningService<S>> {
  const config: ServiceConfig = { ...readConfig(options.env ?? process.env), ...options.config };
  const logger = options.logger === false ? createServiceLogger(undefined, 'silent') : (options.logger ?? createServiceLogger(undefined, config.logLevel, config.logFormat));
  // Before the connector: its meters come from the provider registered at creation. Off unless OTEL_* asks.
  const telemetry = startOpenTelemetry(config.telemetry);
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const url = config.baseUrl ?? serviceUrlFor(config.host, port);

  const sandbox = options.sandbox ?? null;
  // The policy on connection overrides (AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES) is this connector's; a composed
  // sandbox's providers are allowed and its control API refused, whatever the policy.
  const connectionOverrides = sandbox ? withSandbox(config.connectionOverrides, sandbox) : config.connectionOverrides;
  let connector: Connector | undefined;
  let app: FastifyInstance | undefined;
  const redis = config.redisUrl === undefined ? undefined : rateLimitRedis(config.redisUrl, logger);
  try {
    let ready = false;
    prepareDataDir(config.dataDir);
    connector = await createConnector({
      databaseUrl: config.databaseUrl,
      databasePoolSize: config.databasePoolSize,
      dataDir: config.dataDir,
      encryptionKeys: config.encryptionKeys,
      http: config.http,
      baseUrl: url,
      logger,
      connectionOverrides,
      env: options.env ?? process.env,
      executions: config.executions,
    });
    app = await buildService({
      connector,
      signingKey: loadSigningKeys(config.dataDir, config.signingKey),
      logger,
      rateLimit: config.rateLimitPerMinute > 0 ? { max: config.rateLimitPerMinute, windowMs: 60_000 } : false,
      bodyLimitBytes: config.bodyLimitBytes,
      timeouts: config.timeouts,
      ...(redis ? { rateLimitRedis: redis } : {}),
      isReady: () => ready,
      ...(options.now ? { now: options.now } : {}),
      trustProxy: config.trustProxy,
      ...(sandbox ? { sandbox } : {}),
    });
    const state = readDevState(config.dataDir);
    const environmentId = state?.environmentId ?? DEV_ENVIRONMENT_ID;
    const clientId = config.clientId ?? state?.clientId ?? newClientId();
    // In production the start creates its client only from both variables: it never generates a secret (its output
    // is the log there), and instances without a shared data directory do not each make a client of their own.
    const create = !config.production || (config.clientId !== undefined && config.clientSecret !== undefined);
    // The client's checks write nothing and refuse (no client in production, another secret or environment) before
    // the port is bound, so a refused start never answers a load balancer's probe; the client is created after.
    const completeAppClient = await prepareAppClient(connector.store, {
      environmentId,
      environmentName: 'development',
      clientId,
      ...(config.clientSecret !== undefined ? { clientSecret: config.clientSecret } : {}),
      create,
    }).catch((error: unknown) => {
      throw error instanceof AppClientMissingError ? new ConfigError(missingClientMessage(config, state !== null && config.clientId === undefined, clientId)) : error;
    });
    // Bind before writing anything: when the port is taken (another instance, maybe on this same data directory),
    // the start fails here and the running instance's credentials and sandbox connections are left as they were.
    // Until the writes below are done (`ready`), every request is answered 503 unavailable.
    await app.listen({ port, host: config.host });

    const credentials = await completeAppClient();
    writeDevState(config.dataDir, { environmentId, clientId });
    const sandboxConnections = sandbox ? await ensureSandboxConnections(connector, sandbox, environmentId) : [];
    ready = true;
    const purge = schedulePurge(connector.store, logger, options.purgeIntervalMs ?? PURGE_INTERVAL_MS, {
      ms: config.executionRetentionDays * 86_400_000,
      now: options.now ?? Date.now,
    });

    const running = connector;
    const listening = app;
    let closing: Promise<void> | undefined;
    return {
      app: listening,
      connector: running,
      sandbox,
      url,
      dashboardUrl: `${url}/dashboard`,
      environmentId,
      clientId,
      ...(credentials.clientSecret ? { generatedClientSecret: credentials.clientSecret } : {}),
      sandboxConnections,
      close() {
        closing ??= (async () => {
          await purge.stop();
          await listening.close();
          await running.close();
          redis?.disconnect();
          await telemetry?.shutdown();
        })();
        return closing;
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await connector?.close().catch(() => {});
    redis?.disconnect();
    await telemetry?.shutdown().catch(() => {});
    throw error;
  }
}

/**
 * Why a production start refuses when its application client is neither in the database nor given by both
 * `AGENT_CONNECTOR_CLIENT_ID` and `AGENT_CONNECTOR_CLIENT_SECRET`, and how to make them. `fromDevState`: the id came
 * from the data directory's development.json.
 */
function missingClientMessage(config: ServiceConfig, fromDevState: boolean, clientId: string): string {
  const why =
    config.clientId !== undefined
      ? `the client ${clientId} named by AGENT_CONNECTOR_CLIENT_ID is not in the database`
      : fromDevState
        ? `the client ${clientId} named in ${join(config.dataDir, DEV_STATE_FILE)} is not in the database`
        : 'AGENT_CONNECTOR_CLIENT_ID is not set';
  return (
    `NODE_ENV=production: refusing to start: set AGENT_CONNECTOR_CLIENT_ID and AGENT_CONNECTOR_CLIENT_SECRET (${why}); ` +
    'a production start does not generate the client secret, as its output is the log. Take both from a secret store, the ' +
    'same on every instance, e.g. AGENT_CONNECTOR_CLIENT_ID="ac_$(openssl rand -hex 12)" and ' +
    'AGENT_CONNECTOR_CLIENT_SECRET="$(openssl rand -hex 32)": the first start creates the client from them, and a ' +
    'start that finds the client in the database needs only the id'
  );
}
