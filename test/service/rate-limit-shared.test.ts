/**
 * Rate limits through @fastify/rate-limit (issue 15): two service instances on one database share one API budget
 * per environment when they share Redis (REDIS_URL; `redisSuite` in test/server-suites.ts says what happens without it), and
 * count separately in memory without it.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../../runtime/service/build-service.js';
import { startHarness, type Harness } from './harness.js';
import { redisSuite } from '../server-suites.js';

const BUDGET = { max: 6, windowMs: 60_000 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
});
afterAll(() => h?.close());

/** A service instance on the harness's connector (same database, same signing key), with its own rate-limit store. */
async function instance(redis?: Redis): Promise<{ url: string; app: FastifyInstance }> {
  const app = await buildService({ connector: h.connector, signingKey: h.signingKey, logger: false, rateLimit: BUDGET, ...(redis ? { rateLimitRedis: redis } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app };
}

async function statuses(url: string, token: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/api/v1/connections`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('API budget per environment across instances', () => {
  it('in memory, each instance counts its own', async () => {
    const [one, two] = [await instance(), await instance()];
    try {
      const token = await h.token(h.a);
      expect(await statuses(one.url, token, 4)).toEqual([200, 200, 200, 200]);
      expect(await statuses(two.url, token, 4)).toEqual([200, 200, 200, 200]);
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });

  redisSuite('with Redis', (redisUrl) => {
    it('two instances draw on one budget', async () => {
      const clients = [new Redis(redisUrl, { maxRetriesPerRequest: 1 }), new Redis(redisUrl, { maxRetriesPerRequest: 1 })];
      const [one, two] = [await instance(clients[0]), await instance(clients[1])];
      try {
        const token = await h.token(h.b);
        expect(await statuses(one.url, token, 4)).toEqual([200, 200, 200, 200]);
        const rest = await statuses(two.url, token, 4);
        expect(rest).toEqual([200, 200, 429, 429]);
        const limited = await fetch(`${one.url}/api/v1/connections`, { headers: { authorization: `Bearer ${token}` } });
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
        // Another environment has its own budget.
        expect(await statuses(two.url, await h.token(h.a), 1)).toEqual([200]);
      } finally {
        await one.app.close();
        await two.app.close();
        for (const c of clients) c.disconnect();
      }
    });
  });
});
