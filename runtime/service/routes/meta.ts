/** `/healthz`, `/readyz` and `/openapi.json`: unauthenticated, no tenant data. */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ConnectorError } from '../../errors.js';
import type { Store } from '../../store/types.js';

/** How long `/readyz` waits for the database's answer before calling this instance not ready. */
export const READY_TIMEOUT_MS = 2000;

export interface MetaRouteOptions {
  baseUrl: string;
  store: Store;
  /** The rate-limit Redis, when the service has one: reported by `/readyz`, never a reason to be not ready. */
  redis?: Redis;
  readyTimeoutMs?: number;
}

/**
 * Why the database cannot serve this instance, or null when it answered `SELECT 1` in time. Only an error's code is
 * kept: a driver's message may carry the server's address or a user name.
 */
async function databaseRefusal(ping: () => Promise<void>, timeoutMs: number): Promise<{ reason: string; code: string | null } | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const answer = await Promise.race([ping().then(() => 'ok' as const), late]);
    return answer === 'ok' ? null : { reason: `did not answer within ${timeoutMs} ms`, code: null };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const known = typeof code === 'string' && code !== '' ? code : null;
    return { reason: `refused the check${known === null ? '' : ` (${known})`}`, code: known };
  } finally {
    clearTimeout(timer);
  }
}

/** The emitted document; the service serves this file with its own base URL as the one server. */
export const OPENAPI_URL = new URL('../../../generated/openapi.json', import.meta.url);

/**
 * The emitted document with `servers` set to the service's configured base URL, so a client generated from or
 * pointed at a deployed service's document calls that service rather than the emitted `http://localhost:3000`.
 */
export function openApiForBaseUrl(text: string, baseUrl: string): string {
  const doc = JSON.parse(text) as { servers?: unknown };
  doc.servers = [{ url: baseUrl, description: 'This service.' }];
  return JSON.stringify(doc, null, 2);
}

export function registerMetaRoutes(app: FastifyInstance, options: MetaRouteOptions): void {
  // Liveness: the process serves requests. It asks nothing of the database, so an outage there does not get every
  // instance restarted at once; /readyz is the check that does.
  app.get('/healthz', async () => ({ ok: true }));

  // Readiness: this instance can serve calls now. The database is needed for every call that misses the lookup
  // cache, so it must answer; Redis only shares the rate limits, and without it requests go on unlimited
  // (rate-limits.ts), so it is reported and never makes the instance not ready.
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  // One check in flight per instance: probes that come while the database is slow to answer wait on the same
  // query instead of each queueing another for a pooled connection.
  let inFlight: Promise<void> | undefined;
  const ping = (): Promise<void> =>
    (inFlight ??= options.store.ping().finally(() => {
      inFlight = undefined;
    }));
  app.get('/readyz', async () => {
    const refusal = await databaseRefusal(ping, readyTimeoutMs);
    const redis = options.redis === undefined ? {} : { redis: options.redis.status === 'ready' ? 'ok' : 'unreachable' };
    if (refusal !== null) {
      throw new ConnectorError('unavailable', `The database ${refusal.reason}; this instance cannot serve calls until it answers`, {
        retryAfterSeconds: 5,
        details: { database: 'unreachable', code: refusal.code, ...redis },
      });
    }
    return { ok: true, database: 'ok', ...redis };
  });

  // Read once per service instance (the file does not change while it runs); a failed read is tried again.
  let openapiText: Promise<string> | undefined;
  const load = (): Promise<string> => {
    openapiText ??= readFile(OPENAPI_URL, 'utf8')
      .then((text) => openApiForBaseUrl(text, options.baseUrl))
      .catch((error: unknown) => {
        openapiText = undefined;
        throw error;
      });
    return openapiText;
  };

  app.get('/openapi.json', async (_request, reply) => {
    let text: string;
    try {
      text = await load();
    } catch {
      throw new ConnectorError('not_found', 'The OpenAPI document has not been generated; run npm run generate');
    }
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(text);
  });
}
