/**
 * Every account event, emitted by the real flow (the service, the sandbox providers, the consent page) and delivered
 * to a local receiver, verified with the `standardwebhooks` package: consent -> connected; consent again ->
 * reauthorized; a refresh refused with invalid_grant -> expired; disconnect -> disconnected; denied consent ->
 * authorization_failed (and the account's status reason); a call refused for a missing scope -> scope_insufficient;
 * deleting a connection -> its accounts revoked at the provider and disconnected.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, type EnvironmentApi } from '../../runtime/client/index.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import type { Receiver } from '../runtime/webhooks/receiver.js';
import { webhookReceiverHarness, type Harness } from './harness.js';
import { accountEventProblems } from './openapi-conformance.js';

let h: Harness;
let token: string;
let receiver: Receiver;
let secret: string;

/** Runs the service's dispatcher now and returns the events delivered since `from`, verified and parsed. */
async function deliveredSince(from: number): Promise<{ type: string; data: Record<string, any> }[]> {
  await h.app.webhookDispatcher!.runOnce();
  const events = receiver.received.slice(from).map((r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, any> });
  // Each payload is what the document's webhooks section says, field for field.
  for (const event of events) expect(accountEventProblems(event), event.type).toEqual([]);
  return events;
}

/** Delivers what is pending, so that what follows starts from a known point of the receiver's log. */
async function mark(): Promise<number> {
  await h.app.webhookDispatcher!.runOnce();
  return receiver.received.length;
}

async function link(connection: string, identifier: string): Promise<string> {
  const res = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection, identifier } });
  expect(res.status).toBe(200);
  return res.body.link;
}

beforeAll(async () => {
  ({ h, token, receiver, secret } = await webhookReceiverHarness());
});

afterAll(async () => {
  await receiver?.stop();
  await h?.close();
});

describe('account events from the real flow', () => {
  let accountId: string;

  it('consent -> account.connected', async () => {
    const from = await mark();
    expect((await consentThroughSandbox(await link('cal', 'u-1'))).status).toBe(200);
    const events = await deliveredSince(from);
    expect(events.map((e) => e.type)).toEqual(['account.connected']);
    accountId = events[0]!.data.account_id;
    expect(events[0]!.data).toMatchObject({ identifier: 'u-1', connection_name: 'cal', connector: 'calendar', status: 'ACTIVE', status_reason: null });
    expect(events[0]!.data.scopes.length).toBeGreaterThan(0);
  });

  it('a second consent -> account.reauthorized', async () => {
    const from = await mark();
    expect((await consentThroughSandbox(await link('cal', 'u-1'))).status).toBe(200);
    const events = await deliveredSince(from);
    expect(events.map((e) => [e.type, e.data.account_id])).toEqual([['account.reauthorized', accountId]]);
  });

  it('a refresh refused with invalid_grant -> account.expired with the reason', async () => {
    h.sandbox.control.revokeRefreshTokens('google', 'alice@example.com');
    h.sandbox.control.expireAccessTokens('google', 'alice@example.com');
    const from = await mark();
    const call = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'u-1', tool_input: {} } });
    expect(call.body.error.code).toBe('reauthorization_required');
    const events = await deliveredSince(from);
    expect(events.map((e) => e.type)).toEqual(['account.expired']);
    expect(events[0]!.data).toMatchObject({ account_id: accountId, status: 'EXPIRED', status_reason: 'invalid_grant', error: 'invalid_grant' });
  });

  it('disconnect -> account.disconnected', async () => {
    const from = await mark();
    expect((await h.call('DELETE', `/api/v1/connected_accounts/${accountId}`, { token })).body.status).toBe('DISCONNECTED');
    const events = await deliveredSince(from);
    expect(events.map((e) => [e.type, e.data.account_id, e.data.status])).toEqual([['account.disconnected', accountId, 'DISCONNECTED']]);
    // Disconnecting again changes nothing and reports nothing.
    await h.call('DELETE', `/api/v1/connected_accounts/${accountId}`, { token });
    expect(await deliveredSince(from + 1)).toEqual([]);
  });

  it('consent denied on the consent page -> account.authorization_failed, and the account says why', async () => {
    const from = await mark();
    const denied = await consentThroughSandbox(await link('cal', 'u-2'), { decision: 'deny' });
    expect(denied.status).toBe(400);
    const events = await deliveredSince(from);
    expect(events.map((e) => e.type)).toEqual(['account.authorization_failed']);
    expect(events[0]!.data).toMatchObject({ identifier: 'u-2', status: 'PENDING_AUTH', status_reason: 'access_denied', reason: 'access_denied', error: 'access_denied' });
    const account = await h.call('GET', `/api/v1/connected_accounts/${events[0]!.data.account_id}`, { token });
    expect(account.body).toMatchObject({ status: 'PENDING_AUTH', status_reason: 'access_denied' });
    // A later consent clears the reason.
    expect((await consentThroughSandbox(await link('cal', 'u-2'), { user: 'bob@example.com' })).status).toBe(200);
    expect((await h.call('GET', `/api/v1/connected_accounts/${events[0]!.data.account_id}`, { token })).body).toMatchObject({ status: 'ACTIVE', status_reason: null });
    expect((await deliveredSince(from + 1)).map((e) => e.type)).toEqual(['account.connected']);
  });

  it('a code exchange the provider refuses -> account.authorization_failed (code_exchange_failed)', async () => {
    // The provider's client secret was rotated there and not here: the stored one no longer matches, and the exchange
    // gets invalid_client. (A PATCH with a new secret would re-register it with the composed sandbox.)
    const view = await h.sandboxConnection(h.a, 'calendar', 'cal-stale');
    registerWithSandbox(h.sandbox, view, 'rotated-at-the-provider');
    const from = await mark();
    const failed = await consentThroughSandbox(await link('cal-stale', 'u-4'), { user: 'frank@example.com' });
    expect(failed.status).toBe(400);
    const events = await deliveredSince(from);
    expect(events.map((e) => e.type)).toEqual(['account.authorization_failed']);
    expect(events[0]!.data).toMatchObject({ identifier: 'u-4', status: 'PENDING_AUTH', status_reason: 'code_exchange_failed', reason: 'code_exchange_failed', error: 'invalid_client' });
  });

  it('a call refused for a missing scope -> account.scope_insufficient, once per authorization', async () => {
    const secretValue = 'readonly-secret';
    const res = await h.call('POST', '/api/v1/connections', {
      token,
      body: { name: 'cal-ro', connector: 'calendar', client_id: 'ro-client', client_secret: secretValue, scopes: ['https://www.googleapis.com/auth/calendar.readonly'], overrides: h.sandbox.endpoints('calendar') },
    });
    registerWithSandbox(h.sandbox, res.body, secretValue);
    expect((await consentThroughSandbox(await link('cal-ro', 'u-3'), { user: 'carol@example.com' })).status).toBe(200);
    const from = await mark();
    const create = { tool_name: 'calendar_create_event', connection_name: 'cal-ro', identifier: 'u-3', tool_input: { summary: 'Standup', start_datetime: '2026-12-01T09:00:00Z' } };
    const refused = await h.call('POST', '/api/v1/execute_tool', { token, body: create });
    expect(refused.body.error.code).toBe('insufficient_scope');
    await h.call('POST', '/api/v1/execute_tool', { token, body: create });
    const events = await deliveredSince(from);
    expect(events.map((e) => e.type)).toEqual(['account.scope_insufficient']);
    // Google's challenge names scopes any one of which would do: required_scopes_all is false (HubSpot's "All of ..." makes it true).
    expect(events[0]!.data).toMatchObject({ identifier: 'u-3', connection_name: 'cal-ro', status: 'ACTIVE', tool: 'calendar_create_event', required_scopes_all: false });
    expect(events[0]!.data.required_scopes.length).toBeGreaterThan(0);
  });

  it('deleting a connection revokes its accounts at the provider, disconnects them, and says how many', async () => {
    await h.sandboxConnection(h.a, 'calendar', 'cal-doomed');
    expect((await consentThroughSandbox(await link('cal-doomed', 'd-1'), { user: 'dan@example.com' })).status).toBe(200);
    expect((await consentThroughSandbox(await link('cal-doomed', 'd-2'), { user: 'erin@example.com' })).status).toBe(200);
    await link('cal-doomed', 'd-3'); // never connected: nothing to revoke
    const from = await mark();
    h.sandbox.control.clearRequests();
    const deleted = await h.call('DELETE', '/api/v1/connections/cal-doomed', { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ name: 'cal-doomed', deleted: true, disconnected_accounts: 2 });
    const revocations = h.sandbox.control.requests().filter((r) => r.path.endsWith('/revoke'));
    expect(revocations).toHaveLength(2);
    const events = await deliveredSince(from);
    expect(events.map((e) => [e.type, e.data.identifier, e.data.status_reason]).sort()).toEqual([
      ['account.disconnected', 'd-1', 'connection_deleted'],
      ['account.disconnected', 'd-2', 'connection_deleted'],
    ]);
  });
});

