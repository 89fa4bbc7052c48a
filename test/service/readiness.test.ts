/**
 * `GET /readyz`: this instance can serve calls when its database answers. `/healthz` (liveness) asks nothing of the
 * database; Redis, which only shares the rate limits, is reported and never makes an instance not ready.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector } from '../../runtime/connector.js';
import { generateKeySpec, parseKeyring } from '../../runtime/crypto/keyring.js';
import { buildService } from '../../runtime/service/build-service.js';
import { openStore } from '../../runtime/store/open-store.js';
import type { Store } from '../../runtime/store/types.js';
import { postgresSuite, redisSuite } from '../server-suites.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** A service instance on `store` (with `redis` for its rate limits, if given), listening on a free port. */
async function serviceOn(store: Store, redis?: Redis): Promise<{ url: string; app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-readyz-'));
  const connector = await createConnector({ baseUrl: 'http://127.0.0.1', dataDir, encryptionKeys: generateKeySpec(), store });
  const app = await buildService({ connector, logger: false, webhooks: false, ...(redis ? { rateLimitRedis: redis } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    app,
    async close() {
      await app.close();
      await connector.close();
      await store.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function get(url: string): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(url);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe('GET /readyz', () => {
  it('answers 200 when the database answers, with no Redis field when the service has no Redis', async () => {
    const res = await get(`${h.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, database: 'ok' });
  });

  it('answers 503 with Retry-After, naming the database and its error code, when the database refuses; /healthz stays 200', async () => {
    const store = h.connector.store;
    const ping = store.ping;
    store.ping = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432 (user admin)'), { code: 'ECONNREFUSED' });
    };
    try {
      const res = await get(`${h.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.retryAfter).toBe('5');
      expect(res.body.error).toMatchObject({
        code: 'unavailable',
        message: 'The database refused the check (ECONNREFUSED); this instance cannot serve calls until it answers',
        details: { database: 'unreachable', code: 'ECONNREFUSED' },
      });
      // The driver's message (an address, a user name) is not passed on.
      expect(JSON.stringify(res.body)).not.toContain('10.0.0.7');
      expect((await get(`${h.url}/healthz`)).status).toBe(200);
    } finally {
      store.ping = ping;
    }
    expect((await get(`${h.url}/readyz`)).status).toBe(200);
  });

  it('answers 503 when the database does not answer in time, without waiting for it; probes meanwhile share one check', async () => {
    const store = h.connector.store;
    const ping = store.ping;
    let pings = 0;
    let answer = (): void => {};
    store.ping = () => {
      pings++;
      return new Promise<void>((resolve) => {
        answer = resolve;
      });
    };
    try {
      const started = Date.now();
      const [first, second] = await Promise.all([get(`${h.url}/readyz`), get(`${h.url}/readyz`)]);
      for (const res of [first, second]) {
        expect(res.status).toBe(503);
        expect(res.body.error.message).toBe('The database did not answer within 2000 ms; this instance cannot serve calls until it answers');
        expect(res.body.error.details).toEqual({ database: 'unreachable', code: null });
      }
      expect(Date.now() - started).toBeLessThan(10_000);
      // The check still waiting is not sent again; once the database answers it, the next probe sends a new one.
      expect((await get(`${h.url}/readyz`)).status).toBe(503);
      expect(pings).toBe(1);
      answer();
      await new Promise((resolve) => setImmediate(resolve));
      store.ping = ping;
      expect((await get(`${h.url}/readyz`)).status).toBe(200);
    } finally {
      store.ping = ping;
    }
  });

  it('a closed SQLite store is not ready', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-readyz-sqlite-'));
    const store = await openStore({ dataDir, keyring: parseKeyring(generateKeySpec()) });
    const service = await serviceOn(store);
    try {
      expect((await get(`${service.url}/readyz`)).status).toBe(200);
      await store.close();
      const res = await get(`${service.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.body.error.details.database).toBe('unreachable');
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

postgresSuite('GET /readyz on PostgreSQL', (databaseUrl) => {
  it('is ready on a reachable server, and not ready, with the driver error code, on one that refuses connections', async () => {
    const keyring = parseKeyring(generateKeySpec());
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-readyz-pg-'));
    const schema = `ac_readyz_${randomBytes(5).toString('hex')}`;
    const up = await openStore({ databaseUrl, dataDir, keyring, pgSchema: schema });
    const down = await openStore({ databaseUrl: 'postgres://root@127.0.0.1:1/test', dataDir, keyring, migrate: false });
    const a = await serviceOn(up);
    const b = await serviceOn(down);
    try {
      expect(await get(`${a.url}/readyz`)).toMatchObject({ status: 200, body: { ok: true, database: 'ok' } });
      const res = await get(`${b.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.body.error.details).toEqual({ database: 'unreachable', code: 'ECONNREFUSED' });
    } finally {
      await a.close();
      await b.close();
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

redisSuite('GET /readyz with the rate limits in Redis', (redisUrl) => {
  it('reports Redis, and stays ready while Redis is unreachable (requests then go unlimited)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-readyz-redis-'));
    const keyring = parseKeyring(generateKeySpec());
    const reachable = new Redis(redisUrl);
    await new Promise<void>((resolve) => reachable.once('ready', () => resolve()));
    const unreachable = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    unreachable.on('error', () => {});
    await unreachable.connect().catch(() => undefined);
    const a = await serviceOn(await openStore({ dataDir: join(dataDir, 'a'), keyring }), reachable);
    const b = await serviceOn(await openStore({ dataDir: join(dataDir, 'b'), keyring }), unreachable);
    try {
      expect(await get(`${a.url}/readyz`)).toMatchObject({ status: 200, body: { ok: true, database: 'ok', redis: 'ok' } });
      expect(await get(`${b.url}/readyz`)).toMatchObject({ status: 200, body: { ok: true, database: 'ok', redis: 'unreachable' } });
    } finally {
      await a.close();
      await b.close();
      reachable.disconnect();
      unreachable.disconnect();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
