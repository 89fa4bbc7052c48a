import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

/** OAuth client libraries parse `{"error": "..."}`; a body the parser refuses must not switch to the service's shape. */
describe('POST /oauth/token with a body that cannot be parsed', () => {
  it('answers invalid JSON with the OAuth error body', async () => {
    const res = await h.call('POST', '/oauth/token', { body: '{"grant_type":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect(typeof res.body.error_description).toBe('string');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers an empty JSON body with the OAuth error body', async () => {
    const res = await h.call('POST', '/oauth/token', { body: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('still issues tokens and keeps the service error body elsewhere', async () => {
    const ok = await h.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret } });
    expect(ok.status).toBe(200);
    const api = await h.call('POST', '/api/v1/proxy', { body: '{"x":', headers: { 'content-type': 'application/json' }, token: await h.token(h.a) });
    expect(api.status).toBe(400);
    expect(api.body.error.code).toBe('invalid_request');
  });
});
