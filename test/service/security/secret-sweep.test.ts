/**
 * The secret sweep: the whole service driven as an operator (the dashboard) and an application (the API, MCP) drive
 * it, with distinctive secrets of every kind, then every sink searched for every secret seen:
 * - every line of the production logger at its most verbose level (`trace`), the connector's lines too;
 * - every span (name, attributes, events, status), through the SDK's in-memory exporter;
 * - every answer of the service, headers and body, and every URL it generated (Location headers, a page's links and
 *   form targets, URLs in JSON);
 * - every webhook delivery it sent;
 * - the store: the SQLite file with its -wal and -shm read byte for byte, or with DATABASE_URL a PostgreSQL schema's
 *   rows as text and its pg_dump; and every row as text on both.
 *
 * The secrets: the application client secrets (and a wrong one a caller sent), the bearer tokens, dashboard session
 * and MCP session tokens the service issued (and a bearer it never issued), connection client secrets (created and
 * changed over the API and from the dashboard, and in refused forms), webhook signing secrets (created, rotated, from
 * the dashboard), authorization link tokens, the flow's browser-binding cookies, each flow's state and PKCE verifier
 * (opened from the store while the flow is pending), and every code, access token and refresh token the sandbox
 * providers issued (their state file holds them all, refreshed and revoked ones too).
 *
 * A secret may be in an answer whose purpose is to hand it over, and only there: each such answer says so with
 * `allow(value, reason)` at the step that makes it. A URL may carry only what its shape is for (`urlAllowance`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeySpec, parseKeyring } from '../../../runtime/crypto/keyring.js';
import { SecretBox } from '../../../runtime/crypto/secret-box.js';
import { registerWithSandbox } from '../../../runtime/service/sandbox-connections.js';
import { openStore, SQLITE_FILE_NAME } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { SAVE_DELAY_MS } from '../../../sandbox/persist/state-file.js';
import { newPostgresDatabase, newSqliteDatabase, type TestDatabase } from '../../runtime/store/harness.js';
import { Receiver } from '../../runtime/webhooks/receiver.js';
import { postgresSuite } from '../../server-suites.js';
import { startHarness, type Harness } from '../harness.js';
import { Browser, collectIssuedBySandbox, collectSealed, formValue, leaks, Secrets, setCookies, urlsIn, Wire, type Answer } from './sweep.js';

const spans = new node.InMemorySpanExporter();

beforeAll(() => {
  // As the Node SDK does when OTEL_* asks for traces: a global provider, registered before any connector exists.
  new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(spans)] }).register();
});

afterAll(() => {
  trace.disable();
  context.disable();
});

/** Every line the logger wrote. */
class Lines extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/** A distinctive secret: found anywhere, it can only have come from here. */
const distinct = (label: string) => `sweep-${label}-${randomBytes(12).toString('hex')}`;

/** Everything one run of the lifecycle shares. */
interface Run {
  h: Harness;
  db: TestDatabase;
  box: SecretBox;
  wire: Wire;
  secrets: Secrets;
  receiver: Receiver;
  /** Added to the connector's clock. */
  clock: { offsetMs: number };
  /** Environment A's bearer token. */
  token: string;
}

/** The operator's signed-in browser on the dashboard. */
interface Operator {
  browser: Browser;
  csrf: string;
  /** The connection made from the dashboard. */
  connectionId: string;
}

const api = (run: Run, method: string, path: string, json?: unknown): Promise<Answer> =>
  run.wire.send(method, `/api/v1${path}`, { token: run.token, ...(json === undefined ? {} : { json }) });

/** The link's own token: its last path segment. */
const linkToken = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop()!);

/**
 * What a URL the service generated may carry by its shape: an authorization link its own token (the link is the
 * capability, by design); the provider's authorization URL the flow's `state` (it goes to the provider in the URL,
 * RFC 6749 section 4.1.1). Nothing else.
 */
