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
 * | `AGENT_CONNECTOR_TOKEN_SIGNING_KEY` | key file in the data dir | base64 or hex, >= 32 bytes; set it when several instances serve one database |
 * | `AGENT_CONNECTOR_SANDBOX` | `1` | run the sandbox providers in-process and create the sandbox connections |
 * | `AGENT_CONNECTOR_SANDBOX_PORT` | random | the sandbox's port |
 * | `AGENT_CONNECTOR_RATE_LIMIT` | `6000` | API requests per minute per environment; `0` disables |
 * | `AGENT_CONNECTOR_BODY_LIMIT` | `1048576` | largest request body in bytes |
 */
import { resolve } from 'node:path';

export interface ServiceConfig {
  port: number;
  host: string;
  baseUrl: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  signingKey: string | undefined;
  sandbox: boolean;
  sandboxPort: number;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
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

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const baseUrl = optional(env, 'AGENT_CONNECTOR_BASE_URL');
  if (baseUrl && !/^https?:\/\/[^/]+$/.test(baseUrl.replace(/\/+$/, ''))) {
    throw new ConfigError('AGENT_CONNECTOR_BASE_URL must be an origin such as https://connect.example.com (no path)');
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    databaseUrl: optional(env, 'DATABASE_URL'),
    dataDir: resolve(optional(env, 'AGENT_CONNECTOR_DATA_DIR') ?? './.agent-connector'),
    clientId: optional(env, 'AGENT_CONNECTOR_CLIENT_ID'),
    clientSecret: optional(env, 'AGENT_CONNECTOR_CLIENT_SECRET'),
    signingKey: optional(env, 'AGENT_CONNECTOR_TOKEN_SIGNING_KEY'),
    sandbox: !['0', 'false', 'no', 'off'].includes((env.AGENT_CONNECTOR_SANDBOX ?? '1').toLowerCase()),
    sandboxPort: integer(env, 'AGENT_CONNECTOR_SANDBOX_PORT', 0, 0, 65535),
    rateLimitPerMinute: integer(env, 'AGENT_CONNECTOR_RATE_LIMIT', 6000, 0, 10_000_000),
    bodyLimitBytes: integer(env, 'AGENT_CONNECTOR_BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
  };
}
