/**
 * The one configuration module: every environment variable the service, the CLI and `createConnector` read is read
 * here, into a typed, validated config, with an error naming the variable when a value is wrong. Defaults live here
 * once. {@link CONFIG_VARIABLES} lists them; the manual's Configuration table (docs/manual.md) is checked against it
 * (test/service/config-table.test.ts), and that test also checks that `readConfig` (the service) and
 * `readClientConfig` (the CLI's commands that talk to a service) together read exactly these. The OpenTelemetry SDK
 * reads the `OTEL_*` variables itself; the ones listed here are those the service acts on or checks first.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_RATE_LIMITS } from './rate-limit-defaults.js';
import { DEFAULT_TIMEOUTS, type ServiceTimeouts } from './timeouts.js';
import { readOverridePolicy, type ConnectionOverridePolicy } from '../connection-override-policy.js';
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from '../http/policy.js';

/** Where the CLI finds the service when neither `--env-url` nor `AGENT_CONNECTOR_URL` says. */
export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:3000';

/** The service's own URL when AGENT_CONNECTOR_BASE_URL is not set: its HOST and port (an IPv6 address in brackets). */
export function serviceUrlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Every variable read here with its default as the manual states it (`-` when there is none). */
export const CONFIG_VARIABLES: readonly { name: string; default: string }[] = [
  { name: 'PORT', default: '3000' },
  { name: 'HOST', default: '127.0.0.1' },
  { name: 'AGENT_CONNECTOR_BASE_URL', default: 'http://{HOST}:{PORT}' },
  { name: 'DATABASE_URL', default: 'unset: SQLite' },
  { name: 'AGENT_CONNECTOR_DATABASE_POOL_SIZE', default: '10' },
  { name: 'AGENT_CONNECTOR_DATA_DIR', default: './.agent-connector' },
  { name: 'AGENT_CONNECTOR_ENCRYPTION_KEY', default: 'a key file in the data dir' },
  { name: 'AGENT_CONNECTOR_TOKEN_SIGNING_KEY', default: 'a key file in the data dir' },
  { name: 'AGENT_CONNECTOR_CLIENT_ID', default: 'generated on first start; none when NODE_ENV=production' },
  { name: 'AGENT_CONNECTOR_CLIENT_SECRET', default: 'generated on first start; none when NODE_ENV=production' },
  { name: 'AGENT_CONNECTOR_SANDBOX', default: '1; 0 when NODE_ENV=production' },
  { name: 'AGENT_CONNECTOR_SANDBOX_PORT', default: '0 (any free port)' },
  { name: 'AGENT_CONNECTOR_RATE_LIMIT', default: String(DEFAULT_RATE_LIMITS.api.max) },
  { name: 'REDIS_URL', default: 'unset: counted in memory' },
  { name: 'AGENT_CONNECTOR_BODY_LIMIT', default: '1048576' },
  { name: 'AGENT_CONNECTOR_REQUEST_TIMEOUT_MS', default: String(DEFAULT_TIMEOUTS.requestMs) },
  { name: 'AGENT_CONNECTOR_HEADERS_TIMEOUT_MS', default: String(DEFAULT_TIMEOUTS.headersMs) },
  { name: 'AGENT_CONNECTOR_IDLE_TIMEOUT_MS', default: String(DEFAULT_TIMEOUTS.idleMs) },
  { name: 'AGENT_CONNECTOR_HTTP_TIMEOUT_MS', default: String(DEFAULT_HTTP_POLICY.timeoutMs) },
  { name: 'AGENT_CONNECTOR_HTTP_CONNECT_TIMEOUT_MS', default: String(DEFAULT_HTTP_POLICY.connectTimeoutMs) },
  { name: 'AGENT_CONNECTOR_HTTP_MAX_RETRIES', default: String(DEFAULT_HTTP_POLICY.maxRetries) },
  { name: 'AGENT_CONNECTOR_HTTP_MAX_RETRY_DELAY_MS', default: String(DEFAULT_HTTP_POLICY.maxRetryDelayMs) },
  { name: 'AGENT_CONNECTOR_HTTP_MAX_RESPONSE_BYTES', default: String(DEFAULT_HTTP_POLICY.maxResponseBytes) },
  { name: 'AGENT_CONNECTOR_HTTP_CONNECTIONS', default: String(DEFAULT_HTTP_POLICY.connectionsPerOrigin) },
  { name: 'AGENT_CONNECTOR_HTTP_MAX_QUEUED', default: String(DEFAULT_HTTP_POLICY.maxQueuedPerOrigin) },
  { name: 'AGENT_CONNECTOR_TRUST_PROXY', default: '0' },
  { name: 'LOG_LEVEL', default: 'info' },
  { name: 'LOG_FORMAT', default: 'pretty on a terminal, else json' },
  { name: 'AGENT_CONNECTOR_EXECUTION_RETENTION_DAYS', default: '7' },
  { name: 'AGENT_CONNECTOR_EXECUTION_CAPTURE_INPUTS', default: '0' },
  { name: 'AGENT_CONNECTOR_EXECUTION_REDACT_FIELDS', default: 'unset' },
  { name: 'AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES', default: '1; 0 when NODE_ENV=production' },
  { name: 'NODE_ENV', default: 'unset (development)' },
  { name: 'AGENT_CONNECTOR_URL', default: DEFAULT_SERVICE_URL },
  { name: 'OTEL_SDK_DISABLED', default: 'false' },
  { name: 'OTEL_TRACES_EXPORTER', default: 'otlp, once telemetry is on' },
  { name: 'OTEL_METRICS_EXPORTER', default: 'otlp, once telemetry is on' },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', default: 'unset' },
  { name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', default: 'unset' },
  { name: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', default: 'unset' },
  { name: 'OTEL_EXPORTER_OTLP_PROTOCOL', default: 'http/protobuf' },
  { name: 'OTEL_SERVICE_NAME', default: 'agent-connector' },
];

/** The upstream HTTP settings the service passes to its connector (the retry backoff's first step stays fixed). */
export type UpstreamHttpConfig = Omit<HttpPolicy, 'baseRetryDelayMs'>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Which proxies' `X-Forwarded-For`/`-Proto`/`-Host` to believe, as fastify's `trustProxy` takes it: `true` (every
 * hop) or the proxies' addresses and CIDR ranges (and proxy-addr's `loopback`, `linklocal`, `uniquelocal`). No hop
 * count: fastify 5 trusts no proxy for a number, because a count cannot check who the immediate peer is.
 * @see https://fastify.dev/docs/latest/Reference/Server/#trustproxy
 */
export type TrustProxy = boolean | string[];

/** Where the store lives and how it is keyed: what `start` and the store-level CLI commands share. */
export interface StoreConfig {
  databaseUrl: string | undefined;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  dataDir: string;
  /** `AGENT_CONNECTOR_ENCRYPTION_KEY`; unset means the development key file (refused in production). */
  encryptionKeys: string | undefined;
  /** `NODE_ENV=production`. */
  production: boolean;
}

export interface ServiceConfig extends ConnectorConfig {
  port: number;
  host: string;
  baseUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  signingKey: string | undefined;
  sandbox: boolean;
  sandboxPort: number;
  rateLimitPerMinute: number;
  /** `REDIS_URL`: where rate-limit counters are shared; unset means each process counts in memory. */
  redisUrl: string | undefined;
  bodyLimitBytes: number;
  timeouts: ServiceTimeouts;
  trustProxy: TrustProxy;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /** Execution history retention in days (enforced by the purge schedule); 0 records nothing. */
  executionRetentionDays: number;
  telemetry: TelemetryConfig;
}

/**
 * The OpenTelemetry settings the service acts on. The SDK reads every `OTEL_*` variable itself (endpoint, protocol,
 * headers, sampling, ...), as the standard says; this module decides whether to start it at all and checks, before
 * the start, the variables whose bad value the SDK would only log and then export nowhere.
 * @see https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 */
export interface TelemetryConfig {
  /**
   * Start the SDK: a traces or metrics exporter other than `none`, or an OTLP endpoint, is set, and
   * `OTEL_SDK_DISABLED` is not `true`. Off by default, since the SDK's own default exports to localhost unasked.
   */
  enabled: boolean;
  /** `OTEL_SERVICE_NAME`, default `agent-connector` (the SDK's own default would be `unknown_service:node`). */
  serviceName: string;
}

/**
 * What the CLI's commands that talk to a running service use (`connections`, `link`, `tools`, `proxy`, `mcp`, ...):
 * the service's URL and the application's client credentials. Flags given on the command line win over the variables.
 */
export interface ClientConfig {
  /** `--env-url`, else `AGENT_CONNECTOR_URL`, else `http://127.0.0.1:3000`; no trailing slash. */
  url: string;
  /** Where {@link url} came from, for messages: `--env-url`, `AGENT_CONNECTOR_URL` or `the default`. */
  urlSource: string;
  clientId: string;
  clientSecret: string;
}

/** The CLI flags that override {@link ClientConfig}'s variables; an empty or absent flag leaves the variable. */
export interface ClientFlags {
  envUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/** What `createConnector` takes from the environment when its options leave it out. */
export interface ConnectorConfig extends StoreConfig {
  http: UpstreamHttpConfig;
  /** Which URLs connections' `overrides` may name (see runtime/connection-override-policy.ts). */
  connectionOverrides: ConnectionOverridePolicy;
  /** The execution history: kept at all (retention above 0 days), inputs captured, fields redacted then. */
  executions: { record: boolean; captureInputs: boolean; redactFields: string[] };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Decimal digits only: Number() would also take `1e3`, `0x10` or ` 12 `, which no one means as a count.
  const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (TRUE.includes(raw.toLowerCase())) return true;
  if (FALSE.includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0 (or true/false, yes/no, on/off) (got ${JSON.stringify(raw)})`);
}

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function trustedAddress(entry: string): boolean {
  if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const version = isIP(address);
  return version !== 0 && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * `AGENT_CONNECTOR_TRUST_PROXY`. `1` means "every hop" (as `true`). A hop count is refused rather than accepted and
 * silently ignored (see {@link TrustProxy}); to trust exactly the one proxy in front, name its address.
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const name = 'AGENT_CONNECTOR_TRUST_PROXY';
  const raw = optional(env, name)?.trim();
  if (raw === undefined || raw === '' || FALSE.includes(raw.toLowerCase())) return false;
  if (TRUE.includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      `${name}=${raw}: a hop count is not supported (fastify cannot tell a proxy from a client by counting hops); list the proxies' addresses or CIDR ranges, e.g. 10.0.0.0/8, or use 1 to trust every hop`,
    );
  }
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !trustedAddress(e));
  if (entries.length === 0 || bad.length > 0) {
    throw new ConfigError(
      `${name} must be 1/true, 0/false, or a comma-separated list of IP addresses and CIDR ranges such as 10.0.0.0/8,::1 (not valid: ${JSON.stringify(bad.join(',') || raw)})`,
    );
  }
  return entries;
}

