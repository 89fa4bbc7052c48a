/**
 * The service's settings, read once from the environment and defaulted in one place.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `PORT` / `HOST` | `3000` / `127.0.0.1` | where the service listens |
 * | `AGENT_CONNECTOR_BASE_URL` | `http://{HOST}:{PORT}` | public URL (redirect URIs, links) |
 * | `DATABASE_URL` | unset (SQLite) | PostgreSQL URL |
 * | `AGENT_CONNECTOR_DATA_DIR` | `./.agent-connector` | SQLite file, development key files |
 * | `AGENT_CONNECTOR_CLIENT_ID` / `_SECRET` | generated | the development application's credentials |
 * | `AGENT_CONNECTOR_TOKEN_SIGNING_KEY` | key file in the data dir; required in production | base64 or hex, >= 32 bytes; set it when several instances serve one database |
 * | `AGENT_CONNECTOR_SANDBOX` | `1`; `0` in production | run the sandbox providers in-process and create the sandbox connections |
 * | `AGENT_CONNECTOR_TRUST_PROXY` | `0` | trust `X-Forwarded-*`: `1`/`true` from any hop, or the proxies' addresses/CIDRs |
 * | `AGENT_CONNECTOR_SANDBOX_PORT` | random | the sandbox's port |
 * | `AGENT_CONNECTOR_RATE_LIMIT` | `6000` | API requests per minute per environment; `0` disables |
 * | `AGENT_CONNECTOR_BODY_LIMIT` | `1048576` | largest request body in bytes |
 * | `AGENT_CONNECTOR_REQUEST_TIMEOUT_MS` | `30000` | a client must send its whole request (headers and body) within this |
 * | `AGENT_CONNECTOR_HEADERS_TIMEOUT_MS` | `10000` | ... and its request headers within this |
 * | `AGENT_CONNECTOR_IDLE_TIMEOUT_MS` | `120000` | a connection with no traffic for this long is closed |
 * | `AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES` | `1`; `0` in production | connection `overrides`: `1` any https URL (http only to loopback), `0` none, or a comma-separated list of allowed origins; the sandbox's own are always allowed |
 * | `NODE_ENV` | unset | `production`: the secrets above are required and the sandbox is off unless asked for |
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_TIMEOUTS, type ServiceTimeouts } from './timeouts.js';
import { readOverridePolicy, type ConnectionOverridePolicy } from '../connection-override-policy.js';

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
  dataDir: string;
  /** `AGENT_CONNECTOR_ENCRYPTION_KEY`; unset means the development key file (refused in production). */
  encryptionKeys: string | undefined;
  /** `NODE_ENV=production`. */
  production: boolean;
}

export interface ServiceConfig extends StoreConfig {
  port: number;
  host: string;
  baseUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  signingKey: string | undefined;
  sandbox: boolean;
  sandboxPort: number;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  timeouts: ServiceTimeouts;
  trustProxy: TrustProxy;
  /** Which URLs connections' `overrides` may name (see runtime/connection-override-policy.ts). */
  connectionOverrides: ConnectionOverridePolicy;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
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

function overridePolicy(env: NodeJS.ProcessEnv): ConnectionOverridePolicy {
  try {
    return readOverridePolicy(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** The store settings, read the same way for `start` and for the CLI commands that open the store directly. */
export function readStoreConfig(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  return {
    databaseUrl: optional(env, 'DATABASE_URL'),
    dataDir: resolve(optional(env, 'AGENT_CONNECTOR_DATA_DIR') ?? './.agent-connector'),
    encryptionKeys: optional(env, 'AGENT_CONNECTOR_ENCRYPTION_KEY'),
    production: env.NODE_ENV === 'production',
  };
}

/**
 * Reads and checks the service's settings. Under `NODE_ENV=production` the secrets a restart or a second instance
 * must share are required (a generated key file would vanish with the container), and the sandbox, which fakes
 * providers, runs only when `AGENT_CONNECTOR_SANDBOX` asks for it.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const store = readStoreConfig(env);
  const signingKey = optional(env, 'AGENT_CONNECTOR_TOKEN_SIGNING_KEY');
  if (store.production) {
    const missing = [
      ...(store.encryptionKeys === undefined ? ['AGENT_CONNECTOR_ENCRYPTION_KEY (e.g. "k1:$(openssl rand -base64 32)")'] : []),
      ...(signingKey === undefined ? ['AGENT_CONNECTOR_TOKEN_SIGNING_KEY (e.g. "$(openssl rand -hex 32)", the same on every instance)'] : []),
    ];
    if (missing.length > 0) throw new ConfigError(`NODE_ENV=production: refusing to start without ${missing.join(' and ')}`);
  }
  const baseUrl = optional(env, 'AGENT_CONNECTOR_BASE_URL');
  if (baseUrl && !/^https?:\/\/[^/]+$/.test(baseUrl.replace(/\/+$/, ''))) {
    throw new ConfigError('AGENT_CONNECTOR_BASE_URL must be an origin such as https://connect.example.com (no path)');
  }
  return {
    ...store,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    clientId: optional(env, 'AGENT_CONNECTOR_CLIENT_ID'),
    clientSecret: optional(env, 'AGENT_CONNECTOR_CLIENT_SECRET'),
    signingKey,
    sandbox: flag(env, 'AGENT_CONNECTOR_SANDBOX', !store.production),
    sandboxPort: integer(env, 'AGENT_CONNECTOR_SANDBOX_PORT', 0, 0, 65535),
    rateLimitPerMinute: integer(env, 'AGENT_CONNECTOR_RATE_LIMIT', 6000, 0, 10_000_000),
    bodyLimitBytes: integer(env, 'AGENT_CONNECTOR_BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    timeouts: {
      ...DEFAULT_TIMEOUTS,
      requestMs: integer(env, 'AGENT_CONNECTOR_REQUEST_TIMEOUT_MS', DEFAULT_TIMEOUTS.requestMs, 100, 3_600_000),
      headersMs: integer(env, 'AGENT_CONNECTOR_HEADERS_TIMEOUT_MS', DEFAULT_TIMEOUTS.headersMs, 100, 3_600_000),
      idleMs: integer(env, 'AGENT_CONNECTOR_IDLE_TIMEOUT_MS', DEFAULT_TIMEOUTS.idleMs, 100, 3_600_000),
    },
    trustProxy: trustProxy(env),
    connectionOverrides: overridePolicy(env),
  };
}
