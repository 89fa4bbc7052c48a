/**
 * Provider refusals through the HTTP service, against the sandbox answering in each provider's own shape: a 4xx keeps
 * its status (`upstream_error`), a missing scope or capability is `insufficient_scope` (403) naming what is missing,
 * a 5xx stays 502, and the typed HTTP client reports the same code and status as the in-process runtime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, ServiceError } from '../../runtime/client/index.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import type { ConnectionView } from '../../runtime/api.js';
import type { NotionCapability } from '../../sandbox/types.js';
import type { ConnectorName } from '../../runtime/types.js';
import { conformanceProblems } from './openapi-conformance.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

/** A connection with the given scopes (default: the connector's), registered at the sandbox, and one ACTIVE account. */
async function connect(connector: ConnectorName, name: string, user: string, options: { scopes?: string[]; capabilities?: NotionCapability[] } = {}): Promise<ConnectionView> {
  const secret = `secret-${name}`;
  const res = await h.call('POST', '/api/v1/connections', {
    token,
    body: { name, connector, client_id: `client-${name}`, client_secret: secret, overrides: h.sandbox.endpoints(connector), ...(options.scopes ? { scopes: options.scopes } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const connection = res.body as ConnectionView;
  registerWithSandbox(h.sandbox, connection, secret);
  if (options.capabilities) {
    h.sandbox.control.registerClient({ provider: 'notion', clientId: connection.client_id, clientSecret: secret, redirectUris: [connection.redirect_uri], capabilities: options.capabilities });
  }
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: name, identifier: user } });
  expect((await consentThroughSandbox(link.body.link, { user: `${user}@example.com` })).status).toBe(200);
  return connection;
}

/** Runs a tool; every answer, 4xx passed on or not, must be one the OpenAPI document describes for the route. */
async function run(connection_name: string, identifier: string, tool_name: string, tool_input: unknown) {
  const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { connection_name, identifier, tool_name, tool_input } });
  expect(conformanceProblems('POST', '/api/v1/execute_tool', res), `${tool_name} -> ${res.status}`).toEqual([]);
  return res;
}