/** `REDIS_URL`: ioredis's `redis[s]://[user:password@]host[:port][/db]`, the database a number (ioredis sends SELECT NaN otherwise, which crashes the process). */
function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = optional(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  const url = parsedUrl(raw);
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '' || !/^(\/\d*)?$/.test(url.pathname) || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379 or redis://host:6379/2 (a database number after the slash) (got ${shown(raw)})`);
  }
  return raw;
}

/** `DATABASE_URL`: a `postgres://` (or `postgresql://`) URL, the only database URL the store opens (pg reads the rest). */
function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = optional(env, 'DATABASE_URL');
  if (raw === undefined) return undefined;
  const url = parsedUrl(raw);
  if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL such as postgres://user:password@db.internal:5432/agent_connector (unset it for SQLite) (got ${shown(raw)})`);
  }
  return raw;
}

/** The URL in `text`, or null when it is none or holds a space (which the URL parser would trim or encode away). */
function parsedUrl(text: string): URL | null {
  if (/\s/.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function overridePolicy(env: NodeJS.ProcessEnv, production: boolean): ConnectionOverridePolicy {
  try {
    return readOverridePolicy(env, production);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** The `NODE_ENV` values the service knows. */
const NODE_ENVS = ['production', 'development', 'test'];

/**
 * `NODE_ENV`: true for `production`. Any value other than the known ones (and unset) is refused: a typo such as `prod`,
 * `Production` or `staging` would otherwise run a production deployment with development behaviour (generated key
 * files and client secret, the sandbox on, connection overrides allowed) without a word.
 */
function isProduction(env: NodeJS.ProcessEnv): boolean {
  const raw = optional(env, 'NODE_ENV');
  if (raw === undefined) return false;
  if (!NODE_ENVS.includes(raw)) {
    throw new ConfigError(
      `NODE_ENV must be ${NODE_ENVS.join(', ')} or unset (got ${JSON.stringify(raw)}); any other value is refused rather than run as development, which generates keys and a client secret and allows the sandbox and connection overrides`,
    );
  }
  return raw === 'production';
}

/** The store settings, read the same way for `start` and for the CLI commands that open the store directly. */
export function readStoreConfig(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  return {
    databaseUrl: databaseUrl(env),
    databasePoolSize: integer(env, 'AGENT_CONNECTOR_DATABASE_POOL_SIZE', 10, 1, 1000),
    dataDir: resolve(optional(env, 'AGENT_CONNECTOR_DATA_DIR') ?? './.agent-connector'),
    encryptionKeys: optional(env, 'AGENT_CONNECTOR_ENCRYPTION_KEY'),
    production: isProduction(env),
  };
}

/** The connector's settings: the store's, the upstream HTTP policy and the override policy. */
export function readConnectorConfig(env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  const d = DEFAULT_HTTP_POLICY;
  const store = readStoreConfig(env);
  return {
    ...store,
    http: {
      timeoutMs: integer(env, 'AGENT_CONNECTOR_HTTP_TIMEOUT_MS', d.timeoutMs, 100, 3_600_000),
      connectTimeoutMs: integer(env, 'AGENT_CONNECTOR_HTTP_CONNECT_TIMEOUT_MS', d.connectTimeoutMs, 100, 600_000),
      maxRetries: integer(env, 'AGENT_CONNECTOR_HTTP_MAX_RETRIES', d.maxRetries, 0, 10),
      maxRetryDelayMs: integer(env, 'AGENT_CONNECTOR_HTTP_MAX_RETRY_DELAY_MS', d.maxRetryDelayMs, 0, 3_600_000),
      maxResponseBytes: integer(env, 'AGENT_CONNECTOR_HTTP_MAX_RESPONSE_BYTES', d.maxResponseBytes, 1024, 1024 * 1024 * 1024),
      connectionsPerOrigin: integer(env, 'AGENT_CONNECTOR_HTTP_CONNECTIONS', d.connectionsPerOrigin, 1, 65_536),
      maxQueuedPerOrigin: integer(env, 'AGENT_CONNECTOR_HTTP_MAX_QUEUED', d.maxQueuedPerOrigin, 0, 1_000_000),
    },
    connectionOverrides: overridePolicy(env, store.production),
    executions: {
      record: executionRetentionDays(env) > 0,
      captureInputs: flag(env, 'AGENT_CONNECTOR_EXECUTION_CAPTURE_INPUTS', false),
      redactFields: (optional(env, 'AGENT_CONNECTOR_EXECUTION_REDACT_FIELDS') ?? '').split(',').map((f) => f.trim()).filter((f) => f !== ''),
    },
  };
}

function executionRetentionDays(env: NodeJS.ProcessEnv): number {
  return integer(env, 'AGENT_CONNECTOR_EXECUTION_RETENTION_DAYS', 7, 0, 3650);
}

function logLevel(env: NodeJS.ProcessEnv): string {
  const level = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(level)})`);
  return level;
}

/**
 * Reads and checks the service's settings. Under `NODE_ENV=production` the secrets a restart or a second instance
 * must share are required (a generated key file would vanish with the container), and the sandbox, which fakes
 * providers, runs only when `AGENT_CONNECTOR_SANDBOX` asks for it.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const store = readConnectorConfig(env);
  const signingKey = optional(env, 'AGENT_CONNECTOR_TOKEN_SIGNING_KEY');
  if (store.production) {
    const missing = [
      ...(store.encryptionKeys === undefined ? ['AGENT_CONNECTOR_ENCRYPTION_KEY (e.g. "k1:$(openssl rand -base64 32)")'] : []),
      ...(signingKey === undefined ? ['AGENT_CONNECTOR_TOKEN_SIGNING_KEY (e.g. "$(openssl rand -hex 32)", the same on every instance)'] : []),
    ];
    if (missing.length > 0) throw new ConfigError(`NODE_ENV=production: refusing to start without ${missing.join(' and ')}`);
  }
  const baseUrl = optional(env, 'AGENT_CONNECTOR_BASE_URL');
  if (baseUrl !== undefined && !isOrigin(baseUrl.replace(/\/+$/, ''))) {
    throw new ConfigError(`AGENT_CONNECTOR_BASE_URL must be an origin such as https://connect.example.com (no path, query or user name) (got ${shown(baseUrl)})`);
  }
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  if (store.production && baseUrl === undefined && isUnspecifiedAddress(host)) {
    throw new ConfigError(
      `NODE_ENV=production with HOST=${host}: set AGENT_CONNECTOR_BASE_URL to the origin users' browsers reach, e.g. https://connect.example.com; without it the redirect URIs and authorization links would be built on ${serviceUrlFor(host, 0).replace(/:0$/, '')}, which no browser or provider can reach`,
    );
  }
  return {
    ...store,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    clientId: optional(env, 'AGENT_CONNECTOR_CLIENT_ID'),
    clientSecret: optional(env, 'AGENT_CONNECTOR_CLIENT_SECRET'),
    signingKey,
    sandbox: flag(env, 'AGENT_CONNECTOR_SANDBOX', !store.production),
    sandboxPort: integer(env, 'AGENT_CONNECTOR_SANDBOX_PORT', 0, 0, 65535),
    rateLimitPerMinute: integer(env, 'AGENT_CONNECTOR_RATE_LIMIT', DEFAULT_RATE_LIMITS.api.max, 0, 10_000_000),
    redisUrl: redisUrl(env),
    bodyLimitBytes: integer(env, 'AGENT_CONNECTOR_BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    timeouts: {
      ...DEFAULT_TIMEOUTS,
      requestMs: integer(env, 'AGENT_CONNECTOR_REQUEST_TIMEOUT_MS', DEFAULT_TIMEOUTS.requestMs, 100, 3_600_000),
      headersMs: integer(env, 'AGENT_CONNECTOR_HEADERS_TIMEOUT_MS', DEFAULT_TIMEOUTS.headersMs, 100, 3_600_000),
      idleMs: integer(env, 'AGENT_CONNECTOR_IDLE_TIMEOUT_MS', DEFAULT_TIMEOUTS.idleMs, 100, 3_600_000),
    },
    trustProxy: trustProxy(env),
    executionRetentionDays: executionRetentionDays(env),
    logFormat: logFormat(env),
    logLevel: logLevel(env),
    telemetry: telemetry(env),
  };
}

/** `0.0.0.0` or `::` (in any spelling): an address to listen on, never one to reach the service at. */
function isUnspecifiedAddress(host: string): boolean {
  if (isIP(host) === 0) return false;
  return ['0.0.0.0', '[::]'].includes(new URL(serviceUrlFor(host, 80)).hostname);
}

/** `scheme://host[:port]` and nothing else (no path, query, fragment, user name or space), with a host the URL parser takes. */
function isOrigin(text: string): boolean {
  const url = parsedUrl(text);
  return url !== null && /^https?:\/\/[^/?#@\s\\]+$/i.test(text) && url.hostname !== '';
}

function logFormat(env: NodeJS.ProcessEnv): 'json' | 'pretty' {
  const value = optional(env, 'LOG_FORMAT');
  if (value === undefined) return process.stdout.isTTY ? 'pretty' : 'json';
  if (value === 'json' || value === 'pretty') return value;
  throw new ConfigError(`LOG_FORMAT=${value}: use json or pretty`);
}

/** A value's text for an error message, with any `user:password@` replaced: an error never carries a secret. */
function shown(value: string): string {
  // Everything before the last `@` may be credentials: a password can hold `@` or `/` (unencoded, as pasted), and
  // a value without a scheme (`user:pass@host`) has no `//` to start from.
  const at = value.lastIndexOf('@');
  if (at === -1) return JSON.stringify(value);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(value)?.[0] ?? '';
  return JSON.stringify(`${scheme}***${value.slice(at)}`);
}

/** An absolute http(s) URL with a host, as the SDK's exporters and the HTTP client need. */
function httpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

/** The exporters the Node SDK (`@opentelemetry/sdk-node`) builds from each variable; it ignores any other name. */
const OTEL_EXPORTERS = { OTEL_TRACES_EXPORTER: ['otlp', 'zipkin', 'console', 'none'], OTEL_METRICS_EXPORTER: ['otlp', 'prometheus', 'console', 'none'] } as const;
const OTEL_ENDPOINTS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] as const;
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'];

/**
 * `OTEL_*`, as far as the service acts on them (see {@link TelemetryConfig}). Every one is read and checked whatever
 * the others say, so a bad value is reported even while telemetry is off.
 */
function telemetry(env: NodeJS.ProcessEnv): TelemetryConfig {
  const disabledRaw = optional(env, 'OTEL_SDK_DISABLED')?.trim().toLowerCase();
  if (disabledRaw !== undefined && disabledRaw !== 'true' && disabledRaw !== 'false') {
    throw new ConfigError(`OTEL_SDK_DISABLED must be true or false (got ${JSON.stringify(disabledRaw)})`);
  }
  let asked = false;
  for (const [name, known] of Object.entries(OTEL_EXPORTERS) as [keyof typeof OTEL_EXPORTERS, readonly string[]][]) {
    const list = (optional(env, name) ?? '').split(',').map((e) => e.trim()).filter(Boolean);
    const unknown = list.filter((e) => !known.includes(e));
    if (unknown.length > 0) throw new ConfigError(`${name} must be a comma-separated list of ${known.join(', ')} (not supported: ${JSON.stringify(unknown.join(','))})`);
    // The SDK reads `none` beside another exporter as "the default exporter", which is nobody's intent.
    if (list.includes('none') && list.length > 1) throw new ConfigError(`${name}: none cannot be combined with other exporters (got ${JSON.stringify(list.join(','))})`);
    if (list.length > 0 && !list.includes('none')) asked = true;
  }
  for (const name of OTEL_ENDPOINTS) {
    const value = optional(env, name)?.trim();
    if (value === undefined || value === '') continue;
    if (!httpUrl(value)) throw new ConfigError(`${name} must be an http:// or https:// URL such as http://127.0.0.1:4318 (got ${shown(value)})`);
    asked = true;
  }
  const protocol = optional(env, 'OTEL_EXPORTER_OTLP_PROTOCOL')?.trim();
  if (protocol !== undefined && protocol !== '' && !OTLP_PROTOCOLS.includes(protocol)) {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be one of ${OTLP_PROTOCOLS.join(', ')} (got ${JSON.stringify(protocol)})`);
  }
  const serviceName = optional(env, 'OTEL_SERVICE_NAME')?.trim() || 'agent-connector';
  return { enabled: asked && disabledRaw !== 'true', serviceName };
}

/** A flag when given (not empty), else its variable; `source` names where the value came from, for errors. */
function flagOrVariable(env: NodeJS.ProcessEnv, flag: string | undefined, flagName: string, name: string): { value: string | undefined; source: string } {
  if (flag !== undefined && flag !== '') return { value: flag, source: flagName };
  return { value: optional(env, name), source: name };
}

/**
 * The application client id the CLI acts as: `--client-id`, else `AGENT_CONNECTOR_CLIENT_ID`, else undefined. What
 * `environments rotate-secret` defaults to (it works on the store, with no secret), and part of {@link readClientConfig}.
 */
export function readClientId(env: NodeJS.ProcessEnv = process.env, flag?: string): string | undefined {
  return flagOrVariable(env, flag, '--client-id', 'AGENT_CONNECTOR_CLIENT_ID').value;
}

/**
 * The CLI's client settings ({@link ClientConfig}): each flag, when given, else its variable. Throws a
 * {@link ConfigError} naming the flag or the variable the bad value came from: a URL that is not http(s), or missing
 * credentials (every missing one at once).
 */
export function readClientConfig(env: NodeJS.ProcessEnv = process.env, flags: ClientFlags = {}): ClientConfig {
  const url = flagOrVariable(env, flags.envUrl, '--env-url', 'AGENT_CONNECTOR_URL');
  const clientId = readClientId(env, flags.clientId);
  const clientSecret = flagOrVariable(env, flags.clientSecret, '--client-secret', 'AGENT_CONNECTOR_CLIENT_SECRET').value;
  const serviceUrl = (url.value ?? DEFAULT_SERVICE_URL).trim().replace(/\/+$/, '');
  if (!httpUrl(serviceUrl)) throw new ConfigError(`${url.source} must be the service's http:// or https:// URL such as ${DEFAULT_SERVICE_URL} (got ${shown(url.value ?? '')})`);
  const missing = [
    ...(clientId === undefined ? ['AGENT_CONNECTOR_CLIENT_ID (or --client-id)'] : []),
    ...(clientSecret === undefined ? ['AGENT_CONNECTOR_CLIENT_SECRET (or --client-secret)'] : []),
  ];
  if (missing.length > 0) throw new ConfigError(`application credentials are needed: set ${missing.join(' and ')}; npm start prints them`);
  return { url: serviceUrl, urlSource: url.value === undefined ? 'the default' : url.source, clientId: clientId as string, clientSecret: clientSecret as string };
}
