import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENV, startHarness, type Harness } from '../connector-harness.js';
import { ATTACK_PATHS, FORBIDDEN_HEADERS } from './attacks.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const kind of ['workspace', 'calendar', 'crm', 'sheets', 'docs'] as const) {
    await h.connection(kind);
    await h.authorize(kind, 'pat');
  }
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.control.clearRequests());

const proxy = (input: Partial<Parameters<Harness['env']['proxy']>[0]>) =>
  h.env.proxy({ connection_name: 'workspace', identifier: 'pat', method: 'GET', path: '/v1/users/me', ...input });

describe('proxy', () => {
  it('passes the upstream answer back: status, headers, body', async () => {
    const res = await proxy({});
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/json/);
    expect((res.body as { object: string }).object).toBe('user');
    const [req] = h.sandbox.control.requests('workspace');
    expect(req?.path).toBe('/v1/users/me');
    expect(req?.headers['notion-version']).toBe('2022-06-28');
  });

  it.each([
    ['workspace', '/v1/users/me'],
    ['calendar', '/calendar/v3/users/me/calendarList'],
    ['crm', '/crm/v3/owners'],
    ['sheets', '/v4/spreadsheets'],
    ['docs', '/docs/v1/documents'],
  ])('%s: the specification example path %s reaches the right upstream path', async (connection, path) => {
    const res = await h.env.proxy({ connection_name: connection, identifier: 'pat', method: path === '/v4/spreadsheets' || path === '/docs/v1/documents' ? 'POST' : 'GET', path, body: path.startsWith('/v4') || path.startsWith('/docs') ? {} : undefined });
    expect(res.status).not.toBe(401);
    const recorded = h.sandbox.control.requests().find((r) => r.service === connection);
    expect(recorded?.path).toBe(path === '/docs/v1/documents' ? '/v1/documents' : path);
  });

  it('passes non-2xx answers through as they are (it is a proxy)', async () => {
    const res = await proxy({ path: '/v1/pages/00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(404);
    expect((res.body as { code: string }).code).toBe('object_not_found');
  });

  it('sends query parameters and a JSON body, with the caller headers it may set', async () => {
    await proxy({ method: 'POST', path: '/v1/search', body: { query: 'Tasks' }, query: { a: '1', b: ['x', 'y'] }, headers: { 'Notion-Version': '2025-09-03', 'X-Trace': 't1' } });
    const [req] = h.sandbox.control.requests('workspace');
    expect(req?.method).toBe('POST');
    expect(req?.query).toEqual({ a: '1', b: ['x', 'y'] });
    expect(req?.body).toEqual({ query: 'Tasks' });
    expect(req?.headers['notion-version']).toBe('2025-09-03');
    expect(req?.headers['x-trace']).toBe('t1');
  });

  it(`refuses ${ATTACK_PATHS.length} attack paths with invalid_proxy_request and 0 requests sent`, async () => {
    expect(ATTACK_PATHS.length).toBeGreaterThanOrEqual(30);
    for (const path of ATTACK_PATHS) {
      await expect(proxy({ path }), JSON.stringify(path)).rejects.toMatchObject({ code: 'invalid_proxy_request', status: 400 });
    }
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('refuses forbidden headers and methods with 0 requests sent', async () => {
    for (const name of FORBIDDEN_HEADERS) {
      await expect(proxy({ headers: { [name]: 'evil' } }), name).rejects.toMatchObject({ code: 'invalid_proxy_request' });
    }
    for (const method of ['HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'FOO', '', 'GET /x']) {
      await expect(proxy({ method }), method).rejects.toMatchObject({ code: 'invalid_proxy_request' });
    }
    await expect(proxy({ body: { a: 1 } })).rejects.toMatchObject({ code: 'invalid_proxy_request' });
    await expect(proxy({ query: { a: 1 as unknown as string } })).rejects.toMatchObject({ code: 'invalid_proxy_request' });
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('accepts a lower-case method', async () => {
    expect((await proxy({ method: 'get' })).status).toBe(200);
  });

  it('401 -> refresh -> retry', async () => {
    h.sandbox.control.expireAccessTokens('google', 'pat@example.com');
    const res = await h.env.proxy({ connection_name: 'calendar', identifier: 'pat', method: 'GET', path: '/calendar/v3/users/me/calendarList' });
    expect(res.status).toBe(200);
    expect(h.sandbox.control.requests('calendar').map((r) => r.status)).toEqual([401, 200]);
  });
});

describe('proxy response headers', () => {
  let upstream: http.Server;
  let seen: http.IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      seen.push(req.headers);
      if (req.url?.startsWith('/always-401')) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return void res.end('{"object":"error","status":401,"code":"unauthorized","message":"API token is invalid."}');
      }
      res.setHeader('set-cookie', ['session=upstream-secret; HttpOnly', 'other=1']);
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-upstream', 'yes');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('strips Set-Cookie from the upstream answer and sends only the service-owned Authorization', async () => {
    const port = (upstream.address() as AddressInfo).port;
    await h.env.updateConnection('workspace', { overrides: { ...h.sandbox.endpoints('workspace'), apiBaseUrl: `http://127.0.0.1:${port}` } });
    try {
      seen = [];
      const res = await proxy({ headers: { 'X-Custom': 'c' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(res.headers['x-upstream']).toBe('yes');
      expect(Object.keys(res.headers).map((k) => k.toLowerCase())).not.toContain('set-cookie');
      expect(JSON.stringify(res)).not.toContain('upstream-secret');
      const token = (await h.store.findAccount(ENV, (await h.env.getConnection('workspace')).id, 'pat'))!.tokens!.accessToken;
      expect(seen[0]?.authorization).toBe(`Bearer ${token}`);
      expect(seen[0]?.['x-custom']).toBe('c');
      expect(seen[0]?.cookie).toBeUndefined();
    } finally {
      await h.env.updateConnection('workspace', { overrides: h.sandbox.endpoints('workspace') });
    }
  });

  it('a 401 that survives one refresh is reauthorization_required (one refresh, one retry)', async () => {
    const port = (upstream.address() as AddressInfo).port;
    await h.env.updateConnection('workspace', { overrides: { ...h.sandbox.endpoints('workspace'), apiBaseUrl: `http://127.0.0.1:${port}` } });
    try {
      seen = [];
      const refreshes = h.sandbox.control.tokenRequestCount('notion', 'refresh_token');
      await expect(proxy({ path: '/always-401' })).rejects.toMatchObject({ code: 'reauthorization_required', status: 409 });
      expect(seen).toHaveLength(2);
      expect(seen[0]?.authorization).not.toBe(seen[1]?.authorization);
      expect(h.sandbox.control.tokenRequestCount('notion', 'refresh_token')).toBe(refreshes + 1);
    } finally {
      await h.env.updateConnection('workspace', { overrides: h.sandbox.endpoints('workspace') });
    }
  });
});
