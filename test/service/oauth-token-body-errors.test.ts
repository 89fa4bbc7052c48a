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
    // Says what is wrong and where (it is JSON, just not valid), never repeating the body.
    expect(res.body.error_description).toBe('The request body is not valid JSON (at position 14: Unexpected end of JSON input)');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const long = await h.call('POST', '/oauth/token', {
      body: '{"grant_type":"client_credentials","client_id":"a","client_secret":SUPERSECRETVALUE}',
      headers: { 'content-type': 'application/json' },
    });
    expect(long.body).toEqual({ error: 'invalid_request', error_description: "The request body is not valid JSON (at position 67: Unexpected token 'S')" });
  });

  it('answers a body of another media type with what it accepts', async () => {
    const res = await h.call('POST', '/oauth/token', { body: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'The request body must be application/x-www-form-urlencoded or JSON (got text/plain)' });
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
