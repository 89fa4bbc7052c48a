/**
 * Security review, item 1: one account row whose tokens could not be decrypted (a damaged ciphertext, or a key
 * dropped before re-encryption finished) made every account list, the dashboard home and that identifier's new links
 * answer 500, with no way out through the API. Such a row now reads as EXPIRED with an `undecryptable` status reason;
 * the rest of the environment keeps working, and the operator can disconnect it, delete it, or have it re-authorized.
 *
 * The same for a connection whose client secret cannot be decrypted: it used to fail every connection and account
 * list and every call made without connection_name. Only what sends the secret (a token refresh, a code exchange)
 * fails now, with `invalid_request` naming the connection; setting the secret again repairs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import type { ConnectionView } from '../../../runtime/api.js';
import { registerWithSandbox } from '../../../runtime/service/sandbox-connections.js';
import { openStore } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { keyring1 } from '../../runtime/store/fixtures.js';
import { newSqliteDatabase, type TestDatabase } from '../../runtime/store/harness.js';
import { connectSandboxUser, startHarness, type Harness } from '../harness.js';

let h: Harness;
let db: TestDatabase;
let store: Store;
let token: string;
const ids: Record<string, string> = {};

async function connect(identifier: string, connection = 'cal'): Promise<string> {
  return (await connectSandboxUser(h, { connection, identifier, user: `${identifier}@example.com` })).accountId;
}

/** What a damaged row looks like: the sealed format, but a ciphertext that does not authenticate. */
async function damage(identifier: string): Promise<void> {
  const [row] = await db.query('SELECT access_token FROM connected_accounts WHERE identifier = ?', [identifier]);
  const [v, kid, nonce, data] = String(row!.access_token).split('.');
  const flipped = `${data!.slice(0, -4)}${data!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  await db.query('UPDATE connected_accounts SET access_token = ? WHERE identifier = ?', [`${v}.${kid}.${nonce}.${flipped}`, identifier]);
}

beforeAll(async () => {
  db = await newSqliteDatabase();
  store = await openStore({ ...db.options, keyring: keyring1 });
  h = await startHarness({ rateLimit: false, store });
  token = await h.token(h.a);
  await h.sandboxConnection(h.a, 'calendar', 'cal');
  ids.good = await connect('good');
  ids.broken = await connect('broken');
  ids.deleted = await connect('deleted');
  await damage('broken');
  await damage('deleted');
});
afterAll(async () => {
  await h?.close();
  await store?.close();
  await db?.destroy();
});

describe('an account whose tokens cannot be decrypted (item 1)', () => {
  it('is listed as EXPIRED with the reason, and the other accounts stay as they are', async () => {
    const res = await h.call('GET', '/api/v1/connected_accounts', { token });
    expect(res.status).toBe(200);
    const items = res.body.connected_accounts as Array<{ id: string; status: string; status_reason: string | null }>;
    const byId = new Map(items.map((a) => [a.id, a]));
    expect(byId.get(ids.good!)?.status).toBe('ACTIVE');
    expect(byId.get(ids.broken!)?.status).toBe('EXPIRED');
    expect(byId.get(ids.broken!)?.status_reason).toMatch(/^undecryptable: /);
    const one = await h.call('GET', `/api/v1/connected_accounts/${ids.broken}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.status_reason).toMatch(/^undecryptable/);
  });

  it('answers reauthorization_required for its calls; calls for other identifiers still work', async () => {
    const broken = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'broken', tool_input: {} } });
    expect(broken.status).toBeLessThan(500);
    expect(broken.body.error.code).toBe('reauthorization_required');
    const good = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'good', tool_input: {} } });
    expect(good.status).toBe(200);
  });

  it('answers reauthorization_required, not 500, when only the refresh token is unreadable and a refresh is due', async () => {
    const id = await connect('refresh-broken');
    const [row] = await db.query('SELECT refresh_token FROM connected_accounts WHERE id = ?', [id]);
    const [v, kid, nonce, data] = String(row!.refresh_token).split('.');
    await db.query('UPDATE connected_accounts SET refresh_token = ?, expires_at = ? WHERE id = ?', [`${v}.${kid}.${nonce}.${data!.slice(0, -4)}${data!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`, new Date(Date.now() - 60_000).toISOString(), id]);
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'refresh-broken', tool_input: {} } });
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.code).toBe('reauthorization_required');
  });

  it('keeps the dashboard home working', async () => {
    const login = await fetch(`${h.url}/dashboard/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
      body: new URLSearchParams({ client_id: h.a.clientId, client_secret: h.a.clientSecret }).toString(),
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('ac_session='))!.split(';')[0]!;
    const home = await fetch(`${h.url}/dashboard`, { headers: { cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('broken');
  });

  it('can be disconnected through the API (DELETE), which clears the unreadable tokens', async () => {
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${ids.deleted}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('DISCONNECTED');
    expect(res.body.revocation).toEqual({ outcome: 'not_sent', provider_status: null });
    const after = await h.call('GET', `/api/v1/connected_accounts/${ids.deleted}`, { token });
    expect(after.body).toMatchObject({ status: 'DISCONNECTED' });
    expect(after.body.status_reason ?? '').not.toMatch(/undecryptable/);
  });

  it('can be re-authorized with a new link for its identifier (the callback overwrites the tokens)', async () => {
    expect(await connect('broken')).toBe(ids.broken);
    const again = await h.call('GET', `/api/v1/connected_accounts/${ids.broken}`, { token });
    expect(again.body.status).toBe('ACTIVE');
    const call = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'broken', tool_input: {} } });
    expect(call.status).toBe(200);
  });
});

describe('a connection whose client secret cannot be decrypted', () => {
  const call = (tool_name: string, identifier: string, connection_name?: string) =>
    h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name, identifier, tool_input: {}, ...(connection_name ? { connection_name } : {}) } });

  /** What a dropped key looks like: the secret sealed under a key id the keyring no longer has. */
  async function loseKey(connection: string): Promise<void> {
    const [row] = await db.query('SELECT client_secret FROM connections WHERE name = ?', [connection]);
    const [v, , nonce, data] = String(row!.client_secret).split('.');
    await db.query('UPDATE connections SET client_secret = ? WHERE name = ?', [`${v}.k9.${nonce}.${data}`, connection]);
  }

  beforeAll(async () => {
    await h.sandboxConnection(h.a, 'crm', 'hub-lost');
    await h.sandboxConnection(h.a, 'docs', 'docs-lost');
    await connect('mixed', 'cal');
    await connect('mixed', 'hub-lost');
    await connect('refresher', 'hub-lost');
    await connect('doc-user', 'docs-lost');
    await loseKey('hub-lost');
    await loseKey('docs-lost');
  });

  it('is listed and shown, with every other connection and account, as before', async () => {
    const list = await h.call('GET', '/api/v1/connections', { token });
    expect(list.status).toBe(200);
    expect((list.body.connections as ConnectionView[]).map((c) => c.name)).toEqual(expect.arrayContaining(['cal', 'hub-lost', 'docs-lost']));
    const one = await h.call('GET', '/api/v1/connections/hub-lost', { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: 'hub-lost', connector: 'crm', has_client_secret: true });
    const accounts = await h.call('GET', '/api/v1/connected_accounts?identifier=mixed', { token });
    expect(accounts.status).toBe(200);
    expect((accounts.body.connected_accounts as Array<{ connection_name: string; status: string }>).map((a) => [a.connection_name, a.status]).sort()).toEqual([
      ['cal', 'ACTIVE'],
      ['hub-lost', 'ACTIVE'],
    ]);
  });

  it('does not stop calls that do not send it: without connection_name on another connector, or on its own valid token', async () => {
    expect((await call('calendar_list_calendars', 'mixed')).status).toBe(200);
    expect((await call('crm_contacts_list', 'mixed')).status).toBe(200);
    expect((await call('crm_contacts_list', 'mixed', 'hub-lost')).status).toBe(200);
  });

  it('fails a call that needs a refresh with invalid_request naming the connection, and leaves the account ACTIVE', async () => {
    await db.query("UPDATE connected_accounts SET expires_at = ? WHERE identifier = 'refresher'", [new Date(Date.now() - 60_000).toISOString()]);
    const res = await call('crm_contacts_list', 'refresher');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', details: { connection: 'hub-lost', reason: 'client_secret_undecryptable' } });
    expect(res.body.error.message).toContain('"hub-lost"');
    expect(res.body.error.message).toMatch(/cannot be decrypted/);
    const [account] = (await h.call('GET', '/api/v1/connected_accounts?identifier=refresher', { token })).body.connected_accounts;
    expect(account).toMatchObject({ connection_name: 'hub-lost', status: 'ACTIVE', status_reason: null });
  });

  it('fails an authorization through it at the code exchange, saying why on the page and in the status reason', async () => {
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'hub-lost', identifier: 'newcomer' } });
    expect(link.status).toBe(200);
    const done = await consentThroughSandbox(link.body.link, { user: 'newcomer@example.com' });
    expect(done.status).toBe(400);
    expect(done.page).toContain('hub-lost');
    expect(done.page).toContain('cannot be decrypted');
    const [account] = (await h.call('GET', '/api/v1/connected_accounts?identifier=newcomer', { token })).body.connected_accounts;
    expect(account).toMatchObject({ status: 'PENDING_AUTH', status_reason: 'client_secret_undecryptable' });
  });

  it('can be deleted: its accounts are disconnected although their revocation cannot be sent', async () => {
    const res = await h.call('DELETE', '/api/v1/connections/docs-lost', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'docs-lost', deleted: true, disconnected_accounts: 1 });
    expect(res.body.revocations).toEqual({ revoked: 0, refused: 0, unreachable: 0, not_offered: 0, not_sent: 1 });
    expect((await h.call('GET', '/api/v1/connections/docs-lost', { token })).status).toBe(404);
  });

  it('works again once its client secret is set again', async () => {
    const secret = 'hub-lost-secret-set-again';
    const res = await h.call('PATCH', '/api/v1/connections/hub-lost', { token, body: { client_secret: secret } });
    expect(res.status).toBe(200);
    registerWithSandbox(h.sandbox, res.body as ConnectionView, secret);
    // The refresh that failed above now goes through.
    expect((await call('crm_contacts_list', 'refresher')).status).toBe(200);
  });
});