function urlAllowance(run: Run, url: string): Map<string, string> {
  const allowed = new Map<string, string>();
  const parsed = new URL(url, run.h.url);
  if (parsed.origin === new URL(run.h.url).origin && parsed.pathname.startsWith('/sso/v1/connect/')) {
    allowed.set(linkToken(parsed.toString()), 'an authorization link carries its own token');
  }
  if (parsed.origin === new URL(run.h.sandbox.url).origin && parsed.searchParams.has('state')) {
    allowed.set(parsed.searchParams.get('state')!, 'the state goes to the provider in the authorization URL');
  }
  return allowed;
}

/**
 * Authorizes `user` at the sandbox through `link`, as a browser: the link's Continue page, Continue, the provider's
 * consent, the callback. Collects the link's token, the binding cookies, and the pending flow's state and PKCE
 * verifier (opened from the store before the callback consumes them). Returns the callback's answer.
 */
async function authorize(run: Run, link: string, user: string): Promise<Answer> {
  const browser = new Browser(run.wire);
  const token = run.secrets.add('authorization link token', linkToken(link));
  const page = await browser.get(link);
  expect(page.status, page.text).toBe(200);
  page.allow(token, 'the Continue page posts its form to the link itself');
  const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const continued = await browser.post(new URL(action.replace(/&amp;/g, '&'), link).toString(), { continue: formValue(page.text, 'continue') });
  expect(continued.status, continued.text).toBe(303);
  const authorizeUrl = continued.location!;
  continued.allow(run.secrets.add('OAuth state', new URL(authorizeUrl).searchParams.get('state')), 'it redirects to the provider with the state');
  for (const [name, value] of setCookies(continued)) {
    if (name.startsWith('ac_oauth_link') || name.startsWith('ac_oauth_browser')) continued.allow(run.secrets.add('flow binding cookie', value), 'Set-Cookie hands the browser its binding');
  }
  await collectSealed(run.secrets, run.db, run.box);

  // The provider's side: the sandbox's consent form (not the service: not swept).
  const consentPage = await fetch(authorizeUrl);
  expect(consentPage.status, `${authorizeUrl}: ${await consentPage.text()}`).toBe(200);
  const consented = await fetch(authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: 'allow', user }).toString(),
  });
  expect(consented.status).toBe(302);
  return browser.get(consented.headers.get('location')!);
}

/** A new authorization link over the API; the answer carries it, its purpose. */
async function apiLink(run: Run, body: Record<string, unknown>): Promise<{ link: string; accountId: string }> {
  const res = await api(run, 'POST', '/connected_accounts/magic_link', body);
  expect(res.status, res.text).toBe(200);
  res.allow(run.secrets.add('authorization link token', linkToken(res.json.link)), 'the route makes the link; its token is the capability');
  return { link: res.json.link, accountId: res.json.connected_account_id };
}

async function tool(run: Run, body: Record<string, unknown>): Promise<Answer> {
  return api(run, 'POST', '/execute_tool', body);
}

/** Application credentials: bearer tokens for both environments (JSON and Basic), and a wrong secret refused. */
async function applicationCredentials(run: Run): Promise<void> {
  const { h, wire, secrets } = run;
  secrets.add('application client secret', h.a.clientSecret);
  secrets.add('application client secret', h.b.clientSecret);
  const json = await wire.send('POST', '/oauth/token', { json: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret } });
  expect(json.status, json.text).toBe(200);
  json.allow(secrets.add('bearer access token', json.json.access_token), 'the token endpoint issues it');
  run.token = json.json.access_token;
  const basic = await wire.send('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials' },
    headers: { authorization: `Basic ${Buffer.from(`${h.b.clientId}:${h.b.clientSecret}`).toString('base64')}` },
  });
  expect(basic.status, basic.text).toBe(200);
  basic.allow(secrets.add('bearer access token', basic.json.access_token), 'the token endpoint issues it');
  const wrong = await wire.send('POST', '/oauth/token', { json: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: secrets.add('a wrong client secret a caller sent', distinct('wrong-app-secret')) } });
  expect(wrong.status).toBe(401);
  const forged = await wire.send('GET', '/api/v1/connections', { token: secrets.add('a bearer token the service never issued', distinct('forged-bearer')) });
  expect(forged.status).toBe(401);
}

