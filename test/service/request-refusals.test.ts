/**
 * How the service refuses a malformed request before any route runs: schema violations with their pointers, path ids
 * past their limit, a wrong method (405 with Allow), and bodies that are empty or not JSON.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithToken, type Harness } from './harness.js';
import { TOOL_FORMATS } from '../../runtime/agent/formats/index.js';

let h: Harness;
let token: string;
beforeAll(async () => ({ h, token } = await startWithToken()));
afterAll(async () => h?.close());

/** fastify's request-schema refusals read like the tools' own: the field, its JSON pointer and the allowed values. */
describe('request schema violations', () => {
  it('names the allowed values of an enum in the body', async () => {
    const res = await h.call('POST', '/api/v1/connections', { token, body: { name: 'x', connector: 'slack', client_id: 'a', client_secret: 'b' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.violations).toEqual([
      { pointer: '/connector', keyword: 'enum', message: 'connector must be one of: workspace, calendar, crm, sheets, docs' },
    ]);
    expect(res.body.error.message).toBe('The request body is invalid: connector must be one of: workspace, calendar, crm, sheets, docs');
  });

  it('names the allowed values of a query parameter', async () => {
    const res = await h.call('GET', '/api/v1/tools?format=xml', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([{ pointer: '/format', keyword: 'enum', message: `format must be one of: ${TOOL_FORMATS.join(', ')}` }]);
    expect(res.body.error.message).toContain('The request query is invalid');
  });

  it('describes formats, nested fields and unknown keys in the tools\' words, with escaped pointers', async () => {
    const res = await h.call('POST', '/api/v1/connections', {
      token,
      body: { name: 'x', connector: 'crm', client_id: 'a', client_secret: 'b', 'a/b~c': 1, overrides: { tokenUrl: 'not a url', 'x/y': 1 }, allowed_redirect_urls: [3] },
    });
    expect(res.status).toBe(400);
    const violations = res.body.error.details.violations as { pointer: string; message: string; keyword: string }[];
    expect(violations).toEqual(
      expect.arrayContaining([
        { pointer: '/a~1b~0c', keyword: 'additionalProperties', message: "unknown parameter 'a/b~c'. Known parameters: name, connector, client_id, client_secret, scopes, overrides, allowed_redirect_urls" },
        { pointer: '/overrides/x~1y', keyword: 'additionalProperties', message: "unknown key 'x/y' in overrides. Known keys: authorizationUrl, tokenUrl, revocationUrl, apiBaseUrl" },
        { pointer: '/overrides/tokenUrl', keyword: 'format', message: expect.stringMatching(/^overrides\.tokenUrl must be .*URI/i) },
        { pointer: '/allowed_redirect_urls/0', keyword: 'type', message: 'allowed_redirect_urls[0] must be a string' },
      ]),
    );
    expect(violations.map((v) => v.message).join(' ')).not.toMatch(/must match format|is not a known field|allowed values$/);
  });

  it('names the field an unknown one misspells, in the body and the query', async () => {
    const body = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_events', identifier: 'u1', toolInput: {} } });
    expect(body.status).toBe(400);
    expect(body.body.error.details.violations).toEqual([
      { pointer: '/toolInput', keyword: 'additionalProperties', message: "unknown parameter 'toolInput'. Did you mean 'tool_input'?" },
    ]);
    const query = await h.call('GET', '/api/v1/tools?readOnly=true', { token });
    expect(query.status).toBe(400);
    expect(query.body.error.details.violations).toEqual([
      { pointer: '/readOnly', keyword: 'additionalProperties', message: "unknown parameter 'readOnly'. Did you mean 'read_only'?" },
    ]);
  });

  it('names a missing field with its pointer, and the whole body when it is not an object', async () => {
    const missing = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { identifier: 'u1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.violations).toEqual([{ pointer: '/connection_name', keyword: 'required', message: 'connection_name is required' }]);
    const notObject = await h.call('POST', '/api/v1/proxy', { token, body: [1] });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.details.violations).toEqual([{ pointer: '', keyword: 'type', message: 'body must be an object' }]);
  });

  it('names a path parameter', async () => {
    const res = await h.call('GET', '/api/v1/connections/', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([{ pointer: '/id_or_name', keyword: 'minLength', message: 'id_or_name must not be empty' }]);
    expect(res.body.error.message).toContain('The request path is invalid');
  });
});

/** The document says path ids are at most 200 characters; the service, not the router, says so. */
describe('long path ids', () => {
  it('answers a 150-character id from the route (not found), not the router\'s 414', async () => {
    const res = await h.call('GET', `/api/v1/connections/${'c'.repeat(150)}`, { token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('connection_not_found');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('refuses a 250-character id with invalid_request and a pointer to the parameter', async () => {
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${'a'.repeat(250)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/id', keyword: 'maxLength' })]);
    const conn = await h.call('GET', `/api/v1/connections/${'c'.repeat(250)}`, { token });
    expect(conn.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/id_or_name', keyword: 'maxLength' })]);
  });

  it('answers a parameter past the router\'s cap in the service\'s error body too', async () => {
    const res = await h.call('GET', `/api/v1/connections/${'c'.repeat(1100)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});

/** Parses `Allow` into its methods, whatever their order and spacing. */
function allow(headers: Headers): string[] {
  return (headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter(Boolean).sort();
}

/** RFC 9110 §15.5.6: a path that exists under other methods answers 405 with Allow, not 404. */
describe('a wrong method on an existing route', () => {
  it('GET /api/v1/execute_tool answers 405 method_not_allowed with Allow: POST', async () => {
    const res = await h.call('GET', '/api/v1/execute_tool', { token });
    expect(res.status).toBe(405);
    expect(allow(res.headers)).toEqual(['POST']);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('PUT /api/v1/connections lists both methods the path takes (and HEAD, which GET brings)', async () => {
    const res = await h.call('PUT', '/api/v1/connections', { token, body: { name: 'x' } });
    expect(res.status).toBe(405);
    expect(allow(res.headers)).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('matches a parameterized route with a concrete id', async () => {
    const res = await h.call('PUT', '/api/v1/connections/some-connection', { token, body: {} });
    expect(res.status).toBe(405);
    const methods = allow(res.headers);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'DELETE']));
    expect(methods).not.toContain('PUT');
    expect(methods).not.toContain('POST');
  });

  it('matches a route with a parameter in the middle', async () => {
    const res = await h.call('GET', '/api/v1/tools/crm_contacts_list/execute', { token });
    expect(res.status).toBe(405);
    expect(allow(res.headers)).toEqual(['POST']);
  });

  it('answers in the service error body with the request id, a message naming the methods, and details.allow', async () => {
    const res = await h.call('DELETE', '/api/v1/execute_tool', { token });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(res.body).toEqual({
      error: {
        code: 'method_not_allowed',
        message: expect.stringContaining('POST'),
        details: { allow: ['POST'] },
        request_id: requestId,
      },
    });
  });

  it('works outside /api/v1 too (POST /healthz)', async () => {
    const res = await h.call('POST', '/healthz', { body: {} });
    expect(res.status).toBe(405);
    expect(allow(res.headers)).toEqual(['GET', 'HEAD']);
  });
});

describe('what stays 404', () => {
  it('an unknown path keeps 404 not_found without Allow', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await h.call(method, '/api/v1/nothing-here', { token, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
      expect(res.body.error).toMatchObject({ code: 'not_found', request_id: res.headers.get('x-request-id') });
    }
  });

  it('an unknown path below a parameterized one keeps 404', async () => {
    const res = await h.call('GET', '/api/v1/connections/some-connection/extra', { token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('HEAD and OPTIONS keep fastify\'s answers: HEAD works where GET does, OPTIONS without a route is 404', async () => {
    const head = await fetch(`${h.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const headPostOnly = await fetch(`${h.url}/api/v1/execute_tool`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(headPostOnly.status).toBe(404);
    const options = await h.call('OPTIONS', '/api/v1/execute_tool', { token });
    expect(options.status).toBe(404);
    expect(options.body.error.code).toBe('not_found');
  });
});

/**
 * A request with exactly the headers given, as curl sends it: without a body, no content-length whatever the
 * content-type says; with one, no content-type unless given.
 */
function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
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

  it('a POST that takes no body (sending a webhook delivery again) answers the route, not "The body is empty"', async () => {
    // What `curl -X POST -H 'content-type: application/json' ...` sends: the header and nothing after it.
    const raw = await rawRequest('POST', '/api/v1/webhook_deliveries/whdl_nope/retry', { 'content-type': 'application/json', authorization: `Bearer ${token}` });
    expect(raw.status).toBe(404);
    expect(raw.body.error.code).toBe('not_found');
    const fetched = await h.call('POST', '/api/v1/webhook_deliveries/whdl_nope/retry', { token, body: '', headers: { 'content-type': 'application/json' } });
    expect(fetched.body.error).toMatchObject({ code: 'not_found', message: 'No webhook delivery "whdl_nope" in this environment.' });
    // A body that is there is still read: one that is not JSON is refused as such.
    expect((await h.call('POST', '/api/v1/webhook_deliveries/whdl_nope/retry', { token, body: 'nope', headers: { 'content-type': 'application/json' } })).body.error.code).toBe('invalid_request');
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
    const body = '{"path":"/x"}';
    const none = await rawRequest('POST', '/api/v1/proxy', { authorization: `Bearer ${token}`, 'content-length': String(Buffer.byteLength(body)) }, body);
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
