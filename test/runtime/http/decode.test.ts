import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamClient } from '../../../runtime/http/client.js';
import { resolveHttpPolicy } from '../../../runtime/http/policy.js';

const JSON_BODY = JSON.stringify({ results: Array.from({ length: 50 }, (_, i) => ({ id: String(i), name: `row ${i}` })) });

/** Each path answers JSON_BODY (or a bomb) in one content coding, as a real upstream asked for compression would. */
const ENCODED: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', gzipSync(JSON_BODY)],
  '/x-gzip': ['x-gzip', gzipSync(JSON_BODY)],
  '/deflate': ['deflate', deflateSync(JSON_BODY)],
  '/deflate-raw': ['deflate', deflateRawSync(JSON_BODY)],
  '/br': ['br', brotliCompressSync(JSON_BODY)],
  '/identity': ['identity', Buffer.from(JSON_BODY)],
  '/zstd': ['zstd', Buffer.from('not really zstd')],
  '/broken-gzip': ['gzip', Buffer.from('definitely not gzip')],
  '/br-bomb': ['br', brotliCompressSync(Buffer.alloc(200_000, 0x20))],
};

let server: http.Server;
let base = '';
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers['accept-encoding']);
    const [coding, body] = ENCODED[req.url ?? ''] ?? ['identity', Buffer.from('{}')];
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const upstream = createUpstreamClient(resolveHttpPolicy({ maxRetries: 0, maxResponseBytes: 100_000 }));
afterAll(() => upstream.close());

describe('upstream client content decoding', () => {
  it.each(['/gzip', '/x-gzip', '/deflate', '/deflate-raw', '/br', '/identity'])('returns the decoded body of %s and drops the wire headers', async (path) => {
    const res = await upstream.send({ method: 'GET', url: `${base}${path}`, headers: {}, retry: false });
    expect(res.body.toString('utf8')).toBe(JSON_BODY);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json');
    if (path !== '/identity') expect(res.headers['content-length']).toBeUndefined();
  });

  it('asks only for the codings it can decode, whatever the caller sent', async () => {
    seen.length = 0;
    await upstream.send({ method: 'GET', url: `${base}/gzip`, headers: { 'accept-encoding': 'zstd' }, retry: false });
    expect(seen).toEqual(['gzip, deflate, br']);
  });

  it('refuses a coding it did not ask for, naming it', async () => {
    const error = await upstream.send({ method: 'GET', url: `${base}/zstd`, headers: {}, retry: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error', details: { code: 'unsupported_content_encoding' } });
    expect((error as Error).message).toContain('zstd');
  });

  it('reports a body that does not decode as an upstream error', async () => {
    await expect(upstream.send({ method: 'GET', url: `${base}/broken-gzip`, headers: {}, retry: false })).rejects.toMatchObject({
      code: 'upstream_error',
      details: { code: 'content_decoding_failed' },
    });
  });

  it('caps the decoded size, not only the bytes on the wire (a brotli bomb)', async () => {
    expect(ENCODED['/br-bomb']![1].length).toBeLessThan(1_000);
    await expect(upstream.send({ method: 'GET', url: `${base}/br-bomb`, headers: {}, retry: false })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
  });
});