/** Endpoint management through either transport: the same answers in-process and over HTTP (the typed client). */
async function endpointScenario(api: EnvironmentApi): Promise<void> {
  const created = await api.createWebhookEndpoint({ url: receiver.url, events: ['account.expired'] });
  expect(created).toMatchObject({ url: receiver.url, events: ['account.expired'], previous_secret_expires_at: null });
  expect(created.secret).toMatch(/^whsec_/);
  const listed = await api.listWebhookEndpoints();
  expect(listed).toEqual([{ id: created.id, url: receiver.url, events: ['account.expired'], previous_secret_expires_at: null, created_at: created.created_at, updated_at: created.updated_at }]);
  expect(await api.getWebhookEndpoint(created.id)).toEqual(listed[0]);
  const rotated = await api.rotateWebhookSecret(created.id, { overlap_seconds: 0 });
  expect(rotated.secret).not.toBe(created.secret);
  expect(rotated.previous_secret_expires_at).toBeNull();
  await expect(api.createWebhookEndpoint({ url: 'ftp://example.com/x' })).rejects.toMatchObject({ code: 'invalid_request' });
  expect(await api.listWebhookDeliveries()).toEqual({ webhook_deliveries: [], next_cursor: null });
  await api.deleteWebhookEndpoint(created.id);
  await expect(api.getWebhookEndpoint(created.id)).rejects.toMatchObject({ code: 'not_found' });
  await expect(api.getWebhookDelivery('whdl_nope')).rejects.toMatchObject({ code: 'not_found' });
}

describe('webhook endpoints through both transports', () => {
  it('in-process', async () => endpointScenario(h.connector.environment(h.b.environmentId)));
  it('over HTTP with the typed client', async () => endpointScenario(createClient({ envUrl: h.url, clientId: h.b.clientId, clientSecret: h.b.clientSecret })));
});
