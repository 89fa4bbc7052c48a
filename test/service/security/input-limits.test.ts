/**
 * Security review, item 14: configuration input had no ceiling on list sizes or string lengths. Each is bounded
 * (runtime/validation/input-limits.ts), over HTTP (the OpenAPI schemas) and in-process (the runtime's own check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../../runtime/validation/input-limits.js';
import { startWithToken, type Harness } from '../harness.js';

let h: Harness;
let token: string;
beforeAll(async () => ({ h, token } = await startWithToken({ rateLimit: false })));
afterAll(() => h?.close());

const base = { connector: 'calendar', client_id: 'cid', client_secret: 'secret' };
const long = (n: number) => 'x'.repeat(n);
const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://app.example/cb/${i}`);
const scopes = (n: number) => Array.from({ length: n }, (_, i) => `scope.${i}`);

const CASES: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
  ['scopes', { scopes: scopes(INPUT_LIMITS.scopes + 1) }, { scopes: scopes(INPUT_LIMITS.scopes) }, '/scopes'],
  ['one scope', { scopes: [long(INPUT_LIMITS.scope + 1)] }, { scopes: [long(INPUT_LIMITS.scope)] }, '/scopes'],
  ['allowed_redirect_urls', { allowed_redirect_urls: urls(INPUT_LIMITS.redirectUrls + 1) }, { allowed_redirect_urls: urls(INPUT_LIMITS.redirectUrls) }, '/allowed_redirect_urls'],
  ['one redirect URL', { allowed_redirect_urls: [`https://app.example/${long(INPUT_LIMITS.url)}`] }, { allowed_redirect_urls: [`https://app.example/${long(INPUT_LIMITS.url - 100)}`] }, '/allowed_redirect_urls'],
  ['client_id', { client_id: long(INPUT_LIMITS.clientId + 1) }, { client_id: long(INPUT_LIMITS.clientId) }, '/client_id'],
  ['client_secret', { client_secret: long(INPUT_LIMITS.clientSecret + 1) }, { client_secret: long(INPUT_LIMITS.clientSecret) }, '/client_secret'],
  ['an override URL', { overrides: { apiBaseUrl: `https://api.example/${long(INPUT_LIMITS.url)}` } }, { overrides: { apiBaseUrl: `https://api.example/${long(100)}` } }, '/overrides'],
];

describe('configuration input is bounded (item 14)', () => {
  it.each(CASES)('over HTTP: %s past the limit is a 400 naming it; at the limit it is accepted', async (_label, over, at, pointer) => {
    const refused = await h.call('POST', '/api/v1/connections', { token, body: { name: `over-${Math.random().toString(36).slice(2, 8)}`, ...base, ...over } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details.violations)).toContain(pointer);
    const accepted = await h.call('POST', '/api/v1/connections', { token, body: { name: `at-${Math.random().toString(36).slice(2, 8)}`, ...base, ...at } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  });

  it.each(CASES)('in-process: %s past the limit is invalid_input naming it', async (_label, over, _at, pointer) => {
    const env = h.connector.environment(h.a.environmentId);
    const error = await env.createConnection({ name: `in-${Math.random().toString(36).slice(2, 8)}`, ...base, ...over } as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect(JSON.stringify((error as { details: unknown }).details)).toContain(pointer);
  });

  it('bounds the identifier, proxy headers and query over HTTP', async () => {
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'x', identifier: long(INPUT_LIMITS.identifier + 1) } });
    expect(link.status).toBe(400);
    const headers = Object.fromEntries(Array.from({ length: INPUT_LIMITS.proxyHeaders + 1 }, (_, i) => [`x-h${i}`, 'v']));
    const proxy = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'x', identifier: 'u', method: 'GET', path: '/a', headers } });
    expect(proxy.status).toBe(400);
    const value = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'x', identifier: 'u', method: 'GET', path: '/a', query: { q: long(INPUT_LIMITS.proxyValue + 1) } } });
    expect(value.status).toBe(400);
  });
});
