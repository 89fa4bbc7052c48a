import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector } from '../../../runtime/connector.js';
import { ENV, BASE_URL, loadDefinitions, startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar');
  await h.connection('workspace');
  await h.connection('crm');
});
afterAll(() => h.close());

const calendarList = (identifier: string) =>
  h.env.proxy({ connection_name: 'calendar', identifier, method: 'GET', path: '/calendar/v3/users/me/calendarList' });
const notionMe = (identifier: string) => h.env.proxy({ connection_name: 'workspace', identifier, method: 'GET', path: '/v1/users/me' });

async function stored(accountId: string) {
  const account = await h.store.getAccount(ENV, accountId);
  if (account === null) throw new Error('account vanished');
  return account;
}

describe('refresh ahead of expiry', () => {
  it('1,000 concurrent calls on an expired token make exactly 1 token request', async () => {
    const account = await h.authorize('calendar', 'many');
    const before = await stored(account.id);
    h.clock.advance(3_600_000 + 1_000);
    const refreshes = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
    const results = await Promise.all(Array.from({ length: 1_000 }, () => calendarList('many')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(refreshes + 1);
    const after = await stored(account.id);
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    // Google's refresh answer has no refresh_token: the old one is kept.
    expect(after.tokens?.refreshToken).toBe(before.tokens?.refreshToken);
    expect(after.tokens?.accessToken).not.toBe(before.tokens?.accessToken);
  });

  it('refreshes within the skew before expiry, and not earlier', async () => {
    const account = await h.authorize('calendar', 'skew');
    const refreshes = () => h.sandbox.control.tokenRequestCount('google', 'refresh_token');
    const start = refreshes();
    h.clock.advance(3_600_000 - 120_000);
    await calendarList('skew');
    expect(refreshes()).toBe(start);
    h.clock.advance(90_000);
    await calendarList('skew');
    expect(refreshes()).toBe(start + 1);
    expect((await stored(account.id)).status).toBe('ACTIVE');
  });
});

describe('401 -> refresh -> retry', () => {
  it('a token the upstream refuses is refreshed once and the call retried once', async () => {
    await h.authorize('calendar', 'revoked-access');
    h.sandbox.control.expireAccessTokens('google', 'revoked-access@example.com');
    const start = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
    h.sandbox.control.clearRequests();
    const res = await calendarList('revoked-access');
    expect(res.status).toBe(200);
    expect(h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(start + 1);
    expect(h.sandbox.control.requests('calendar').map((r) => r.status)).toEqual([401, 200]);
  });

  it('Notion rotation under concurrency: one refresh, no invalid_grant, the rotated token saved first', async () => {
    const account = await h.authorize('workspace', 'rotor');
    for (let round = 0; round < 3; round++) {
      const before = await stored(account.id);
      h.sandbox.control.expireAccessTokens('notion', 'rotor@example.com');
      const start = h.sandbox.control.tokenRequestCount('notion', 'refresh_token');
      const results = await Promise.all(Array.from({ length: 200 }, () => notionMe('rotor')));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(h.sandbox.control.tokenRequestCount('notion', 'refresh_token')).toBe(start + 1);
      const after = await stored(account.id);
      expect(after.status).toBe('ACTIVE');
      expect(after.tokens?.refreshToken).not.toBe(before.tokens?.refreshToken);
    }
  });
});

describe('a provider without OAuth scopes (Notion)', () => {
  it('a refresh does not carry scopes an account recorded before they were refused as its grant', async () => {
    const account = await h.authorize('workspace', 'old-grant');
    const before = await stored(account.id);
    // As an account connected through a connection stored with scopes, before they were refused for Notion.
    await h.store.saveTokens(account.id, { ...before.tokens!, scopes: ['read_content'] });
    expect((await stored(account.id)).tokens?.scopes).toEqual(['read_content']);
    h.sandbox.control.expireAccessTokens('notion', 'old-grant@example.com');
    const start = h.sandbox.control.tokenRequestCount('notion', 'refresh_token');
    expect((await notionMe('old-grant')).status).toBe(200);
    expect(h.sandbox.control.tokenRequestCount('notion', 'refresh_token')).toBe(start + 1);
    expect((await stored(account.id)).tokens?.scopes).toEqual([]);
  });
});

describe('invalid_grant', () => {
  it('marks the account EXPIRED and calls fail with reauthorization_required (409), without more token requests', async () => {
    const account = await h.authorize('calendar', 'gone');
    h.sandbox.control.revokeRefreshTokens('google', 'gone@example.com');
    h.clock.advance(3_600_000 + 1_000);
    const error = await calendarList('gone').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'reauthorization_required', status: 409 });
    const after = await stored(account.id);
    expect(after.status).toBe('EXPIRED');
    expect(after.statusReason).toBe('invalid_grant');
    expect((await h.env.getAccount(account.id)).status_reason).toBe('invalid_grant');
    const start = h.sandbox.control.tokenRequestCount('google');
    await expect(calendarList('gone')).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect(h.sandbox.control.tokenRequestCount('google')).toBe(start);
    // A new authorization brings it back.
    expect((await h.authorize('calendar', 'gone')).status).toBe('ACTIVE');
    expect((await calendarList('gone')).status).toBe(200);
  });

  it('a Notion refresh refused with invalid_grant expires the account too', async () => {
    const account = await h.authorize('workspace', 'notion-gone');
    h.sandbox.control.revokeRefreshTokens('notion', 'notion-gone@example.com');
    h.sandbox.control.expireAccessTokens('notion', 'notion-gone@example.com');
    await expect(notionMe('notion-gone')).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect((await stored(account.id)).status).toBe('EXPIRED');
  });
});

describe('two runtimes on one store (two "processes" in one)', () => {
  it('share one refresh through the store lease and use the token the other saved', async () => {
    const account = await h.authorize('calendar', 'shared');
    const other = await createConnector({ store: h.store, baseUrl: BASE_URL, now: () => h.clock.now, definitions: await loadDefinitions() });
    try {
      h.clock.advance(3_600_000 + 1_000);
      const start = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
      const otherEnv = other.environment(ENV);
      const calls = Array.from({ length: 300 }, (_, i) =>
        (i % 2 === 0 ? h.env : otherEnv).proxy({ connection_name: 'calendar', identifier: 'shared', method: 'GET', path: '/calendar/v3/users/me/calendarList' }),
      );
      const results = await Promise.all(calls);
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(h.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(start + 1);
      expect((await stored(account.id)).status).toBe('ACTIVE');
    } finally {
      await other.close();
    }
  });
});

describe('disconnect', () => {
  it.each([
    ['calendar', 'google', '/revoke'],
    ['workspace', 'notion', '/oauth/revoke'],
    ['crm', 'hubspot', '/refresh-tokens/'],
  ] as const)('%s: revokes at the provider, clears the tokens, DISCONNECTED', async (name, provider, revokePath) => {
    const account = await h.authorize(name, `leaver-${name}`);
    h.sandbox.control.clearRequests();
    const view = await h.env.disconnectAccount(account.id);
    expect(view.status).toBe('DISCONNECTED');
    const revokes = h.sandbox.control.requests(`oauth:${provider}`).filter((r) => r.path.includes(revokePath));
    expect(revokes).toHaveLength(1);
    expect(revokes[0]?.status).toBeLessThan(300);
    // The answer says so, with the provider's own status (Google and Notion 200, HubSpot 204).
    expect(view.revocation).toEqual({ outcome: 'revoked', provider_status: revokes[0]?.status });
    expect((await stored(account.id)).tokens).toBeNull();
    await expect(h.env.proxy({ connection_name: name, identifier: `leaver-${name}`, method: 'GET', path: '/x' })).rejects.toMatchObject({
      code: 'reauthorization_required',
    });
  });
});
