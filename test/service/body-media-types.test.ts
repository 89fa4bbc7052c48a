import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

/** A request as curl sends it: no content-length and no body, whatever the content-type says. */
function rawRequest(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a JSON content-type on a request without a body', () => {
  it('DELETE with content-type application/json and no body answers the route, not "not valid JSON"', async () => {
    const res = await rawRequest('DELETE', '/api/v1/connections/nope', { 'content-type': 'application/json', authorization: `Bearer ${token}` });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('connection_not_found');
  });

  it('the same through fetch (content-length: 0), for connections and accounts', async () => {
    const conn = await h.call('DELETE', '/api/v1/connections/nope', { token, headers: { 'content-type': 'application/json' } });
    expect(conn.body.error.code).toBe('connection_not_found');
    const account = await h.call('DELETE', '/api/v1/connected_accounts/acc_nope', { token, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(account.status).toBe(404);
    expect(account.body.error.code).not.toBe('invalid_request');
  });

  it('a GET with the header and an unknown path answer as they would without it', async () => {
    const list = await rawRequest('GET', '/api/v1/connections', { 'content-type': 'application/json', authorization: `Bearer ${token}` });
    expect(list.status).toBe(200);
    const missing = await rawRequest('DELETE', '/api/v1/nothing-here', { 'content-type': 'application/json', authorization: `Bearer ${token}` });
    expect(missing.body.error.code).toBe('not_found');
  });

  it('a POST that needs a body still refuses an empty one as not JSON, with the position', async () => {
    const res = await h.call('POST', '/api/v1/connections', { token, body: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', details: { position: 0 } });
  });
});

describe('non-JSON bodies on /api/v1', () => {
  const form = new URLSearchParams({ name: 'f', connector: 'crm', client_id: 'a', client_secret: 'form-secret-value' }).toString();

  it('refuses a form body on POST with 415 unsupported_media_type naming application/json', async () => {
    const res = await h.call('POST', '/api/v1/connections', { token, body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    expect(res.body.error.message).toBe('The request body must be application/json (got application/x-www-form-urlencoded)');
    expect(JSON.stringify(res.body)).not.toContain('form-secret-value');
    expect((await h.call('GET', '/api/v1/connections/f', { token })).status).toBe(404);
  });

  it('refuses text and a body without a content-type on PATCH and POST', async () => {
    const text = await h.call('PATCH', '/api/v1/connections/any', { token, body: '{"client_id":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const none = await rawRequestWithBody('POST', '/api/v1/proxy', '{"path":"/x"}');
    expect(none.status).toBe(415);
    expect(none.body.error.message).toContain('application/json');
  });

  it('/oauth/token still takes a form body', async () => {
    const res = await h.call('POST', '/oauth/token', {
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
  });
});

/** A body sent with no content-type header at all. */
function rawRequestWithBody(method: string, path: string, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
