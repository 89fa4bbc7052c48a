import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

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
