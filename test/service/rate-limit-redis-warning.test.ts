/**
 * An unreachable rate-limit Redis is logged once, naming which server (from REDIS_URL) and never its password.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { rateLimitRedis } from '../../runtime/service/rate-limit-redis.js';

let redis: Redis | undefined;
afterEach(() => {
  redis?.disconnect();
  redis = undefined;
});

describe('rateLimitRedis: an unreachable server', () => {
  it('warns once, naming REDIS_URL and the host, port and database, without the password', async () => {
    const lines: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
    // Port 1 on loopback: nothing listens there.
    redis = rateLimitRedis('redis://:hunter2-secret@127.0.0.1:1/3', { warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain('REDIS_URL');
    expect(lines[0]?.obj).toEqual({ errorCode: 'ECONNREFUSED', redis: '127.0.0.1:1/3' });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });
});