/** Connections over the API: calendar (with a redirect allowlist), crm, workspace, one refused, one whose provider has another secret. */
async function apiConnections(run: Run): Promise<void> {
  const { h, secrets } = run;
  for (const [name, connector, extra] of [
    ['cal', 'calendar', { allowed_redirect_urls: ['https://app.example.com/connected'] }],
    ['crm', 'crm', {}],
    ['notes', 'workspace', {}],
  ] as const) {
    const made = await api(run, 'POST', '/connections', { name, connector, client_id: `sweep-${name}-client`, client_secret: secrets.add('connection client secret', distinct(`${name}-secret`)), overrides: h.sandbox.endpoints(connector), ...extra });
    expect(made.status, made.text).toBe(201);
  }
  const refused = await api(run, 'POST', '/connections', { name: 'refused', connector: 'no-such-system', client_id: 'x', client_secret: secrets.add('connection client secret', distinct('refused-secret')) });
  expect(refused.status).toBe(400);
  // The provider's client secret was changed there and not here: the code exchange is refused (invalid_client).
  const stale = await api(run, 'POST', '/connections', { name: 'cal-stale', connector: 'calendar', client_id: 'sweep-stale-client', client_secret: secrets.add('connection client secret', distinct('stale-secret')), overrides: h.sandbox.endpoints('calendar') });
  expect(stale.status, stale.text).toBe(201);
  registerWithSandbox(h.sandbox, stale.json, secrets.add('connection client secret', distinct('rotated-at-provider')));
  for (const path of ['/connections', '/connections/cal']) expect((await api(run, 'GET', path)).status).toBe(200);
}

/** The operator's dashboard: sign-in (a wrong secret first), connections (created, refused, changed), a link, a webhook. */
async function dashboard(run: Run): Promise<Operator> {
  const { h, secrets } = run;
  const browser = new Browser(run.wire);
  expect((await browser.get('/dashboard/login')).status).toBe(200);
  const wrong = await browser.post('/dashboard/login', { client_id: h.a.clientId, client_secret: secrets.add('a wrong client secret a caller sent', distinct('wrong-dashboard-secret')) });
  expect(wrong.status).toBe(401);
  const signedIn = await browser.post('/dashboard/login', { client_id: h.a.clientId, client_secret: h.a.clientSecret });
  expect(signedIn.status).toBe(303);
  signedIn.allow(secrets.add('dashboard session token', setCookies(signedIn).get('ac_session')), 'Set-Cookie hands the browser its session');
  const csrf = formValue((await browser.get('/dashboard')).text, '_csrf');

  const endpoints = h.sandbox.endpoints('calendar');
  const created = await browser.post('/dashboard/connections', { _csrf: csrf, name: 'dash-cal', connector: 'calendar', client_id: 'sweep-dash-client', client_secret: secrets.add('connection client secret', distinct('dash-secret')), use_sandbox: 'on' });
  expect(created.status, created.text).toBe(303);
  const connectionId = /\/dashboard\/connections\/([^?]+)/.exec(created.location ?? '')![1]!;
  const refused = await browser.post('/dashboard/connections', { _csrf: csrf, name: 'not a valid name!', connector: 'calendar', client_id: 'x', client_secret: secrets.add('connection client secret', distinct('dash-refused-secret')) });
  expect(refused.status).toBe(400);

  // The edit form sends every field, as the page fills them in (empty scopes or overrides would clear them).
  const scopes = (await api(run, 'GET', `/connections/${connectionId}`)).json.scopes.join(' ');
  const edit = (secret: string, tokenUrl: string) =>
    browser.post(`/dashboard/connections/${connectionId}`, {
      _csrf: csrf, name: 'dash-cal', client_id: 'sweep-dash-client', client_secret: secret, scopes, allowed_redirect_urls: '',
      override_authorizationUrl: endpoints.authorizationUrl, override_tokenUrl: tokenUrl, override_revocationUrl: endpoints.revocationUrl, override_apiBaseUrl: endpoints.apiBaseUrl,
    });
  const badEdit = await edit(secrets.add('connection client secret', distinct('dash-bad-edit-secret')), 'not a url');
  expect(badEdit.status).toBe(400);
  const saved = await edit(secrets.add('connection client secret', distinct('dash-changed-secret')), endpoints.tokenUrl);
  expect(saved.status, saved.text).toBe(303);

  const connectionPage = await browser.get(`/dashboard/connections/${connectionId}`);
  const made = await browser.post(`/dashboard/connections/${connectionId}/link`, { _csrf: csrf, _once: formValue(connectionPage.text, '_once'), identifier: 'dash-user' });
  expect(made.status, made.text).toBe(200);
  const link = /id="auth-link" href="([^"]+)"/.exec(made.text)![1]!.replace(/&#x3D;/g, '=');
  made.allow(secrets.add('authorization link token', linkToken(link)), 'the page shows the link it made');
  expect((await authorize(run, link, 'dash@example.com')).status).toBe(200);

  const explorer = await browser.get('/dashboard/tools?tool=calendar_list_calendars');
  const ran = await browser.post('/dashboard/tools/run', { _csrf: csrf, _once: formValue(explorer.text, '_once'), tool: 'calendar_list_calendars', connection_name: 'dash-cal', identifier: 'dash-user' });
  expect(ran.status, ran.text).toBe(200);
  expect(ran.text).toContain('executions/');

  const webhooksPage = await browser.get('/dashboard/webhooks');
  const endpoint = await browser.post('/dashboard/webhooks', { _csrf: csrf, _once: formValue(webhooksPage.text, '_once'), url: run.receiver.url });
  expect(endpoint.status, endpoint.text).toBe(200);
  endpoint.allow(secrets.add('webhook signing secret', /id="webhook-secret">([^<]+)</.exec(endpoint.text)?.[1]), 'the secret is shown once, on this page');
  return { browser, csrf, connectionId };
}

