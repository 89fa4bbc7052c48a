import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { startHarness, type Harness } from './harness.js';

/** Collects the service's log lines. */
class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

let h: Harness;
const logs = new Capture();

beforeAll(async () => {
  h = await startHarness({ logStream: logs, rateLimit: { max: 5, windowMs: 60_000 }, bodyLimitBytes: 4096 });
});
afterAll(async () => h?.close());

describe('request ids', () => {
  it('generates one for every response and repeats it in error bodies', async () => {
    const ok = await h.call('GET', '/healthz');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
    const missing = await h.call('GET', '/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', request_id: missing.headers.get('x-request-id') });
  });

  it('keeps a sane incoming id and replaces one that could forge log lines', async () => {
    const kept = await h.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-1234abcd' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-1234abcd');
    const replaced = await h.call('GET', '/healthz', { headers: { 'x-request-id': 'x"}\\u000a{"level":60' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('rate limiting per environment', () => {
  it('answers 429 with Retry-After once the budget is spent, without touching other environments', async () => {
    const tokenA = await h.token(h.a);
    const tokenB = await h.token(h.b);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<Harness['call']>> | undefined;
    for (let i = 0; i < 7; i++) {
      const res = await h.call('GET', '/api/v1/connections', { token: tokenA });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(limited?.body.error.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The body says the same, for a reader of the body alone (a model handed the error).
    expect(limited?.body.error.retry_after_seconds).toBe(Number(limited?.headers.get('retry-after')));
    expect(limited?.body.error).not.toHaveProperty('execution_id');
    expect((await h.call('GET', '/api/v1/connections', { token: tokenB })).status).toBe(200);
  });
});

describe('request bodies', () => {
  // `/oauth/token` answers body errors in the RFC 6749 shape (test/service/oauth-token-body-errors.test.ts); every
  // other route uses the service's error body. Environment B still has budget left after the rate-limit test.
  it('refuses a body over the limit with 413 payload_too_large', async () => {
    const token = await h.token(h.b);
    const res = await h.call('POST', '/api/v1/connections', { token, body: { name: 'big', connector: 'crm', client_id: 'x'.repeat(5000), client_secret: 'y' } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    // It says the limit, so the caller knows how much less to send.
    const limit = res.body.error.details.limit_bytes;
    expect(limit).toBeGreaterThanOrEqual(1024);
    expect(res.body.error.message).toBe(`The request body is larger than the limit of ${limit} bytes`);
  });

  it('refuses malformed JSON with 400 invalid_request', async () => {
    const token = await h.token(h.b);
    const res = await h.call('POST', '/api/v1/connections', { token, body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details).toEqual({ position: 8 });
    expect(res.body.error.message).toBe('The request body is not valid JSON (at position 8: Unexpected end of JSON input)');
  });
});

describe('logs', () => {
  it('never contain a client secret, a bearer token, a cookie, an OAuth code or a link token', async () => {
    // A fresh harness with a roomy budget: the flow needs more than the five requests above.
    const logs2 = new Capture();
    const h2 = await startHarness({ logStream: logs2 });
    try {
      const token = await h2.token(h2.a);
      const conn = await h2.call('POST', '/api/v1/connections', {
        token,
        body: { name: 'cal', connector: 'calendar', client_id: 'cid-logs', client_secret: 'super-secret-connection-value', overrides: h2.sandbox.endpoints('calendar') },
      });
      expect(conn.status).toBe(201);
      h2.sandbox.control.registerClient({ provider: 'google', clientId: 'cid-logs', clientSecret: 'super-secret-connection-value', redirectUris: [conn.body.redirect_uri] });
      const link = await h2.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal', identifier: 'u1' } });
      const linkToken = new URL(link.body.link).pathname.split('/').pop() as string;
      const consent = await consentThroughSandbox(link.body.link);
      expect(consent.status).toBe(200);
      await h2.call('GET', '/api/v1/connections', { headers: { authorization: `Bearer ${token}`, cookie: 'ac_session=cookie-value-123' } });
      await h2.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: h2.a.clientId, client_secret: 'wrong-secret-value' } });

      const text = logs2.lines.join('\n');
      expect(logs2.lines.length).toBeGreaterThan(5);
      expect(logs2.lines.every((line) => JSON.parse(line).level !== undefined)).toBe(true);
      for (const secret of [h2.a.clientSecret, token, 'super-secret-connection-value', 'wrong-secret-value', 'cookie-value-123', linkToken]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/[?&](code|state)=/);
      expect(text).toContain('/sso/v1/connect/[redacted]');
    } finally {
      await h2.close();
    }
  });
});
