/**
 * The Redis connection for shared rate-limit counters (`REDIS_URL`). Tuned as @fastify/rate-limit recommends: a
 * short connect timeout and one retry per command, so an unreachable Redis costs a request a few milliseconds
 * (and is then skipped, see rate-limits.ts) instead of queueing it behind reconnection attempts.
 * @see https://github.com/fastify/fastify-rate-limit/blob/main/example/example.js
 */
import { Redis } from 'ioredis';

export function rateLimitRedis(url: string, logger: { warn(obj: object, msg?: string): void }): Redis {
  const redis = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  let warned = false;
  redis.on('error', (error: Error & { code?: string }) => {
    // One line per outage, not one per reconnection attempt. It names the server (host, port, database) but never
    // the URL, which may hold a password.
    if (warned) return;
    warned = true;
    const { host, port, db } = redis.options;
    logger.warn(
      { errorCode: error.code ?? 'error', redis: `${host}:${port}/${db ?? 0}` },
      'rate-limit Redis (REDIS_URL) unreachable; requests are not rate limited until it is back',
    );
  });
  redis.on('ready', () => {
    warned = false;
  });
  return redis;
}
