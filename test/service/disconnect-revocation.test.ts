/**
 * A disconnect says what the provider did with the revocation it asked for: revoked, refused (with the provider's
 * status), unreachable. Before, the answer was the bare account whatever happened, and every surface said "revoked at
 * the provider". The tokens are deleted here in every case, and no token is in the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient } from '../../runtime/client/index.js';
import { freePort } from '../../runtime/service/free-port.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
});
afterAll(() => h?.close());

async function authorized(connection: string, identifier: string): Promise<{ token: string; id: string; secrets: string[] }> {
  const token = await h.token(h.a);
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection, identifier } });
  expect((await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` })).status).toBe(200);
  const id = link.body.connected_account_id as string;
  const tokens = (await h.connector.store.getAccount(h.a.environmentId, id))!.tokens!;
  return { token, id, secrets: [tokens.accessToken, tokens.refreshToken].filter((t): t is string => typeof t === 'string') };
}

async function deletedHere(id: string): Promise<void> {
  const after = await h.connector.store.getAccount(h.a.environmentId, id);
  expect(after?.status).toBe('DISCONNECTED');
  expect(after?.tokens).toBeNull();
}

describe('a disconnect says what the provider did', () => {
  it('revoked: the provider accepted it (Notion answers 200)', async () => {
    await h.sandboxConnection(h.a, 'workspace', 'rev-ok');
    const { token, id, secrets } = await authorized('rev-ok', 'rev-ok-user');
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('DISCONNECTED');
    expect(res.body.revocation).toEqual({ outcome: 'revoked', provider_status: 200 });
    for (const secret of secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
    await deletedHere(id);
  });

  it('refused: the provider answered 401, and the tokens are deleted here anyway', async () => {
    await h.sandboxConnection(h.a, 'crm', 'rev-refused');
    const { token, id, secrets } = await authorized('rev-refused', 'rev-refused-user');
    h.sandbox.control.setFault('oauth:hubspot', { failNext: { count: 1, status: 401 } });
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${id}`, { token });
    h.sandbox.control.clearFaults('oauth:hubspot');
    expect(res.status).toBe(200);
    expect(res.body.revocation).toEqual({ outcome: 'refused', provider_status: 401 });
    for (const secret of secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
    await deletedHere(id);
  });

  it('unreachable: nothing listens at the revocation URL; the typed client gets the outcome', async () => {
    const connection = await h.sandboxConnection(h.a, 'calendar', 'rev-down');
    const { token, id } = await authorized('rev-down', 'rev-down-user');
    const closed = await freePort();
    const patched = await h.call('PATCH', `/api/v1/connections/${connection.id}`, {
      token,
      body: { overrides: { ...connection.overrides, revocationUrl: `http://127.0.0.1:${closed}/revoke` } },
    });
    expect(patched.status).toBe(200);
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const done = await client.disconnectAccount(id);
    expect(done.status).toBe('DISCONNECTED');
    expect(done.revocation).toEqual({ outcome: 'unreachable', provider_status: null });
    await deletedHere(id);
  });

  it("a connection's deletion counts its accounts by outcome", async () => {
    await h.sandboxConnection(h.a, 'docs', 'rev-many');
    const { token } = await authorized('rev-many', 'rev-many-1');
    await authorized('rev-many', 'rev-many-2');
    await authorized('rev-many', 'rev-many-3');
    // The first revocation is refused (Google answers 400 for a token it does not know), the others go through.
    h.sandbox.control.setFault('oauth:google', { failNext: { count: 1, status: 400 } });
    const res = await h.call('DELETE', '/api/v1/connections/rev-many', { token });
    h.sandbox.control.clearFaults('oauth:google');
    expect(res.status).toBe(200);
    expect(res.body.disconnected_accounts).toBe(3);
    expect(res.body.revocations).toEqual({ revoked: 2, refused: 1, unreachable: 0, not_offered: 0, not_sent: 0 });
  });
});
