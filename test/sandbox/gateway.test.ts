import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/start.js';
import type { Sandbox } from '../../sandbox/types.js';
import { clients, clock } from './helpers.js';

const NV = { 'notion-version': '2022-06-28' };

describe('sandbox core: auth, faults, recording', () => {
  let sb: Sandbox;
  const c = clock();
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), now: c.now });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.control.clearFaults();
    sb.control.clearRequests();
  });

  const notion = (token: string, path = '/v1/users/me', init: RequestInit = {}) =>
    fetch(`${sb.url}/notion${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...NV, ...(init.headers ?? {}) } });
  const hubspot = (token: string, path = '/crm/v3/owners', init: RequestInit = {}) =>
    fetch(`${sb.url}/hubspot${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  const calendar = (token: string) => fetch(`${sb.url}/calendar/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${token}` } });

  it('answers 401 in Notion dialect for a missing, unknown or expired token', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    expect((await notion(t.accessToken)).status).toBe(200);
    for (const res of [await fetch(`${sb.url}/notion/v1/users/me`, { headers: NV }), await notion('ntn_nope')]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' });
    }
    sb.control.expireAccessTokens('notion', 'alice@example.com');
    const expired = await notion(t.accessToken);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { request_id: string }).request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 401 in Google dialect with WWW-Authenticate', async () => {
    const t = sb.control.issueTokens('google', 'alice@example.com', { scopes: ['https://www.googleapis.com/auth/calendar'] });
    expect((await calendar(t.accessToken)).status).toBe(200);
    c.advance(3600 * 1000);
    const res = await calendar(t.accessToken);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'authError' }] } });
  });

  // Google's 401 bodies as its APIs send them (seen in client issue reports for Calendar and other Google APIs; the
  // ErrorInfo reasons are Google's published google.rpc.ErrorInfo values): one top-level message for a token it does
  // not accept, another for none, and ACCESS_TOKEN_EXPIRED only when the token has expired.
  it('words Google 401s as Google does: expired, unknown and missing tokens differ', async () => {
    const t = sb.control.issueTokens('google', 'alice@example.com', { scopes: ['https://www.googleapis.com/auth/calendar'] });
    c.advance(3600 * 1000);
    const expired = (await (await calendar(t.accessToken)).json()) as { error: Record<string, any> };
    const unknown = (await (await calendar('ya29.not-a-token')).json()) as { error: Record<string, any> };
    const missingRes = await fetch(`${sb.url}/calendar/calendar/v3/users/me/calendarList`);
    const missing = (await missingRes.json()) as { error: Record<string, any> };
    const invalidMessage = /^Request had invalid authentication credentials\. Expected OAuth 2 access token, login cookie or other valid authentication credential\./;
    expect(expired.error.message).toMatch(invalidMessage);
    expect(unknown.error.message).toMatch(invalidMessage);
    expect(missing.error.message).toMatch(/^Request is missing required authentication credential\./);
    expect(expired.error.errors).toEqual([{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', locationType: 'header', location: 'Authorization' }]);
    expect(missing.error.errors[0]).toMatchObject({ message: 'Login Required.', reason: 'required', location: 'Authorization' });
    const info = (b: { error: Record<string, any> }) => b.error.details.map((d: { reason: string }) => d.reason);
    expect([info(expired), info(unknown), info(missing)]).toEqual([['ACCESS_TOKEN_EXPIRED'], ['ACCESS_TOKEN_TYPE_UNSUPPORTED'], ['CREDENTIALS_MISSING']]);
    expect(missingRes.headers.get('www-authenticate')).toBe('Bearer realm="https://accounts.google.com/"');
  });

  it('refuses a Google token without the scope as Google does, naming the scopes that would do', async () => {
    const t = sb.control.issueTokens('google', 'alice@example.com', { scopes: ['https://www.googleapis.com/auth/spreadsheets'] });
    const res = await calendar(t.accessToken);
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: Record<string, any> };
    expect(body.error).toMatchObject({
      code: 403,
      message: 'Request had insufficient authentication scopes.',
      status: 'PERMISSION_DENIED',
      errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com' }],
    });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="https:\/\/accounts\.google\.com\/", error="insufficient_scope", scope="https:\/\/www\.googleapis\.com\/auth\/calendar[^"]*"$/);
  });

  it('answers HubSpot EXPIRED_AUTHENTICATION after 30 minutes, INVALID_AUTHENTICATION for an unknown token', async () => {
    const t = sb.control.issueTokens('hubspot', 'alice@example.com');
    expect((await hubspot(t.accessToken)).status).toBe(200);
    c.advance(1800 * 1000 + 5000);
    const res = await hubspot(t.accessToken);
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'error', category: 'EXPIRED_AUTHENTICATION' });
    expect(body.message).toMatch(/^The OAuth token used to make this call expired 5 second\(s\) ago\.$/);
    expect(body.context).toHaveProperty('expire time');
    const unknown = await hubspot('CO-nope');
    expect(await unknown.json()).toMatchObject({ category: 'INVALID_AUTHENTICATION' });
  });

  it('a token from another provider is not accepted', async () => {
    const g = sb.control.issueTokens('google', 'alice@example.com');
    expect((await notion(g.accessToken)).status).toBe(401);
  });

  // An address no route of a fake matches is answered as the provider answers it, and recorded as unmodelled, so a
  // test can tell a request the sandbox does not model from a modelled route's not-found (tools-e2e relies on it).
  it('records a request no route matches as unmodelled, and a known route\'s not-found as modelled', async () => {
    const n = sb.control.issueTokens('notion', 'alice@example.com');
    const h = sb.control.issueTokens('hubspot', 'alice@example.com');
    const g = sb.control.issueTokens('google', 'alice@example.com', {
      scopes: ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/spreadsheets', 'https://www.googleapis.com/auth/documents'],
    });
    const google = (service: string, path: string, method = 'GET') => fetch(`${sb.url}/${service}${path}`, { method, headers: { authorization: `Bearer ${g.accessToken}` } });
    const unmodelled = [
      await notion(n.accessToken, '/v1/teleport'),
      await notion(n.accessToken, '/v1/search', { method: 'DELETE' }),
      await hubspot(h.accessToken, '/crm/v3/objects/contacts/1/teleport'),
      await google('calendar', '/calendar/v3/users/me/teleport'),
      await google('sheets', '/v4/spreadsheets/abc/values/A1:prepend', 'POST'),
      await google('docs', '/v1/documents/abc/teleport'),
    ];
    expect(unmodelled.map((r) => r.status)).toEqual([400, 400, 404, 404, 404, 404]);
    const modelled = [
      await notion(n.accessToken, '/v1/pages/00000000-0000-0000-0000-000000000000'),
      await hubspot(h.accessToken, '/crm/v3/objects/contacts/999999'),
      await google('calendar', '/calendar/v3/calendars/primary/events/nope'),
      await google('sheets', '/v4/spreadsheets/nope'),
      await google('docs', '/v1/documents/nope'),
    ];
    expect(modelled.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    const recorded = sb.control.requests().map((r) => [r.service, r.unmodelled ?? false]);
    expect(recorded).toEqual([
      ['workspace', true], ['workspace', true], ['crm', true], ['calendar', true], ['sheets', true], ['docs', true],
      ['workspace', false], ['crm', false], ['calendar', false], ['sheets', false], ['docs', false],
    ]);
  });

  it('answers invalid JSON with the provider 400', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    const res = await notion(t.accessToken, '/v1/search', { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_json' });
  });

  it('failNext fails exactly N requests with the provider body, then recovers', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    sb.control.setFault('workspace', { failNext: { count: 2, status: 503, retryAfterSeconds: 2 } });
    const r1 = await notion(t.accessToken);
    expect(r1.status).toBe(503);
    expect(r1.headers.get('retry-after')).toBe('2');
    expect(await r1.json()).toMatchObject({ object: 'error', code: 'service_unavailable' });
    expect((await notion(t.accessToken)).status).toBe(503);
    expect((await notion(t.accessToken)).status).toBe(200);
  });

  it('failNext 429 on Notion is rate_limited with an integer Retry-After', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    sb.control.setFault('workspace', { failNext: { count: 1, status: 429, retryAfterSeconds: 3 } });
    const res = await notion(t.accessToken);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('adds latency', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    sb.control.setFault('workspace', { latencyMs: 150 });
    const start = performance.now();
    await notion(t.accessToken);
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
  });

  it('Notion rate limit: 429 rate_limited with integer Retry-After, window by the sandbox clock', async () => {
    const t = sb.control.issueTokens('notion', 'rl@example.com');
    sb.control.setFault('workspace', { rateLimit: { max: 2, windowMs: 2500 } });
    expect((await notion(t.accessToken)).status).toBe(200);
    expect((await notion(t.accessToken)).status).toBe(200);
    const denied = await notion(t.accessToken);
    expect(denied.status).toBe(429);
    expect(denied.headers.get('retry-after')).toBe('3');
    c.advance(2501);
    expect((await notion(t.accessToken)).status).toBe(200);
  });

  it('Google rate limit: 429 RESOURCE_EXHAUSTED, or 403 userRateLimitExceeded with googleStyle403', async () => {
    const t = sb.control.issueTokens('google', 'rl@example.com');
    sb.control.setFault('calendar', { rateLimit: { max: 1, windowMs: 60_000 } });
    await calendar(t.accessToken);
    const r429 = await calendar(t.accessToken);
    expect(r429.status).toBe(429);
    expect(await r429.json()).toMatchObject({ error: { status: 'RESOURCE_EXHAUSTED', errors: [{ reason: 'rateLimitExceeded' }] } });
    sb.control.clearFaults();
    sb.control.setFault('calendar', { rateLimit: { max: 1, windowMs: 60_000, googleStyle403: true } });
    await calendar(t.accessToken);
    const r403 = await calendar(t.accessToken);
    expect(r403.status).toBe(403);
    expect(await r403.json()).toMatchObject({ error: { code: 403, errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } });
  });

  it('HubSpot: rate-limit headers on every response, 429 with policyName in a 10-second rolling window', async () => {
    const t = sb.control.issueTokens('hubspot', 'rl@example.com');
    const first = await hubspot(t.accessToken);
    expect(first.headers.get('x-hubspot-ratelimit-max')).toBe('110');
    expect(first.headers.get('x-hubspot-ratelimit-remaining')).toBe('109');
    expect(first.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    sb.control.setFault('crm', { rateLimit: { max: 2, windowMs: 10_000 } });
    const t2 = sb.control.issueTokens('hubspot', 'rl2@example.com');
    await hubspot(t2.accessToken);
    const second = await hubspot(t2.accessToken);
    expect(second.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    const denied = await hubspot(t2.accessToken);
    expect(denied.status).toBe(429);
    expect(await denied.json()).toMatchObject({ status: 'error', category: 'RATE_LIMITS', policyName: 'TEN_SECONDLY_ROLLING', message: 'You have reached your ten_secondly_rolling limit.' });
    c.advance(10_001);
    expect((await hubspot(t2.accessToken)).status).toBe(200);
  });

  it('records every request with lower-cased headers and the credential redacted', async () => {
    const t = sb.control.issueTokens('notion', 'alice@example.com');
    await notion(t.accessToken, '/v1/search?x=1', { method: 'POST', body: JSON.stringify({ query: 'Tasks' }), headers: { 'Content-Type': 'application/json' } });
    const [r] = sb.control.requests('workspace');
    expect(r).toMatchObject({ service: 'workspace', method: 'POST', path: '/v1/search', query: { x: '1' }, body: { query: 'Tasks' }, status: 200 });
    expect(r?.headers['authorization']).toBe('Bearer [redacted]');
    expect(r?.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(sb.control.requests())).not.toContain(t.accessToken);
    expect(sb.control.requests('crm')).toEqual([]);
  });

  it('the control HTTP API sets faults, lists requests and issues tokens', async () => {
    const post = (path: string, body: unknown) => fetch(`${sb.controlUrl}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const tokens = (await (await post('/tokens', { provider: 'notion', user: 'ctl@example.com' })).json()) as { accessToken: string };
    expect((await post('/faults', { service: 'workspace', fault: { failNext: { count: 1, status: 500 } } })).status).toBe(204);
    expect((await notion(tokens.accessToken)).status).toBe(500);
    const listed = (await (await fetch(`${sb.controlUrl}/_sandbox/requests?service=workspace`)).json()) as { requests: unknown[] };
    expect(listed.requests).toHaveLength(1);
    expect((await post('/expire', { provider: 'notion', user: 'ctl@example.com' })).status).toBe(204);
    expect((await notion(tokens.accessToken)).status).toBe(401);
    const info = (await (await fetch(`${sb.controlUrl}/_sandbox/`)).json()) as { endpoints: Record<string, { apiBaseUrl: string }> };
    expect(info.endpoints.crm?.apiBaseUrl).toBe(`${sb.url}/hubspot`);
  });

  it('serves the proxy example paths for Notion and HubSpot', async () => {
    const n = sb.control.issueTokens('notion', 'proxy@example.com');
    const me = await fetch(`${sb.endpoints('workspace').apiBaseUrl}/v1/users/me`, { headers: { authorization: `Bearer ${n.accessToken}`, ...NV } });
    expect(await me.json()).toMatchObject({ object: 'user', type: 'bot' });
    const h = sb.control.issueTokens('hubspot', 'proxy@example.com');
    const owners = await fetch(`${sb.endpoints('crm').apiBaseUrl}/crm/v3/owners`, { headers: { authorization: `Bearer ${h.accessToken}` } });
    expect(owners.status).toBe(200);
    expect(((await owners.json()) as { results: unknown[] }).results).toHaveLength(1);
  });
});
