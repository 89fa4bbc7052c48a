/**
 * The keys the rate-limit budgets count under: each names its budget and its client (`api:<environment>`,
 * `credentials:<address>`, `link-opens:<address>`), in Redis too, where @fastify/rate-limit's own store put the route
 * of the limiter before it (`undefinedundefined-` for a limiter from `createRateLimit`, which has none). A request
 * with no environment or no client address is not counted under a key it would share with every other such request
 * (`api:`, `credentials:undefined`): the check fails instead.
 */
import { randomBytes, randomInt } from 'node:crypto';
import Fastify, { type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { rateLimitKeys, registerRateLimits } from '../../runtime/service/rate-limits.js';
import { redisSuite } from '../server-suites.js';

const request = (fields: { environmentId?: unknown; ip?: unknown }) => fields as unknown as FastifyRequest;

describe('rateLimitKeys', () => {
  it('name the budget and the environment or the client address', () => {
    expect(rateLimitKeys.api(request({ environmentId: 'env_a' }))).toBe('api:env_a');
    expect(rateLimitKeys.api(request({ environmentId: 'env_b' }))).toBe('api:env_b');
    expect(rateLimitKeys.credentials(request({ ip: '203.0.113.7' }))).toBe('credentials:203.0.113.7');
    expect(rateLimitKeys.linkOpens(request({ ip: '::ffff:203.0.113.7' }))).toBe('link-opens:203.0.113.7');
    expect(rateLimitKeys.credentials(request({ ip: '2001:db8:a:b::1' }))).toBe('credentials:2001:db8:a:b::/64');
  });

  it.each([
    ['no environment (the request decoration\'s default)', () => rateLimitKeys.api(request({ environmentId: '' }))],
    ['an undefined environment', () => rateLimitKeys.api(request({}))],
    ['no client address (a closed socket)', () => rateLimitKeys.credentials(request({ ip: undefined }))],
    ['an empty client address', () => rateLimitKeys.linkOpens(request({ ip: '' }))],
  ])('refuse to make a key shared by every such request: %s', (_label, key) => {
    expect(key).toThrow(/rate limit/);
  });
});

describe('the API budget on a request no environment was admitted for', () => {
  it('fails the request instead of counting it under one key for all such requests', async () => {
    const app = Fastify();
    app.decorateRequest('environmentId', '');
    const limits = await registerRateLimits(app, { api: { max: 100, windowMs: 60_000 }, credentials: false, linkOpens: false });
    app.get('/admitted', async (req) => {
      req.environmentId = 'env_a';
      await limits.api(req);
      return { ok: true };
    });
    app.get('/not-admitted', async (req) => {
      await limits.api(req);
      return { ok: true };
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/admitted' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/not-admitted' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});

redisSuite('the Redis counters', (redisUrl) => {
  it('are keyed by the namespace and the budget\'s key alone, one key per client whatever the route', async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const app = Fastify();
    const environmentId = `env_keys_${randomBytes(6).toString('hex')}`;
    // A group as an IPv6 address writes it (no leading zero: the key holds the address's canonical form).
    const group = (0x1000 + randomInt(0xf000)).toString(16);
    const limits = await registerRateLimits(app, { redis });
    for (const path of ['/one', '/two']) {
      app.get(path, async (req) => {
        req.environmentId = environmentId;
        await limits.api(req);
        await limits.credentials(req);
        await limits.linkOpens(req);
        return { ok: true };
      });
    }
    const address = `2001:db8:${group}:1::1`;
    const client = `2001:db8:${group}:1::/64`;
    const written = [`agent-connector:rate-limit:api:${environmentId}`, `agent-connector:rate-limit:credentials:${client}`, `agent-connector:rate-limit:link-opens:${client}`];
    try {
      expect((await app.inject({ method: 'GET', url: '/one', remoteAddress: address })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/two', remoteAddress: `2001:db8:${group}:1::2` })).statusCode).toBe(200);
      const keys = [...(await redis.keys(`agent-connector:rate-limit:*${environmentId}*`)), ...(await redis.keys(`agent-connector:rate-limit:*${client}*`))];
      expect(keys.sort()).toEqual([...written].sort());
      for (const key of written) {
        expect(await redis.get(key), key).toBe('2');
        expect(await redis.pttl(key), key).toBeGreaterThan(0);
      }
    } finally {
      await redis.del(...written);
      await app.close();
      redis.disconnect();
    }
  });
});
