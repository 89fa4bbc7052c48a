/**
 * Every documented route gets a valid and an invalid request; every response is checked against the document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { conformanceProblems, documentedOperations, OPENAPI } from './openapi-conformance.js';
import { startHarness, type Harness } from './harness.js';
import { tools as generatedTools } from '../../generated/tools.gen.js';

let h: Harness;
let token: string;
/** `METHOD path-template` -> the kinds of request sent (valid / invalid). */
const exercised = new Map<string, Set<'valid' | 'invalid'>>();

async function check(
  kind: 'valid' | 'invalid',
  method: string,
  template: string,
  path: string,
  options: { body?: unknown; auth?: boolean; headers?: Record<string, string> } = {},
) {
  const res = await h.call(method, path, {
    ...(options.auth === false ? {} : { token }),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  expect(conformanceProblems(method, template, res), `${method} ${path} -> ${res.status} ${String(JSON.stringify(res.body)).slice(0, 300)}`).toEqual([]);
  if (kind === 'valid') expect(res.status, `${method} ${path}: ${String(JSON.stringify(res.body)).slice(0, 300)}`).toBeLessThan(400);
  else expect(res.status).toBeGreaterThanOrEqual(400);
  const key = `${method} ${template}`;
  exercised.set(key, (exercised.get(key) ?? new Set()).add(kind));
  return res;
}

beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

describe('the served document', () => {
  it('is generated/openapi.json with this service\'s base URL as its one server', async () => {
    const res = await check('valid', 'GET', '/openapi.json', '/openapi.json', { auth: false });
    const emitted = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
    expect(emitted.servers).toEqual([{ url: 'http://localhost:3000', description: expect.any(String) }]);
    expect(res.body.servers).toEqual([{ url: h.url, description: 'This service.' }]);
    expect(JSON.stringify({ ...res.body, servers: emitted.servers })).toBe(JSON.stringify(emitted));
    await check('valid', 'GET', '/healthz', '/healthz', { auth: false });
    await check('valid', 'GET', '/readyz', '/readyz', { auth: false });
  });
});

describe('every documented route, valid and invalid', () => {
  it('application auth', async () => {
    await check('valid', 'POST', '/oauth/token', '/oauth/token', { auth: false, body: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret } });
    await check('invalid', 'POST', '/oauth/token', '/oauth/token', { auth: false, body: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: 'nope' } });
    await check('invalid', 'POST', '/oauth/token', '/oauth/token', { auth: false, body: { grant_type: 'authorization_code' } });
    const tooLarge = await check('invalid', 'POST', '/oauth/token', '/oauth/token', { auth: false, body: { grant_type: 'client_credentials', pad: 'x'.repeat(1024 * 1024) } });
    expect(tooLarge.status).toBe(413);
  });

  it('application auth: the credential checks\' rate limit is a documented 429 with Retry-After', async () => {
    const limited = await startHarness({ credentialRateLimit: { max: 1, windowMs: 60_000 } });
    try {
      const body = { grant_type: 'client_credentials', client_id: limited.a.clientId, client_secret: 'nope' };
      expect((await limited.call('POST', '/oauth/token', { body })).status).toBe(401);
      const res = await limited.call('POST', '/oauth/token', { body });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(conformanceProblems('POST', '/oauth/token', res)).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('a query parameter the operation does not document is refused at its name, on every operation', async () => {
    // Bodies the operations take, so that the query is what is refused (fastify checks the body first).
    const bodies: Record<string, unknown> = {
      'POST /api/v1/connections': { name: 'never', connector: 'crm', client_id: 'c', client_secret: 's' },
      'PATCH /api/v1/connections/{id_or_name}': { scopes: [] },
      'POST /api/v1/connected_accounts/magic_link': { connection_name: 'never', identifier: 'u' },
      'POST /api/v1/webhook_endpoints': { url: 'http://127.0.0.1:9/hook' },
      'POST /api/v1/webhook_endpoints/{id}/rotate_secret': {},
      'POST /api/v1/mcp_sessions': { identifier: 'u' },
      'POST /api/v1/execute_tool': { tool_name: 'calendar_list_calendars', identifier: 'u' },
      'POST /api/v1/proxy': { connection_name: 'never', identifier: 'u', method: 'GET', path: '/x' },
    };
    const toolRoute = /^POST \/api\/v1\/tools\/[a-z0-9_]+\/execute$/;
    let checked = 0;
    for (const { method, path: template } of documentedOperations()) {
      const key = `${method} ${template}`;
      if (!template.startsWith('/api/v1/')) continue;
      if (toolRoute.test(key)) bodies[key] = { identifier: 'u' };
      const params = [...(OPENAPI.paths[template].parameters ?? []), ...(OPENAPI.paths[template][method.toLowerCase()].parameters ?? [])];
      if (params.some((p: { name: string }) => p.name === 'not_a_parameter')) continue;
      const path = `${template.replace(/\{[a-z_]+\}/g, 'x')}?not_a_parameter=1`;
      const res = await check('invalid', method, template, path, key in bodies ? { body: bodies[key] } : method === 'POST' || method === 'PATCH' ? { body: {} } : {});
      expect(res.status, key).toBe(400);
      expect(res.body.error.details.violations, key).toEqual([expect.objectContaining({ pointer: '/not_a_parameter', keyword: 'additionalProperties' })]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('links opened too often from one address: a documented 429 page with Retry-After', async () => {
    const limited = await startHarness({ linkOpenRateLimit: { max: 1, windowMs: 60_000 } });
    try {
      expect((await limited.call('GET', '/sso/v1/connect/not-a-link')).status).toBe(400);
      const res = await limited.call('GET', '/sso/v1/connect/not-a-link');
      expect(res.status).toBe(429);
      expect(conformanceProblems('GET', '/sso/v1/connect/{link_token}', res)).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('an id path parameter longer than its schema allows is a documented 400 on every operation that takes one', async () => {
    const long = 'x'.repeat(201);
    let checked = 0;
    for (const [template, item] of Object.entries<Record<string, any>>(OPENAPI.paths)) {
      const ids = (item.parameters ?? []).filter((p: { in: string; schema: { maxLength?: number } }) => p.in === 'path' && p.schema.maxLength === 200);
      if (ids.length === 0) continue;
      const path = ids.reduce((at: string, p: { name: string }) => at.replace(`{${p.name}}`, long), template);
      for (const method of ['get', 'post', 'patch', 'delete']) {
        if (!item[method]) continue;
        const res = await check('invalid', method.toUpperCase(), template, path, method === 'post' || method === 'patch' ? { body: {} } : {});
        expect(res.status, `${method} ${template}`).toBe(400);
        expect(res.body.error.details.violations[0].pointer).toBe(`/${ids[0].name}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('connections', async () => {
    const endpoints = h.sandbox.endpoints('calendar');
    const created = await check('valid', 'POST', '/api/v1/connections', '/api/v1/connections', {
      body: { name: 'cal', connector: 'calendar', client_id: 'oa-client', client_secret: 'oa-secret', overrides: endpoints },
    });
    h.sandbox.control.registerClient({ provider: 'google', clientId: 'oa-client', clientSecret: 'oa-secret', redirectUris: [created.body.redirect_uri] });
    // Location names the new connection: reading it answers the same view.
    expect(created.headers.get('location')).toBe(`/api/v1/connections/${created.body.id}`);
    expect((await h.call('GET', created.headers.get('location')!, { token })).body).toEqual(created.body);
    await check('invalid', 'POST', '/api/v1/connections', '/api/v1/connections', { body: { name: 'x', connector: 'fax' } });
    await check('invalid', 'POST', '/api/v1/connections', '/api/v1/connections', { body: { name: 'cal', connector: 'calendar', client_id: 'a', client_secret: 'b' } });
    await check('valid', 'GET', '/api/v1/connections', '/api/v1/connections');
    await check('invalid', 'GET', '/api/v1/connections', '/api/v1/connections', { auth: false });
    await check('valid', 'GET', '/api/v1/connections/{id_or_name}', `/api/v1/connections/${created.body.id}`);
    await check('invalid', 'GET', '/api/v1/connections/{id_or_name}', '/api/v1/connections/missing');
    await check('valid', 'PATCH', '/api/v1/connections/{id_or_name}', '/api/v1/connections/cal', { body: { scopes: ['https://www.googleapis.com/auth/calendar'] } });
    await check('invalid', 'PATCH', '/api/v1/connections/{id_or_name}', '/api/v1/connections/cal', { body: {} });
    await check('invalid', 'PATCH', '/api/v1/connections/{id_or_name}', '/api/v1/connections/cal', { body: { client_secret: 42 } });
    await h.call('POST', '/api/v1/connections', { token, body: { name: 'doomed', connector: 'crm', client_id: 'c', client_secret: 's' } });
    await check('valid', 'DELETE', '/api/v1/connections/{id_or_name}', '/api/v1/connections/doomed');
    await check('invalid', 'DELETE', '/api/v1/connections/{id_or_name}', '/api/v1/connections/doomed');
  });

  it('links, the browser flow and connected accounts', async () => {
    const link = await check('valid', 'POST', '/api/v1/connected_accounts/magic_link', '/api/v1/connected_accounts/magic_link', { body: { connection_name: 'cal', identifier: 'u-1' } });
    await check('invalid', 'POST', '/api/v1/connected_accounts/magic_link', '/api/v1/connected_accounts/magic_link', { body: { connection_name: 'cal' } });
    await check('invalid', 'POST', '/api/v1/connected_accounts/magic_link', '/api/v1/connected_accounts/magic_link', { body: { connection_name: 'nope', identifier: 'u-1' } });

    const linkPath = new URL(link.body.link).pathname;
    const page = await check('valid', 'GET', '/sso/v1/connect/{link_token}', linkPath, { auth: false });
    await check('invalid', 'GET', '/sso/v1/connect/{link_token}', '/sso/v1/connect/not-a-real-link-token', { auth: false });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await check('invalid', 'POST', '/sso/v1/connect/{link_token}', linkPath, { auth: false, body: 'continue=forged', headers: form });
    const nonce = /name="continue" value="([^"]+)"/.exec(page.body as string)![1]!;
    const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    await check('valid', 'POST', '/sso/v1/connect/{link_token}', linkPath, { auth: false, body: `continue=${nonce}`, headers: { ...form, cookie } });
    // The POST above bound that link to its client; the consent helper is another browser, so it gets a link of its own.
    const fresh = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal', identifier: 'u-1' } });
    expect(fresh.body.connected_account_id).toBe(link.body.connected_account_id);
    const consent = await consentThroughSandbox(fresh.body.link);
    expect(consent.status).toBe(200);
    // The valid callback happened inside the consent helper; count it after checking its page type here.
    exercised.set('GET /sso/v1/oauth/{connection_id}/callback', new Set(['valid']));
    const callback = `/sso/v1/oauth/${link.body.connected_account_id ? (await h.call('GET', '/api/v1/connections/cal', { token })).body.id : 'x'}/callback`;
    await check('invalid', 'GET', '/sso/v1/oauth/{connection_id}/callback', `${callback}?code=abc&state=forged`, { auth: false });

    const id = link.body.connected_account_id as string;
    await check('valid', 'GET', '/api/v1/connected_accounts', '/api/v1/connected_accounts?identifier=u-1');
    await check('invalid', 'GET', '/api/v1/connected_accounts', '/api/v1/connected_accounts?status=SLEEPING');
    await check('valid', 'GET', '/api/v1/connected_accounts', '/api/v1/connected_accounts?limit=1');
    await check('invalid', 'GET', '/api/v1/connected_accounts', '/api/v1/connected_accounts?limit=500');
    await check('invalid', 'GET', '/api/v1/connected_accounts', '/api/v1/connected_accounts?cursor=forged');
    const account = await check('valid', 'GET', '/api/v1/connected_accounts/{id}', `/api/v1/connected_accounts/${id}`);
    expect(account.body.status).toBe('ACTIVE');
    await check('invalid', 'GET', '/api/v1/connected_accounts/{id}', '/api/v1/connected_accounts/acct_missing');
  });

  it('tools, execution and the proxy', async () => {
    const list = await check('valid', 'GET', '/api/v1/tools', '/api/v1/tools?connector=calendar');
    expect(list.body.tools.length).toBeGreaterThan(0);
    expect(list.body.tools.every((t: { connector: string }) => t.connector === 'calendar')).toBe(true);
    await check('invalid', 'GET', '/api/v1/tools', '/api/v1/tools?format=xml');
    // Every format's entries validate against the documented oneOf (catalog, OpenAI, Anthropic), each matching one branch.
    const openai = await check('valid', 'GET', '/api/v1/tools', '/api/v1/tools?connector=sheets&format=openai');
    expect(openai.body.tools[0]).toMatchObject({ type: 'function', function: { name: expect.any(String) } });
    const anthropic = await check('valid', 'GET', '/api/v1/tools', '/api/v1/tools?connector=docs&format=anthropic');
    expect(Object.keys(anthropic.body.tools[0]).sort()).toEqual(['description', 'input_schema', 'name']);
    await check('valid', 'GET', '/api/v1/tools', '/api/v1/tools?connector=crm&format=catalog');
    const forged = (body: unknown) => conformanceProblems('GET', '/api/v1/tools/{tool_name}', { status: 200, headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'r' }), body });
    expect(forged({ name: 'half_a_catalog_entry' })).not.toEqual([]);
    expect(forged({ type: 'function', function: { name: 'x', description: 'd', parameters: {} }, name: 'x' })).not.toEqual([]);
    expect((await check('valid', 'GET', '/api/v1/tools/{tool_name}', '/api/v1/tools/calendar_list_calendars?format=openai')).body.type).toBe('function');
    expect((await check('valid', 'GET', '/api/v1/tools/{tool_name}', '/api/v1/tools/calendar_list_calendars?format=anthropic')).body.input_schema).toBeDefined();
    await check('valid', 'GET', '/api/v1/tools/{tool_name}', '/api/v1/tools/calendar_list_calendars');
    await check('invalid', 'GET', '/api/v1/tools/{tool_name}', '/api/v1/tools/nope');

    await check('valid', 'POST', '/api/v1/execute_tool', '/api/v1/execute_tool', { body: { tool_name: 'calendar_list_calendars', identifier: 'u-1', tool_input: { max_results: 5 } } });
    await check('invalid', 'POST', '/api/v1/execute_tool', '/api/v1/execute_tool', { body: { tool_name: 'calendar_list_calendars', identifier: 'u-1', tool_input: { max_results: 'five' } } });
    await check('invalid', 'POST', '/api/v1/execute_tool', '/api/v1/execute_tool', { body: { tool_name: 'calendar_list_calendars' } });
    // A tool input put in the query (as some clients do) is refused by name, not ignored.
    const queried = await check('invalid', 'POST', '/api/v1/execute_tool', '/api/v1/execute_tool?max_results=5', { body: { tool_name: 'calendar_list_calendars', identifier: 'u-1' } });
    expect(queried.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/max_results']);
    // tool_input may be omitted for a tool without required parameters.
    await check('valid', 'POST', '/api/v1/execute_tool', '/api/v1/execute_tool', { body: { tool_name: 'calendar_list_calendars', identifier: 'u-1' } });

    await check('valid', 'POST', '/api/v1/proxy', '/api/v1/proxy', { body: { connection_name: 'cal', identifier: 'u-1', method: 'GET', path: '/calendar/v3/users/me/calendarList' } });
    await check('invalid', 'POST', '/api/v1/proxy', '/api/v1/proxy', { body: { connection_name: 'cal', identifier: 'u-1', method: 'GET', path: '//evil.example/x' } });
    await check('invalid', 'POST', '/api/v1/proxy', '/api/v1/proxy', { body: { connection_name: 'cal', identifier: 'u-1', method: 'TRACE', path: '/x' } });
    await check('invalid', 'POST', '/api/v1/proxy', '/api/v1/proxy?path=/x', { body: { connection_name: 'cal', identifier: 'u-1', method: 'GET', path: '/calendar/v3/users/me/calendarList' } });
    // An upstream that cannot be reached is 502 upstream_error (a POST, so it is not retried): point the connection's
    // API root at a closed port for one request.
    const endpoints = h.sandbox.endpoints('calendar');
    await h.call('PATCH', '/api/v1/connections/cal', { token, body: { overrides: { ...endpoints, apiBaseUrl: 'http://127.0.0.1:9' } } });
    try {
      const unreachable = await check('invalid', 'POST', '/api/v1/proxy', '/api/v1/proxy', { body: { connection_name: 'cal', identifier: 'u-1', method: 'POST', path: '/calendar/v3/calendars', body: {} } });
      expect(unreachable.status).toBe(502);
      expect(unreachable.body.error).toMatchObject({ code: 'upstream_error', details: { status: null } });
    } finally {
      await h.call('PATCH', '/api/v1/connections/cal', { token, body: { overrides: endpoints } });
    }

    // One operation per tool: a valid call for a calendar tool, an invalid request for every tool.
    const toolPaths = Object.keys(OPENAPI.paths).filter((p) => /^\/api\/v1\/tools\/[a-z0-9_]+\/execute$/.test(p));
    expect(toolPaths.length).toBe(generatedTools.length);
    await check('valid', 'POST', '/api/v1/tools/calendar_list_calendars/execute', '/api/v1/tools/calendar_list_calendars/execute', { body: { identifier: 'u-1', tool_input: {} } });
    for (const path of toolPaths) await check('invalid', 'POST', path, path, { body: { tool_input: {} } });

    // The calls above are in the execution history (written in the background: wait for them).
    let history: Awaited<ReturnType<typeof check>> | undefined;
    for (let i = 0; i < 100 && !(history?.body.executions.length > 1); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      history = await check('valid', 'GET', '/api/v1/executions', '/api/v1/executions?identifier=u-1&limit=5');
    }
    expect(history?.body.executions.length).toBeGreaterThan(1);
    await check('valid', 'GET', '/api/v1/executions', '/api/v1/executions?outcome=error&tool=calendar_list_calendars');
    await check('invalid', 'GET', '/api/v1/executions', '/api/v1/executions?limit=500');
    await check('invalid', 'GET', '/api/v1/executions', '/api/v1/executions?since=yesterday');
    const one = await check('valid', 'GET', '/api/v1/executions/{execution_id}', `/api/v1/executions/${history!.body.executions[0].id}`);
    expect(one.body).toEqual(history!.body.executions[0]);
    await check('invalid', 'GET', '/api/v1/executions/{execution_id}', '/api/v1/executions/0196a1b2-0000-7000-8000-000000000000');
    await check('invalid', 'GET', '/api/v1/executions/{execution_id}', '/api/v1/executions/not-an-execution');
    await check('invalid', 'GET', '/api/v1/executions/{execution_id}', `/api/v1/executions/${'e'.repeat(201)}`);
  });

  it('webhook endpoints and deliveries', async () => {
    const receiver = 'http://127.0.0.1:9/hook';
    const created = await check('valid', 'POST', '/api/v1/webhook_endpoints', '/api/v1/webhook_endpoints', { body: { url: receiver, events: ['account.connected'] } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.headers.get('location')).toBe(`/api/v1/webhook_endpoints/${created.body.id}`);
    await check('invalid', 'POST', '/api/v1/webhook_endpoints', '/api/v1/webhook_endpoints', { body: { url: receiver, events: ['account.sneezed'] } });
    await check('invalid', 'POST', '/api/v1/webhook_endpoints', '/api/v1/webhook_endpoints', { body: { url: 'http://169.254.169.254/latest' } });
    const list = await check('valid', 'GET', '/api/v1/webhook_endpoints', '/api/v1/webhook_endpoints');
    expect(list.body.webhook_endpoints.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    await check('invalid', 'GET', '/api/v1/webhook_endpoints', '/api/v1/webhook_endpoints', { auth: false });
    await check('valid', 'GET', '/api/v1/webhook_endpoints/{id}', `/api/v1/webhook_endpoints/${created.body.id}`);
    await check('invalid', 'GET', '/api/v1/webhook_endpoints/{id}', '/api/v1/webhook_endpoints/whep_missing');
    const rotated = await check('valid', 'POST', '/api/v1/webhook_endpoints/{id}/rotate_secret', `/api/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { body: { overlap_seconds: 60 } });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    await check('valid', 'POST', '/api/v1/webhook_endpoints/{id}/rotate_secret', `/api/v1/webhook_endpoints/${created.body.id}/rotate_secret`);
    await check('invalid', 'POST', '/api/v1/webhook_endpoints/{id}/rotate_secret', `/api/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { body: { overlap_seconds: -1 } });

    const page = await check('valid', 'GET', '/api/v1/webhook_deliveries', `/api/v1/webhook_deliveries?endpoint_id=${created.body.id}&limit=5`);
    expect(page.body).toEqual({ webhook_deliveries: [], next_cursor: null });
    await check('invalid', 'GET', '/api/v1/webhook_deliveries', '/api/v1/webhook_deliveries?status=lost');
    await check('invalid', 'GET', '/api/v1/webhook_deliveries/{id}', '/api/v1/webhook_deliveries/whdl_missing');

    await check('valid', 'DELETE', '/api/v1/webhook_endpoints/{id}', `/api/v1/webhook_endpoints/${created.body.id}`);
    await check('invalid', 'DELETE', '/api/v1/webhook_endpoints/{id}', `/api/v1/webhook_endpoints/${created.body.id}`);
  });

  it('a delivery of an account event, in the log with its payload and attempts', async () => {
    await h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: 'http://127.0.0.1:9/hook' } });
    const [account] = (await h.call('GET', '/api/v1/connected_accounts?identifier=u-1', { token })).body.connected_accounts;
    await h.call('DELETE', `/api/v1/connected_accounts/${account.id}`, { token });
    const page = await check('valid', 'GET', '/api/v1/webhook_deliveries', '/api/v1/webhook_deliveries');
    const [delivery] = page.body.webhook_deliveries;
    expect(delivery).toMatchObject({ event_type: 'account.disconnected' });
    const detail = await check('valid', 'GET', '/api/v1/webhook_deliveries/{id}', `/api/v1/webhook_deliveries/${delivery.id}`);
    expect(detail.body.payload).toMatchObject({ type: 'account.disconnected', data: { account_id: account.id, status: 'DISCONNECTED' } });
    // Sent again once its first attempt (refused: nothing listens on port 9) is over, so that none is under way.
    await vi.waitFor(async () => expect((await h.call('GET', `/api/v1/webhook_deliveries/${delivery.id}`, { token })).body.attempts).toBeGreaterThan(0), { timeout: 5000 });
    const again = await check('valid', 'POST', '/api/v1/webhook_deliveries/{id}/retry', `/api/v1/webhook_deliveries/${delivery.id}/retry`);
    expect(again.body).toMatchObject({ id: delivery.id, status: 'pending' });
    await check('invalid', 'POST', '/api/v1/webhook_deliveries/{id}/retry', '/api/v1/webhook_deliveries/whdl_missing/retry');
  });

  it('MCP sessions: minted, listed and revoked', async () => {
    const created = await check('valid', 'POST', '/api/v1/mcp_sessions', '/api/v1/mcp_sessions', { body: { identifier: 'u-1', connections: ['cal'], mode: 'search' } });
    await check('invalid', 'POST', '/api/v1/mcp_sessions', '/api/v1/mcp_sessions', { body: { identifier: 'u-1', expires_in: 10 } });
    await check('invalid', 'POST', '/api/v1/mcp_sessions', '/api/v1/mcp_sessions', { body: { identifier: 'u-1', tools: ['no_such_tool'] } });
    await check('valid', 'GET', '/api/v1/mcp_sessions', '/api/v1/mcp_sessions?identifier=u-1');
    await check('invalid', 'GET', '/api/v1/mcp_sessions', '/api/v1/mcp_sessions?owner=u-1');
    await check('valid', 'DELETE', '/api/v1/mcp_sessions/{id}', `/api/v1/mcp_sessions/${created.body.id}`);
    await check('invalid', 'DELETE', '/api/v1/mcp_sessions/{id}', '/api/v1/mcp_sessions/mcps_missing');
  });

  it('the account can be disconnected, once', async () => {
    const [account] = (await h.call('GET', '/api/v1/connected_accounts?identifier=u-1', { token })).body.connected_accounts;
    const res = await check('valid', 'DELETE', '/api/v1/connected_accounts/{id}', `/api/v1/connected_accounts/${account.id}`);
    expect(res.body.status).toBe('DISCONNECTED');
    await check('invalid', 'DELETE', '/api/v1/connected_accounts/{id}', '/api/v1/connected_accounts/acct_missing');
  });

  it('left no documented operation without a valid and an invalid request', () => {
    const missing: string[] = [];
    for (const { method, path } of documentedOperations()) {
      if (/^\/api\/v1\/tools\/[a-z0-9_]+\/execute$/.test(path)) {
        if (!exercised.get(`${method} ${path}`)?.has('invalid')) missing.push(`${method} ${path} (invalid)`);
        continue;
      }
      const kinds = exercised.get(`${method} ${path}`);
      // The unauthenticated checks and document have no invalid input to send.
      const needed: ('valid' | 'invalid')[] = path === '/healthz' || path === '/readyz' || path === '/openapi.json' ? ['valid'] : ['valid', 'invalid'];
      for (const kind of needed) if (!kinds?.has(kind)) missing.push(`${method} ${path} (${kind})`);
    }
    expect(missing).toEqual([]);
  });
});