/** Links and consents over the API: a redirect to the allowlisted URL, crm, workspace, and a refused code exchange. */
async function connectAccounts(run: Run): Promise<void> {
  const toApp = await authorize(run, (await apiLink(run, { connection_name: 'cal', identifier: 'sweep-user', redirect_url: 'https://app.example.com/connected' })).link, 'sweep@example.com');
  expect(toApp.status).toBe(302);
  expect((await authorize(run, (await apiLink(run, { connection_name: 'crm', identifier: 'sweep-crm-user' })).link, 'crm@example.com')).status).toBe(200);
  expect((await authorize(run, (await apiLink(run, { connection_name: 'notes', identifier: 'sweep-notion-user' })).link, 'notion@example.com')).status).toBe(200);
  expect((await authorize(run, (await apiLink(run, { connection_name: 'cal-stale', identifier: 'sweep-stale-user' })).link, 'stale@example.com')).status).toBe(400);
}

/** Tool calls and proxy requests that succeed, and every way one fails. */
async function calls(run: Run): Promise<void> {
  const { h } = run;
  const user = { connection_name: 'cal', identifier: 'sweep-user' };
  expect((await tool(run, { tool_name: 'calendar_list_calendars', ...user, tool_input: {} })).status).toBe(200);
  expect((await tool(run, { tool_name: 'calendar_create_event', ...user, tool_input: { summary: 'Sweep', start_datetime: '2026-12-01T09:00:00Z' } })).status).toBe(200);
  expect((await tool(run, { tool_name: 'crm_contacts_list', identifier: 'sweep-crm-user', tool_input: {} })).status).toBe(200);
  const proxied = await api(run, 'POST', '/proxy', { ...user, method: 'GET', path: '/calendar/v3/users/me/calendarList' });
  expect(proxied.json.status).toBe(200);
  expect((await api(run, 'POST', '/proxy', { ...user, method: 'GET', path: '/calendar/v3/calendars/does-not-exist/events' })).json.status).toBe(404);

  // The provider refuses the token once: a refresh, and the call again.
  const refreshes = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
  h.sandbox.control.setFault('calendar', { failNext: { count: 1, status: 401 } });
  expect((await tool(run, { tool_name: 'calendar_list_calendars', ...user, tool_input: {} })).status).toBe(200);
  expect(h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(refreshes + 1);
  for (const [status, code] of [[403, 'upstream_error'], [500, 'upstream_error'], [429, 'upstream_rate_limited']] as const) {
    h.sandbox.control.setFault('calendar', { failNext: { count: 2, status, retryAfterSeconds: 0 } });
    const failed = await tool(run, { tool_name: 'calendar_list_calendars', ...user, tool_input: {} });
    expect(failed.json.error?.code, failed.text).toBe(code);
    h.sandbox.control.clearFaults('calendar');
  }
  h.sandbox.control.setFault('calendar', { failNext: { count: 2, status: 500 } });
  expect((await api(run, 'POST', '/proxy', { ...user, method: 'GET', path: '/calendar/v3/users/me/calendarList' })).json.status).toBe(500);
  h.sandbox.control.clearFaults('calendar');

  // Notion rotates its refresh token: a refused access token gets a new pair.
  const notionRefreshes = h.sandbox.control.tokenRequestCount('notion', 'refresh_token');
  h.sandbox.control.setFault('workspace', { failNext: { count: 1, status: 401 } });
  expect((await tool(run, { tool_name: 'workspace_search', identifier: 'sweep-notion-user', tool_input: {} })).status).toBe(200);
  expect(h.sandbox.control.tokenRequestCount('notion', 'refresh_token')).toBe(notionRefreshes + 1);
  // HubSpot refuses the refresh token (invalid_grant): the account is EXPIRED, the call says to reauthorize.
  h.sandbox.control.revokeRefreshTokens('hubspot', 'crm@example.com');
  h.sandbox.control.expireAccessTokens('hubspot', 'crm@example.com');
  expect((await tool(run, { tool_name: 'crm_contacts_list', identifier: 'sweep-crm-user', tool_input: {} })).json.error.code).toBe('reauthorization_required');

  const refusals: [Record<string, unknown>, string][] = [
    [{ tool_name: 'calendar_list_calendars', ...user, tool_input: { max_results: 'many' } }, 'invalid_input'],
    [{ tool_name: 'calendar_list_calendars', connection_name: 'no-such-connection', identifier: 'sweep-user', tool_input: {} }, 'connection_not_found'],
    [{ tool_name: 'calendar_list_calendars', connection_name: 'cal', identifier: 'nobody', tool_input: {} }, 'account_not_found'],
    [{ tool_name: 'calendar_list_calendar', ...user, tool_input: {} }, 'unknown_tool'],
  ];
  for (const [body, code] of refusals) expect((await tool(run, body)).json.error.code).toBe(code);
  const authorization = run.secrets.add('an Authorization header a caller tried to proxy', `Bearer ${distinct('proxied-authorization')}`);
  const proxyRefused = await api(run, 'POST', '/proxy', { ...user, method: 'GET', path: '/calendar/v3/users/me/calendarList', headers: { Authorization: authorization } });
  expect(proxyRefused.status).toBe(400);
}

/** An MCP session: minted, a tool called through the SDK's client, revoked, its token refused after. */
async function mcp(run: Run): Promise<void> {
  const minted = await api(run, 'POST', '/mcp_sessions', { identifier: 'sweep-user', connections: ['cal'] });
  expect(minted.status, minted.text).toBe(201);
  const token = run.secrets.add('MCP session token', minted.json.token);
  minted.allow(token, 'minting a session hands its token over, once');
  const client = new Client({ name: 'secret-sweep', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(minted.json.url), { fetch: run.wire.fetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const result = await client.callTool({ name: 'calendar_list_calendars', arguments: {} });
  expect(result.isError).toBeFalsy();
  await client.close();
  expect((await api(run, 'DELETE', `/mcp_sessions/${minted.json.id}`)).status).toBe(200);

  // A user not connected yet: the tool's answer is an authorization link, made for the agent to hand over.
  const newcomer = await api(run, 'POST', '/mcp_sessions', { identifier: 'sweep-newcomer', connections: ['cal'] });
  newcomer.allow(run.secrets.add('MCP session token', newcomer.json.token), 'minting a session hands its token over, once');
  const second = new Client({ name: 'secret-sweep', version: '1' });
  await second.connect(new StreamableHTTPClientTransport(new URL(newcomer.json.url), { fetch: run.wire.fetch, requestInit: { headers: { authorization: `Bearer ${newcomer.json.token}` } } }));
  const notConnected = await second.callTool({ name: 'calendar_list_calendars', arguments: {} });
  const link = JSON.parse((notConnected.content as { text: string }[])[0]!.text).error.authorization_url as string;
  run.wire.allowInLast(run.secrets.add('authorization link token', linkToken(link)), 'the tool answers a user not connected yet with a link to connect');
  await second.close();
  expect((await run.wire.send('POST', '/mcp', { token, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } })).status).toBe(401);
}

/** An hour later on the connector's clock, the access token is near its end: the next call refreshes it first. */
async function refreshByClock(run: Run): Promise<void> {
  const refreshes = run.h.sandbox.control.tokenRequestCount('google', 'refresh_token');
  run.clock.offsetMs += 3600_000;
  expect((await tool(run, { tool_name: 'calendar_list_calendars', connection_name: 'cal', identifier: 'sweep-user', tool_input: {} })).status).toBe(200);
  expect(run.h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(refreshes + 1);
}

/** A webhook endpoint over the API, its secret rotated (the previous one still signs). */
async function webhooks(run: Run): Promise<void> {
  const created = await api(run, 'POST', '/webhook_endpoints', { url: run.receiver.url });
  expect(created.status, created.text).toBe(201);
  created.allow(run.secrets.add('webhook signing secret', created.json.secret), 'creating an endpoint shows its secret, once');
  const rotated = await api(run, 'POST', `/webhook_endpoints/${created.json.id}/rotate_secret`, {});
  expect(rotated.status, rotated.text).toBe(200);
  rotated.allow(run.secrets.add('webhook signing secret', rotated.json.secret), 'rotating shows the new secret, once');
}

/** The connection's secret changed over the API, then a consent that uses it (account.reauthorized). */
async function changeSecretAndReconsent(run: Run): Promise<void> {
  const changed = await api(run, 'PATCH', '/connections/cal', { client_secret: run.secrets.add('connection client secret', distinct('cal-changed-secret')) });
  expect(changed.status, changed.text).toBe(200);
  expect((await authorize(run, (await apiLink(run, { connection_name: 'cal', identifier: 'sweep-user' })).link, 'sweep@example.com')).status).toBe(200);
}

/** Disconnects (HubSpot revokes with the token in the path), a connection deleted, the dashboard's disconnect and sign-out. */
async function revocations(run: Run, operator: Operator): Promise<void> {
  const revokes = () => run.h.sandbox.control.requests().filter((r) => /revoke|refresh-tokens/.test(r.path)).length;
  const before = revokes();
  const crmUser = await api(run, 'GET', '/connected_accounts?identifier=sweep-crm-user');
  expect((await api(run, 'DELETE', `/connected_accounts/${crmUser.json.connected_accounts[0].id}`)).json.status).toBe('DISCONNECTED');
  expect((await api(run, 'DELETE', '/connections/cal')).json).toMatchObject({ deleted: true, disconnected_accounts: 1 });
  const dashUser = await api(run, 'GET', '/connected_accounts?identifier=dash-user');
  const disconnected = await operator.browser.post(`/dashboard/accounts/${dashUser.json.connected_accounts[0].id}/disconnect`, { _csrf: operator.csrf });
  expect(disconnected.status, disconnected.text).toBe(303);
  expect(revokes()).toBe(before + 3);
  const stale = (await api(run, 'GET', '/connections/cal-stale')).json.id;
  expect((await operator.browser.get(`/dashboard/connections/${stale}/delete`)).status).toBe(200);
  expect((await operator.browser.post(`/dashboard/connections/${stale}/delete`, { _csrf: operator.csrf })).status).toBe(303);
}

/** Every read an operator and an application make afterwards: history, deliveries, pages. */
async function readBack(run: Run, operator: Operator): Promise<void> {
  // The receiver refuses the first round (each attempt is recorded, with its answer), then takes the rest.
  run.receiver.status = 500;
  await run.h.app.webhookDispatcher!.runOnce();
  run.receiver.status = 204;
  for (let i = 0; i < 3; i++) await run.h.app.webhookDispatcher!.runOnce();
  expect(run.receiver.received.length).toBeGreaterThan(5);
  const deliveries = await api(run, 'GET', '/webhook_deliveries?limit=100');
  expect((await api(run, 'GET', `/webhook_deliveries/${deliveries.json.webhook_deliveries[0].id}`)).status).toBe(200);
  // The history is written in batches: the last call is there once its batch is.
  const last = await tool(run, { tool_name: 'crm_contacts_list', connection_name: 'crm', identifier: 'nobody', tool_input: {} });
  for (let i = 0; i < 100 && (await api(run, 'GET', `/executions/${last.json.error.execution_id}`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 20));
  const executions = await api(run, 'GET', '/executions?limit=100');
  expect(executions.json.executions.length).toBeGreaterThan(10);
  for (const page of ['/dashboard', `/dashboard/connections/${operator.connectionId}`, '/dashboard/executions', `/dashboard/executions/${executions.json.executions.at(-1).id}`, '/dashboard/webhooks', `/dashboard/webhooks/deliveries/${deliveries.json.webhook_deliveries[0].id}`]) {
    expect((await operator.browser.get(page)).status, page).toBe(200);
  }
  expect((await api(run, 'GET', '/connected_accounts')).status).toBe(200);
  expect((await operator.browser.post('/dashboard/logout', { _csrf: operator.csrf })).status).toBe(303);
}

/** The whole run on one database, then one test per sink. */
function sweepSuite(newDatabase: () => Promise<TestDatabase>): void {
  const secrets = new Secrets();
  const logs = new Lines();
  let stateDir: string | undefined;
  let run: Run;
  let store: Store | undefined;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    spans.reset();
    stateDir = mkdtempSync(join(tmpdir(), 'ac-sweep-sandbox-'));
    const stateFile = join(stateDir, 'sandbox.json');
    db = await newDatabase();
    const keyring = parseKeyring(generateKeySpec());
    store = await openStore({ ...db.options, keyring });
    const clock = { offsetMs: 0 };
    const h = await startHarness({
      store,
      // The production logger (the service's and the connector's), at its most verbose level.
      logStream: logs,
      logLevel: 'trace',
      connectorNow: () => Date.now() + clock.offsetMs,
      sandboxOptions: { stateFile },
      // The background dispatcher polls rarely: the steps run it themselves.
      webhooks: { pollIntervalMs: 60_000 },
    });
    const receiver = await new Receiver().start();
    run = { h, db, box: new SecretBox(keyring), wire: new Wire(h.url), secrets, receiver, clock, token: '' };

    await applicationCredentials(run);
    await apiConnections(run);
    const operator = await dashboard(run);
    await webhooks(run);
    await connectAccounts(run);
    await calls(run);
    await mcp(run);
    await refreshByClock(run);
    await changeSecretAndReconsent(run);
    await revocations(run, operator);
    await readBack(run, operator);

    await collectSealed(secrets, db, run.box);
    // The sandbox saves its state shortly after a change (a control call is one); then it holds everything issued.
    h.sandbox.control.clearRequests();
    await new Promise((resolve) => setTimeout(resolve, SAVE_DELAY_MS + 100));
    collectIssuedBySandbox(secrets, stateFile);
  }, 60_000);

  afterAll(async () => {
    await run?.receiver.stop();
    await run?.h.close();
    await store?.close();
    await db?.destroy();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('collected every kind of secret, and every sink has something in it', async () => {
    expect(Object.keys(secrets.counts()).sort()).toEqual([
      'MCP session token', 'OAuth state', 'PKCE verifier', 'a bearer token the service never issued', 'a wrong client secret a caller sent',
      'an Authorization header a caller tried to proxy', 'application client secret', 'authorization link token', 'bearer access token',
      'connection client secret', 'dashboard session token', 'flow binding cookie', 'provider access token', 'provider authorization code',
      'provider refresh token', 'webhook signing secret',
    ].sort());
    expect(logs.lines.length).toBeGreaterThan(50);
    expect(spans.getFinishedSpans().length).toBeGreaterThan(50);
    expect(run.wire.exchanges.length).toBeGreaterThan(80);
  });

  it('no log line holds a secret', () => {
    expect(logs.lines.flatMap((line, i) => leaks(secrets, `log line ${i}: ${line}`, line))).toEqual([]);
  });

  it('no span holds a secret in its name, attributes, events or status', () => {
    const found = spans.getFinishedSpans().flatMap((s) => {
      const text = JSON.stringify([s.name, s.attributes, s.events.map((e) => [e.name, e.attributes]), s.status, s.links.map((l) => l.attributes), s.resource.attributes]);
      return leaks(secrets, `span ${s.name}`, text);
    });
    expect(found).toEqual([]);
  });

  it('no answer of the service holds a secret, except where handing it over is its purpose', () => {
    const found = run.wire.exchanges.flatMap((e) => leaks(secrets, `the answer to ${e.request} (${e.status})`, `${JSON.stringify(e.headers)}\n${e.body}`, e.allowed));
    expect(found).toEqual([]);
  });

  it('no URL the service generated holds a secret, except a link its own token and a provider URL its state', () => {
    const found = run.wire.exchanges.flatMap((e) => urlsIn(e).flatMap((url) => leaks(secrets, `the URL ${url} (answering ${e.request})`, url, urlAllowance(run, url))));
    expect(found).toEqual([]);
  });

  it('no webhook delivery holds a secret (the signature is an HMAC, not the secret)', () => {
    const found = run.receiver.received.flatMap((d, i) => leaks(secrets, `webhook delivery ${i}`, `${JSON.stringify(d.headers)}\n${d.body}`));
    expect(found).toEqual([]);
  });

  it('no row of any table holds a secret in plaintext', async () => {
    const text = await db!.dumpText();
    expect(text).toMatch(/v1\.k1\./); // the dump is real: sealed values are in it
    expect(leaks(secrets, 'a table row', text)).toEqual([]);
  });

  it('no byte at rest holds a secret: the SQLite file and its -wal and -shm as they are, or pg_dump', async () => {
    const files = db!.kind === 'sqlite' ? ['', '-wal', '-shm'].map((suffix) => join(db!.options.dataDir!, `${SQLITE_FILE_NAME}${suffix}`)).filter(existsSync) : [];
    const bytes = db!.kind === 'sqlite' ? Buffer.concat(files.map((f) => readFileSync(f))) : await db!.dumpBytes();
    if (db!.kind === 'sqlite') expect(files.map((f) => f.slice(-4))).toContain('-wal');
    expect(bytes.toString('latin1')).toContain('sweep-user');
    expect(leaks(secrets, `the ${db!.kind === 'sqlite' ? 'SQLite files' : 'pg_dump output'}`, bytes.toString('latin1'))).toEqual([]);
  });
}

describe('the secret sweep on SQLite', () => sweepSuite(newSqliteDatabase));

postgresSuite('the secret sweep on PostgreSQL', (databaseUrl) => sweepSuite(() => newPostgresDatabase(databaseUrl)));
