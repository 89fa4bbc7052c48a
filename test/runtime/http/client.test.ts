import { gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUpstreamClient, type UpstreamClient } from '../../../runtime/http/client.js';
import { resolveHttpPolicy } from '../../../runtime/http/policy.js';

/** A real local server whose next answers a test scripts: [status, headers, body] per request, then 200. */
let server: http.Server;
let base = '';
let script: Array<[number, Record<string, string>, string]> = [];
let hits: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => {
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2_000);
      if (req.url === '/big') return void res.end('x'.repeat(5_000));
      if (req.url === '/drip') {
        // Headers at once, then a byte every 30 ms for a second: no gap is long, the whole is.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('x'), 30);
        return void setTimeout(() => (clearInterval(timer), res.end()), 1_000);
      }
      if (req.url === '/big-chunked') {
        // No content-length: the size is only known as the chunks arrive.
        res.write('x'.repeat(600));
        return void setTimeout(() => res.end('x'.repeat(600)), 20);
      }
      if (req.url === '/big-gzip') {
        // A small declared (compressed) length that inflates past the limit.
        const packed = gzipSync('x'.repeat(5_000));
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(packed.length) });
        return void res.end(packed);
      }
      const [status, headers, body] = script.shift() ?? [200, { 'content-type': 'application/json' }, '{"ok":true}'];
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  hits = [];
});

function client(sleeps: number[], extra: Parameters<typeof resolveHttpPolicy>[0] = {}): UpstreamClient {
  const policy = resolveHttpPolicy({ maxRetries: 3, maxRetryDelayMs: 30_000, timeoutMs: 500, ...extra });
  return createUpstreamClient(policy, {
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    now: () => Date.parse('2026-03-01T00:00:00Z'),
  });
}

describe('upstream client retries', () => {
  it('retries a 429 on GET and honours Retry-After in seconds', async () => {
    const sleeps: number[] = [];
    script = [[429, { 'retry-after': '7' }, '{}']];
    const res = await client(sleeps).send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(sleeps).toEqual([7_000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const sleeps: number[] = [];
    script = [[503, { 'retry-after': 'Sun, 01 Mar 2026 00:00:04 GMT' }, '']];
    await client(sleeps).send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true });
    expect(sleeps).toEqual([4_000]);
  });

  it('caps Retry-After and backs off exponentially without it', async () => {
    const sleeps: number[] = [];
    script = [
      [429, { 'retry-after': '3600' }, ''],
      [500, {}, ''],
      [502, {}, ''],
    ];
    const res = await client(sleeps, { maxRetryDelayMs: 10_000, baseRetryDelayMs: 100 }).send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true });
    expect(res.status).toBe(200);
    // Capped; then 200 and 400 (jitter at 0.5 puts each at 3/4 of the step).
    expect(sleeps).toEqual([10_000, 150, 300]);
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    const sleeps: number[] = [];
    script = [
      [429, {}, ''],
      [429, {}, ''],
      [429, {}, ''],
      [429, { 'retry-after': '2' }, '{"last":true}'],
    ];
    const res = await client(sleeps).send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true });
    expect(res.status).toBe(429);
    expect(res.attempts).toBe(4);
    expect(hits).toHaveLength(4);
  });

  it('never retries a request that is not retryable (a create)', async () => {
    const sleeps: number[] = [];
    script = [[503, {}, '']];
    const res = await client(sleeps).send({ method: 'POST', url: `${base}/create`, headers: {}, body: '{}', retry: false });
    expect(res.status).toBe(503);
    expect(hits).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry 4xx other than 429, nor 501', async () => {
    script = [[400, {}, ''], [501, {}, '']];
    const c = client([]);
    expect((await c.send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true })).status).toBe(400);
    expect((await c.send({ method: 'GET', url: `${base}/a`, headers: {}, retry: true })).status).toBe(501);
    expect(hits).toHaveLength(2);
  });

  it('retries a dialect rate limit signalled by the caller (Google 403 usageLimits)', async () => {
    const sleeps: number[] = [];
    script = [[403, {}, '{"error":{"errors":[{"reason":"rateLimitExceeded"}]}}']];
    const res = await client(sleeps).send({
      method: 'GET',
      url: `${base}/a`,
      headers: {},
      retry: true,
      isRateLimited: (status, body) => status === 403 && body.toString().includes('rateLimitExceeded'),
    });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });
});

describe('upstream client limits', () => {
  it('turns a timeout into upstream_timeout', async () => {
    await expect(client([], { timeoutMs: 100 }).send({ method: 'GET', url: `${base}/slow`, headers: {}, retry: false })).rejects.toMatchObject({
      code: 'upstream_timeout',
      status: 504,
    });
  });

  it.each(['/big', '/big-chunked', '/big-gzip'])('refuses a response larger than the limit (%s)', async (path) => {
    await expect(client([], { maxResponseBytes: 1_000 }).send({ method: 'GET', url: `${base}${path}`, headers: {}, retry: false })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
  });

  it('bounds the whole attempt, not only the gaps: a body that drips past the deadline is upstream_timeout', async () => {
    // Without the deadline this succeeds after a second: no gap between bytes reaches undici's idle timeout.
    await expect(client([], { timeoutMs: 200 }).send({ method: 'GET', url: `${base}/drip`, headers: {}, retry: false })).rejects.toMatchObject({
      code: 'upstream_timeout',
    });
  });

  it('retries a refused connection for a retryable request, then reports it', async () => {
    const sleeps: number[] = [];
    const error = await client(sleeps, { maxRetries: 2, baseRetryDelayMs: 100 })
      .send({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: {}, retry: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error', details: { code: 'ECONNREFUSED' } });
    expect(sleeps).toHaveLength(2);
  });

  it('reports an unreachable upstream without echoing the request', async () => {
    const error = await client([], { maxRetries: 0 })
      .send({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: { authorization: 'Bearer secret-token-123' }, retry: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error' });
    expect(JSON.stringify(error)).not.toContain('secret-token-123');
    expect(String((error as Error).message)).not.toContain('secret-token-123');
  });
});

describe('a bounded wait for upstream sockets', () => {
  it('sheds calls past sockets + queue at once with unavailable and Retry-After, and takes calls again when they finish', async () => {
    // 2 sockets and 3 waiting places: calls 6 to 8 are refused before anything is sent.
    const client = createUpstreamClient(resolveHttpPolicy({ timeoutMs: 15_000, connectionsPerOrigin: 2, maxQueuedPerOrigin: 3 }));
    try {
      const slow = () => client.send({ method: 'GET', url: `${base}/slow`, headers: {}, retry: false });
      const started = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 8 }, slow));
      const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      expect(refused).toHaveLength(3);
      for (const e of refused) {
        expect(e).toMatchObject({ code: 'unavailable', status: 503, retryAfterSeconds: 1, details: { in_flight: 5 } });
      }
      // Only the five admitted calls reached the upstream: 2 at a time, so three rounds of the 2 s answer.
      expect(hits.filter((h) => h.url === '/slow')).toHaveLength(5);
      expect(Date.now() - started).toBeGreaterThanOrEqual(5_500);
      const again = await client.send({ method: 'GET', url: `${base}/ok`, headers: {}, retry: false });
      expect(again.status).toBe(200);
    } finally {
      client.close();
    }
  }, 30_000);
});
