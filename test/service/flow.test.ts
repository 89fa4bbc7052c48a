/**
 * The whole flow, run twice with one scenario: in-process (`connector.environment(id)`) and over HTTP (`createClient`)
 * against the same service. Link -> connect page -> sandbox consent -> callback -> ACTIVE -> tools -> proxy ->
 * refresh -> disconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../runtime/api.js';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, ServiceError, type EnvironmentApi } from '../../runtime/client/index.js';
import { isConnectorError } from '../../runtime/errors.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import { createEnvironment } from '../../runtime/service/environments.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function scenario(api: EnvironmentApi, tag: string): Promise<void> {
  const secret = `secret-${tag}`;
  const created: ConnectionView = await api.createConnection({
    name: `cal-${tag}`,
    connector: 'calendar',
    client_id: `client-${tag}`,
    client_secret: secret,
    overrides: h.sandbox.endpoints('calendar'),
  });
  expect(created).not.toHaveProperty('client_secret');
  expect(created.has_client_secret).toBe(true);
  expect(created.redirect_uri).toBe(`${h.url}/sso/v1/oauth/${created.id}/callback`);
  registerWithSandbox(h.sandbox, created, secret);
  expect((await api.listConnections()).map((c) => c.name)).toContain(`cal-${tag}`);

  const identifier = `user-${tag}`;
  const link = await api.authorizationLink({ connection_name: created.name, identifier });
  expect(link.link.startsWith(`${h.url}/sso/v1/connect/`)).toBe(true);
  expect((await api.getAccount(link.connected_account_id)).status).toBe('PENDING_AUTH');

  const consent = await consentThroughSandbox(link.link, { user: `${tag}@example.com` });
  expect(consent.status).toBe(200);
  expect(consent.page).toContain('Connected');

  const [account] = await api.listAccounts({ identifier, connection_name: created.name });
  expect(account?.status).toBe('ACTIVE');
  expect(JSON.stringify(account)).not.toMatch(/access_token|refresh_token/);
  // The same account a page at a time; a cursor no page returned is refused the same way by both transports.
  expect(await api.listAccountsPage({ identifier, connection_name: created.name, limit: 1 })).toEqual({ connected_accounts: [account], next_cursor: null });
  const forged = await api.listAccountsPage({ cursor: 'forged' }).catch((e: unknown) => e);
  expect(isConnectorError(forged) && [forged.code, forged.details]).toEqual(['invalid_request', { violations: [expect.objectContaining({ pointer: '/cursor' })] }]);

  const listed = await api.executeTool({ tool_name: 'calendar_list_calendars', identifier, tool_input: {} });
  expect(typeof listed.execution_id).toBe('string');
  expect(JSON.stringify(listed.data)).toContain('items');

  const proxied = await api.proxy({ connection_name: created.name, identifier, method: 'GET', path: '/calendar/v3/users/me/calendarList' });
  expect(proxied.status).toBe(200);
  expect(JSON.stringify(proxied.body)).toContain('items');

  // An upstream error is still a 200 from the proxy, carrying the upstream status.
  const missing = await api.proxy({ connection_name: created.name, identifier, method: 'GET', path: '/calendar/v3/calendars/does-not-exist/events' });
  expect(missing.status).toBe(404);

  // Refresh: the sandbox expires the access token; the next call refreshes and succeeds.
  h.sandbox.control.expireAccessTokens('google', `${tag}@example.com`);
  const refreshesBefore = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
  await api.executeTool({ tool_name: 'calendar_list_calendars', identifier, tool_input: {} });
  expect(h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(refreshesBefore + 1);

  // Invalid input never reaches upstream and comes back as invalid_input with pointers.
  const bad = await api.executeTool({ tool_name: 'calendar_list_calendars', identifier, tool_input: { max_results: 'many' } }).catch((e: unknown) => e);
  expect(isConnectorError(bad) && bad.code).toBe('invalid_input');

  // The execution history has those calls (records are written in batches, hence the poll), a page at a time.
  await expect.poll(async () => (await api.listExecutions({ identifier, outcome: 'error' })).executions.map((e) => e.error_code)).toContain('invalid_input');
  const page = await api.listExecutions({ identifier, limit: 1 });
  expect(page.executions).toHaveLength(1);
  expect(page.next_cursor).not.toBeNull();
  // One execution by the id the call returned: the view an item of the list has. An id of no record is not_found.
  const called = await api.executeTool({ tool_name: 'calendar_list_calendars', identifier, tool_input: {} });
  await expect.poll(async () => (await api.getExecution(called.execution_id).catch(() => null))?.id).toBe(called.execution_id);
  expect(await api.getExecution(called.execution_id)).toEqual((await api.listExecutions({ identifier, limit: 1 })).executions[0]);
  for (const unknown of ['0196a1b2-0000-7000-8000-000000000000', 'not-an-execution']) {
    const notFound = await api.getExecution(unknown).catch((e: unknown) => e);
    expect(isConnectorError(notFound) && [notFound.code, notFound.message]).toEqual(['not_found', `No execution ${JSON.stringify(unknown)} in this environment.`]);
  }

  const disconnected = await api.disconnectAccount(link.connected_account_id);
  expect(disconnected.status).toBe('DISCONNECTED');
  const after = await api.executeTool({ tool_name: 'calendar_list_calendars', connection_name: created.name, identifier, tool_input: {} }).catch((e: unknown) => e);
  expect(isConnectorError(after) && after.code).toBe('reauthorization_required');

  await api.deleteConnection(created.id);
  const gone = await api.getConnection(created.id).catch((e: unknown) => e);
  expect(isConnectorError(gone) && gone.code).toBe('connection_not_found');
}

describe('the flow through both transports', () => {
  it('works in-process', async () => {
    await scenario(h.connector.environment(h.a.environmentId), 'inproc');
  });

  it('works over HTTP with the typed client', async () => {
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    await scenario(client, 'http');
  });
});

describe('the HTTP client', () => {
  it('fetches one token for concurrent calls and renews it before it expires', async () => {
    const env = await createEnvironment(h.connector.store, { name: 'renew' });
    let now = Date.now();
    let tokenRequests = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith('/oauth/token')) tokenRequests++;
      return fetch(input, init);
    };
    const client = createClient({ envUrl: h.url, clientId: env.clientId, clientSecret: env.clientSecret, now: () => now, fetch: counting });
    await Promise.all([client.listConnections(), client.listConnections(), client.listAccounts()]);
    expect(tokenRequests).toBe(1);
    await client.listConnections();
    expect(tokenRequests).toBe(1);
    now += 3600_000; // past the token's lifetime as the client sees it
    expect(await client.listConnections()).toEqual([]);
    expect(tokenRequests).toBe(2);
  });

  it('listAccounts reads every page of the paged route, in order', async () => {
    const env = await createEnvironment(h.connector.store, { name: 'many-accounts' });
    const scope = h.connector.environment(env.environmentId);
    const conn = await scope.createConnection({ name: 'cal', connector: 'calendar', client_id: 'c', client_secret: 's', overrides: h.sandbox.endpoints('calendar') });
    for (let i = 0; i < 450; i++) await h.connector.store.ensureAccount(env.environmentId, conn.id, `user-${i}`);
    const pages: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input).includes('/api/v1/connected_accounts')) pages.push(new URL(String(input)).searchParams.get('limit') ?? '');
      return fetch(input, init);
    };
    const client = createClient({ envUrl: h.url, clientId: env.clientId, clientSecret: env.clientSecret, fetch: counting });
    expect(await client.listAccounts()).toEqual(await scope.listAccounts());
    expect(pages).toEqual(['200', '200', '200']);
    expect((await client.listAccounts({ identifier: 'user-7' })).map((a) => a.identifier)).toEqual(['user-7']);
  });

  it('throws ServiceError with the code, status and request id', async () => {
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const error = await client.getConnection('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'connection_not_found', status: 404, httpStatus: 404 });
    expect((error as ServiceError).requestId).toMatch(/^req_/);
  });

  it('reports bad application credentials as unauthorized', async () => {
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: 'wrong' });
    const error = await client.listConnections().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unauthorized', httpStatus: 401 });
  });

  it('exposes the generated typed tool client over HTTP', async () => {
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const error = await client.tools.calendar_list_calendars({ max_results: 5 }, { identifier: 'nobody' }).catch((e: unknown) => e);
    // No account for this identifier: the typed method reached the service, which answered in the catalogue's terms.
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('account_not_found');
    // The failed call's record, to look it up by (a connection's 404 above is no call, and names none).
    const executionId = (error as ServiceError).executionId!;
    expect(executionId).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(async () => (await client.getExecution(executionId).catch(() => null))?.error_code).toBe('account_not_found');
    expect(((await client.getConnection('nope').catch((e: unknown) => e)) as ServiceError).executionId).toBeUndefined();
  });

  it('executes a tool through its own route', async () => {
    const token = await h.token(h.a);
    const unknown = await h.call('POST', '/api/v1/tools/no_such_tool/execute', { token, body: { identifier: 'x', tool_input: {} } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_tool');
    // The name came from the path: no body pointer.
    expect(unknown.body.error.details).toBeUndefined();
  });

  it('answers a mistyped tool name with a /tool_name pointer and the tool it probably meant', async () => {
    const token = await h.token(h.a);
    const typo = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_event', identifier: 'x', tool_input: {} } });
    expect(typo.status).toBe(404);
    expect(typo.body.error).toMatchObject({
      code: 'unknown_tool',
      message: 'No tool or alias named "calendar_list_event". Did you mean "calendar_list_events"?',
      details: { violations: [{ pointer: '/tool_name', keyword: 'not_found' }] },
    });
    const read = await h.call('GET', '/api/v1/tools/crm_contact_gett', { token });
    expect(read.status).toBe(404);
    expect(read.body.error.message).toContain('Did you mean "crm_contact_get"?');
  });

  it('points an authorization link for an unknown connection at /connection_name, as tool calls do', async () => {
    const token = await h.token(h.a);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'calendr', identifier: 'x' } });
    expect(link.status).toBe(404);
    expect(link.body.error).toMatchObject({
      code: 'connection_not_found',
      message: expect.stringMatching(/^No connection "calendr" in this environment\. (Did you mean "[^"]+"\?|Its connections: .+\.|This environment has no connections yet\.)$/),
      details: { violations: [{ pointer: '/connection_name', keyword: 'not_found' }] },
    });
    // A name from the URL path has no body pointer.
    const read = await h.call('GET', '/api/v1/connections/calendr', { token });
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('connection_not_found');
    expect(read.body.error.details).toBeUndefined();
  });
});

describe('a sandbox connection given a new client', () => {
  it('is registered with the composed sandbox when the update gives its secret, over the API as from the dashboard', async () => {
    const token = await h.token(h.a);
    const connection = await h.sandboxConnection(h.a, 'calendar', 'cal-reclient');
    const authorize = async (identifier: string) => {
      const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection.name, identifier } });
      expect(link.status).toBe(200);
      const consent = await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` });
      return { consent, account: (await h.call('GET', `/api/v1/connected_accounts/${link.body.connected_account_id}`, { token })).body };
    };
    expect((await authorize('before')).account.status).toBe('ACTIVE');

    // A new client: its id with its secret. The sandbox's authorize endpoint knows only registered clients, and its
    // token endpoint checks the secret: unregistered, the consent would stop at invalid_client.
    const renamed = await h.call('PATCH', `/api/v1/connections/${connection.id}`, { token, body: { client_id: 'cal-reclient-second', client_secret: 'second-secret-value' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.client_id).toBe('cal-reclient-second');
    const second = await authorize('after-new-client');
    expect(second.consent.status).toBe(200);
    expect(second.account.status).toBe('ACTIVE');
    const tokenRequests = h.sandbox.control.requests('oauth:google').filter((r) => r.path.endsWith('/token'));
    expect(tokenRequests.at(-1)?.status).toBe(200);

    // A new secret for the same client id: the token endpoint must take the new one.
    const rotated = await h.call('PATCH', `/api/v1/connections/${connection.id}`, { token, body: { client_secret: 'third-secret-value' } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const third = await authorize('after-new-secret');
    expect(third.consent.status).toBe(200);
    expect(third.account.status).toBe('ACTIVE');
  });
});

describe('a sandbox connection created over the API', () => {
  it('has its client registered with the composed sandbox, as at start and from the dashboard, so its first consent succeeds', async () => {
    const token = await h.token(h.a);
    // Created as an application would: POST with the sandbox's endpoints as overrides, nothing registered by hand.
    const created = await h.call('POST', '/api/v1/connections', {
      token,
      body: { name: 'crm-by-api', connector: 'crm', client_id: 'crm-by-api-client', client_secret: 'crm-by-api-secret', overrides: h.sandbox.endpoints('crm') },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm-by-api', identifier: 'first' } });
    expect(link.status).toBe(200);
    const consent = await consentThroughSandbox(link.body.link, { user: 'first@example.com' });
    expect(consent.status).toBe(200);
    expect((await h.call('GET', `/api/v1/connected_accounts/${link.body.connected_account_id}`, { token })).body.status).toBe('ACTIVE');
  });
});
