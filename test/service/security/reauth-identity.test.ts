/**
 * Security review: re-authorization never checked that the provider account was the same one. An authorization link
 * is a bearer credential until a browser continues it, so a link for an already connected identifier (a step-up
 * link handed to an agent) that leaked first let whoever continued it swap the user's provider account for theirs,
 * and the user's next calls wrote into the other workspace or CRM. Where the token response names the account
 * (Notion: the workspace and the authorizing user; HubSpot: the hub), a re-authorization with another one is now
 * refused and the connected account is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  token = await h.token(h.a);
  await h.sandboxConnection(h.a, 'workspace', 'notes');
  await h.sandboxConnection(h.a, 'crm', 'crm');
  await h.sandboxConnection(h.a, 'calendar', 'cal');
});
afterAll(() => h?.close());

async function link(connection_name: string, identifier: string): Promise<{ link: string; connected_account_id: string }> {
  const res = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name, identifier } });
  expect(res.status).toBe(200);
  return res.body;
}

const proxy = (connection_name: string, identifier: string, method: string, path: string, body?: unknown) =>
  h.call('POST', '/api/v1/proxy', { token, body: { connection_name, identifier, method, path, ...(body === undefined ? {} : { body }) } });

const account = async (id: string) => (await h.call('GET', `/api/v1/connected_accounts/${id}`, { token })).body;

describe('re-authorization with another provider account (pinned identity)', () => {
  it('Notion: a leaked link continued by another user is refused; the user\'s workspace stays connected', async () => {
    const first = await link('notes', 'nora');
    expect((await consentThroughSandbox(first.link, { user: 'nora@example.com' })).status).toBe(200);

    const leaked = await link('notes', 'nora');
    const attack = await consentThroughSandbox(leaked.link, { user: 'mallory@example.com' });
    expect(attack.status).toBe(400);
    expect(attack.page).toContain('authorization_failed');
    expect(attack.page).toContain('different Notion account');

    const after = await account(first.connected_account_id);
    expect(after).toMatchObject({ status: 'ACTIVE', status_reason: 'account_mismatch' });
    const me = await proxy('notes', 'nora', 'GET', '/v1/users/me');
    expect(me.body.status).toBe(200);
    expect(JSON.stringify(me.body.body)).toContain('nora@example.com');
    expect(JSON.stringify(me.body.body)).not.toContain('mallory');
  });

  it('Notion: the same user authorizing again is re-authorized', async () => {
    const first = await link('notes', 'olga');
    expect((await consentThroughSandbox(first.link, { user: 'olga@example.com' })).status).toBe(200);
    const again = await consentThroughSandbox((await link('notes', 'olga')).link, { user: 'olga@example.com' });
    expect(again.status).toBe(200);
    expect(again.page).toContain('Connected');
  });

  it('HubSpot: another hub is refused, the user\'s CRM records are still what the calls reach', async () => {
    const first = await link('crm', 'hana');
    expect((await consentThroughSandbox(first.link, { user: 'hana@example.com' })).status).toBe(200);
    const created = await proxy('crm', 'hana', 'POST', '/crm/v3/objects/contacts', { properties: { email: 'only-in-hana@example.com' } });
    expect(created.body.status).toBe(201);

    const attack = await consentThroughSandbox((await link('crm', 'hana')).link, { user: 'mallory@example.com' });
    expect(attack.status).toBe(400);
    expect(attack.page).toContain('different HubSpot account');

    expect((await account(first.connected_account_id)).status).toBe('ACTIVE');
    const read = await proxy('crm', 'hana', 'GET', `/crm/v3/objects/contacts/${created.body.body.id}`);
    expect(read.body.status).toBe(200);

    const again = await consentThroughSandbox((await link('crm', 'hana')).link, { user: 'hana@example.com' });
    expect(again.status).toBe(200);
  });

  it('a first authorization, and one after a disconnect, take any account', async () => {
    const first = await link('notes', 'pia');
    expect((await consentThroughSandbox(first.link, { user: 'pia@example.com' })).status).toBe(200);
    expect((await h.call('DELETE', `/api/v1/connected_accounts/${first.connected_account_id}`, { token })).status).toBeLessThan(300);
    const other = await consentThroughSandbox((await link('notes', 'pia')).link, { user: 'pia-work@example.com' });
    expect(other.status).toBe(200);
  });
});
