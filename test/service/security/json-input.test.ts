/**
 * Security review, request bodies (issue 14, items 5 and 7), through the running service:
 * - 5: JSON nested 100,000 levels deep was a 500 (a stack overflow in the poisoning check); it is a 400 that names
 *   the limit and where the body went past it;
 * - 7: the poisoning check read the raw text for `__proto__`, so an escaped key (`"\u005f_proto__"`) passed; keys are
 *   now checked after parsing (secure-json-parse), escaped or not, on every JSON route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../runtime/json/untrusted-json.js';
import { startWithToken, type Harness } from '../harness.js';

let h: Harness;
let token: string;
beforeAll(async () => ({ h, token } = await startWithToken({ rateLimit: false })));
afterAll(() => h?.close());

describe('depth limit (item 5)', () => {
  it.each([
    ['100,000 levels of arrays', `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['100,000 levels of objects', `{"name":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`],
  ])('answers 400 with the limit for %s', async (_label, body) => {
    const res = await h.call('POST', '/api/v1/connections', { token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(res.body.error.details.position).toBeGreaterThan(MAX_JSON_DEPTH);
  });

  it('accepts a body at the limit (it is refused later for its content, not its depth)', async () => {
    const body = `{"name":"n","connector":"calendar","client_id":"c","client_secret":"s","overrides":{},"x":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    const res = await h.call('POST', '/api/v1/connections', { token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).not.toContain('nested deeper');
  });

  it('applies to the token endpoint too', async () => {
    const res = await h.call('POST', '/oauth/token', { body: `{"grant_type":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    expect(res.status).toBe(400);
  });
});

describe('prototype poisoning (item 7)', () => {
  it.each([
    ['a plain __proto__ key', '{"__proto__":{"admin":true},"name":"x"}'],
    ['an escaped \\u005f_proto__ key', '{"\\u005f_proto__":{"admin":true},"name":"x"}'],
    ['a fully escaped key', '{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":{"admin":true}}'],
    ['a nested constructor.prototype', '{"a":{"constructor":{"prototype":{"admin":true}}}}'],
  ])('refuses %s with a 400', async (_label, body) => {
    for (const path of ['/api/v1/connections', '/api/v1/proxy', '/api/v1/execute_tool']) {
      const res = await h.call('POST', path, { token, body });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain('forbidden prototype property');
    }
  });
});