describe('an upstream 4xx keeps its status', () => {
  it('calendar: a never-existing event and a filtered-out one are both 404; a deleted one is 410', async () => {
    await connect('calendar', 'cal-errors', 'carol');
    const missing = await run('cal-errors', 'carol', 'calendar_get_event_by_id', { event_id: 'doesnotexist123' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'upstream_error', details: { status: 404, body: { error: { code: 404, errors: [{ reason: 'notFound' }] } } } });
    expect(missing.body.error.message).toMatch(/^The upstream API answered 404 to GET \/calendar\/v3\/calendars\/primary\/events\/doesnotexist123: /);

    const created = await run('cal-errors', 'carol', 'calendar_create_event', { summary: 'Budget review', start_datetime: '2030-05-01T10:00:00Z', event_duration_minutes: 30, timezone: 'UTC' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    const filtered = await run('cal-errors', 'carol', 'calendar_get_event_by_id', { event_id: id, query: 'no such words' });
    expect(filtered.status).toBe(404);
    expect(filtered.body.error).toMatchObject({ code: 'not_found', details: { unmatched_filters: ['query'] } });
    expect(filtered.body.error.message).toContain(`Event ${id} exists but does not match the filters: query`);

    expect((await run('cal-errors', 'carol', 'calendar_delete_event', { event_id: id })).status).toBe(200);
    const again = await run('cal-errors', 'carol', 'calendar_delete_event', { event_id: id });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: 'upstream_error', details: { status: 410, body: { error: { errors: [{ reason: 'deleted' }] } } } });
  });

  it('crm: a duplicate e-mail is 409 and a missing record 404; the typed client sees the same status', async () => {
    await connect('crm', 'crm-errors', 'dave');
    const first = await run('crm-errors', 'dave', 'crm_contact_create', { email: 'dup@example.com' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const dup = await run('crm-errors', 'dave', 'crm_contact_create', { email: 'dup@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'upstream_error', details: { status: 409, body: { category: 'CONFLICT' } } });

    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const error = await client.executeTool({ connection_name: 'crm-errors', identifier: 'dave', tool_name: 'crm_contact_get', tool_input: { contact_id: '999999' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'upstream_error', status: 404, httpStatus: 404, details: { status: 404, body: { category: 'OBJECT_NOT_FOUND' } } });
  });

  it('calendar refusals keep Google\'s shape on the proxy, and the tool refuses the same input before sending', async () => {
    const proxy = (method: string, path: string, query: Record<string, string>) =>
      h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'cal-errors', identifier: 'carol', method, path, query } });
    const ordering = await proxy('GET', '/calendar/v3/calendars/primary/events', { orderBy: 'startTime' });
    expect(ordering.status).toBe(200); // the proxy returns the upstream answer as its result
    expect(ordering.body).toMatchObject({ status: 400, body: { error: { code: 400, errors: [{ reason: 'invalid', locationType: 'parameter', location: 'orderBy' }] } } });
    const tool = await run('cal-errors', 'carol', 'calendar_list_events', { order_by: 'startTime' });
    expect(tool.status).toBe(400);
    expect(tool.body.error.details.violations[0].pointer).toBe('/single_events');

    const updates = await proxy('DELETE', '/calendar/v3/calendars/primary/events/whatever', { sendUpdates: 'everyone' });
    expect(updates.body).toMatchObject({
      status: 400,
      body: { error: { errors: [{ reason: 'invalidParameter', location: 'sendUpdates', message: "Invalid string value: 'everyone'. Allowed values: [all, externalonly, none]" }] } },
    });
  });

  it('a 5xx stays 502', async () => {
    h.sandbox.control.setFault('crm', { failNext: { count: 5, status: 500 } });
    try {
      const res = await run('crm-errors', 'dave', 'crm_contact_get', { contact_id: '101' });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: 'upstream_error', details: { status: 500 } });
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});

describe('an upstream rate limit is upstream_rate_limited (429)', () => {
  it('with Retry-After, and the same whole seconds in the body for a reader of the body alone', async () => {
    h.sandbox.control.setFault('crm', { failNext: { count: 5, status: 429 } });
    try {
      const res = await run('crm-errors', 'dave', 'crm_contact_get', { contact_id: '101' });
      expect(res.status).toBe(429);
      // HubSpot's 429 says no Retry-After: the wait is the service's for HubSpot, its ten-second window.
      expect(res.headers.get('retry-after')).toBe('10');
      expect(res.body.error).toMatchObject({ code: 'upstream_rate_limited', retry_after_seconds: 10, execution_id: expect.any(String) });
      expect(conformanceProblems('POST', '/api/v1/execute_tool', res)).toEqual([]);
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});

describe('missing permissions are insufficient_scope (403)', () => {
  it('Google: names the scopes that would allow the call', async () => {
    await connect('calendar', 'cal-readonly', 'erin', { scopes: ['https://www.googleapis.com/auth/calendar.readonly'] });
    expect((await run('cal-readonly', 'erin', 'calendar_list_events', {})).status).toBe(200);
    const res = await run('cal-readonly', 'erin', 'calendar_create_event', { summary: 'x', start_datetime: '2030-05-01T10:00:00Z' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect(res.body.error.details.required_scopes).toContain('https://www.googleapis.com/auth/calendar.events');
    expect(res.body.error.details).toMatchObject({ status: 403, resource: 'POST /calendar/v3/calendars/primary/events', body: { error: { errors: [{ reason: 'insufficientPermissions' }] } } });
    expect(res.body.error.message).toContain('https://www.googleapis.com/auth/calendar.events');
  });

  it('HubSpot: names the granular scope from MISSING_SCOPES', async () => {
    await connect('crm', 'crm-contacts-only', 'frank', { scopes: ['crm.objects.contacts.read'] });
    const res = await run('crm-contacts-only', 'frank', 'crm_deal_create', { dealname: 'Big one', amount: 1000, dealstage: 'qualifiedtobuy' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scopes: ['crm.objects.deals.write'], body: { category: 'MISSING_SCOPES' } } });
  });

  it('Notion: names the resource the integration may not use', async () => {
    await connect('workspace', 'notes-readonly', 'gina', { capabilities: ['read_content'] });
    const res = await run('notes-readonly', 'gina', 'workspace_comment_create', { parent: { page_id: '11111111-1111-4111-8111-111111111111' }, comment: { rich_text: [{ type: 'text', text: { content: 'hi' } }] } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { resource: 'POST /v1/comments', body: { code: 'restricted_resource' } } });
    expect(res.body.error.details).not.toHaveProperty('required_scopes');
  });
});

describe('step-up: an authorization link with extra scopes', () => {
  async function stepUp(connection_name: string, identifier: string, scopes: string[]) {
    const before = await h.call('GET', `/api/v1/connected_accounts?identifier=${identifier}&connection_name=${connection_name}`, { token });
    const [account] = before.body.connected_accounts;
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name, identifier, scopes } });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.connected_account_id).toBe(account.id);
    expect((await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` })).status).toBe(200);
    const after = await h.call('GET', `/api/v1/connected_accounts/${account.id}`, { token });
    return { before: account, after: after.body };
  }

  it('Google: the new grant adds to the old one (include_granted_scopes), the account keeps its id and identifier', async () => {
    const events = 'https://www.googleapis.com/auth/calendar.events';
    const { before, after } = await stepUp('cal-readonly', 'erin', [events]);
    expect(before.scopes).toEqual(['https://www.googleapis.com/auth/calendar.readonly']);
    expect(after).toMatchObject({ id: before.id, identifier: 'erin', status: 'ACTIVE' });
    expect([...after.scopes].sort()).toEqual(['https://www.googleapis.com/auth/calendar.events', 'https://www.googleapis.com/auth/calendar.readonly']);
    const created = await run('cal-readonly', 'erin', 'calendar_create_event', { summary: 'now allowed', start_datetime: '2030-05-01T10:00:00Z' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await run('cal-readonly', 'erin', 'calendar_list_events', {})).status).toBe(200);
    const listed = await h.call('GET', '/api/v1/connected_accounts?identifier=erin', { token });
    expect(listed.body.connected_accounts.filter((a: { connection_name?: string; connection_id: string }) => a.connection_id === before.connection_id)).toHaveLength(1);
  });

  it('HubSpot: the link asks for the old scopes and the new ones, so both work afterwards', async () => {
    const { before, after } = await stepUp('crm-contacts-only', 'frank', ['crm.objects.deals.write']);
    expect(after).toMatchObject({ id: before.id, identifier: 'frank', status: 'ACTIVE' });
    const deal = await run('crm-contacts-only', 'frank', 'crm_deal_create', { dealname: 'After step-up', amount: 10, dealstage: 'qualifiedtobuy' });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect((await run('crm-contacts-only', 'frank', 'crm_contacts_list', {})).status).toBe(200);
  });

  it('is refused for Notion, which has no OAuth scopes, and for malformed scopes, at /scopes', async () => {
    const notion = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'notes-readonly', identifier: 'gina', scopes: ['insert_comments'] } });
    expect(notion.status).toBe(400);
    expect(notion.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/scopes', keyword: 'forbidden' })]);
    const blank = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal-readonly', identifier: 'erin', scopes: ['two words'] } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details.violations[0].pointer).toMatch(/^\/scopes/);
  });

  it('a Notion connection takes no scopes either, created or changed: the integration\'s capabilities decide, and the message says where they are set', async () => {
    const created = await h.call('POST', '/api/v1/connections', { token, body: { name: 'notes-scoped', connector: 'workspace', client_id: 'c', client_secret: 's', scopes: ['read_content'] } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('invalid_input');
    expect(created.body.error.details.violations).toEqual([{ pointer: '/scopes', keyword: 'forbidden', message: expect.stringContaining('Notion has no OAuth scopes') }]);
    expect(created.body.error.details.violations[0].message).toContain('https://www.notion.so/my-integrations (Capabilities)');
    expect((await h.call('GET', '/api/v1/connections/notes-scoped', { token })).status).toBe(404);
    const changed = await h.call('PATCH', '/api/v1/connections/notes-readonly', { token, body: { scopes: ['insert_comments'] } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/scopes', keyword: 'forbidden' })]);
    const kept = await h.call('GET', '/api/v1/connections/notes-readonly', { token });
    expect(kept.body.scopes).toEqual([]);
  });
});
