import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/index.js';
import { CONNECTOR_NAMES } from '../../../runtime/types.js';
import { ENV, PROVIDER, startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const kind of CONNECTOR_NAMES) await h.connection(kind, kind, { allowed_redirect_urls: ['https://app.example/done'] });
});
afterAll(() => h.close());

/** Starts a flow up to the provider's redirect back, without calling our callback. */
async function toCallback(connectionName: string, identifier: string, opts: { decision?: 'allow' | 'deny'; redirect_url?: string } = {}) {
  const { link } = await h.env.authorizationLink({ connection_name: connectionName, identifier, ...(opts.redirect_url ? { redirect_url: opts.redirect_url } : {}) });
  const opened = await h.connector.oauth.openLink(link.split('/').pop() as string);
  const answer = await consent(opened.redirectTo, { user: `${identifier}@example.com`, decision: opts.decision ?? 'allow' });
  const connectionId = new URL(answer.location).pathname.split('/')[4] as string;
  return { opened, params: answer.params, connectionId, location: answer.location };
}

describe('authorization code flow', () => {
  it.each(CONNECTOR_NAMES.map((c) => [c]))('%s: link -> consent -> callback -> ACTIVE', async (kind) => {
    const before = h.sandbox.control.tokenRequestCount(PROVIDER[kind], 'authorization_code');
    const account = await h.authorize(kind, `user-${kind}`);
    expect(account.status).toBe('ACTIVE');
    expect(account.connector).toBe(kind);
    expect(h.sandbox.control.tokenRequestCount(PROVIDER[kind], 'authorization_code')).toBe(before + 1);
    const stored = await h.store.getAccount(ENV, account.id);
    expect(stored?.tokens?.accessToken).toBeTruthy();
    expect((await h.env.getAccount(account.id)).status).toBe('ACTIVE');
  });

  it('the link is on the service and the authorize URL carries the exact redirect URI, state and client', async () => {
    const conn = await h.env.getConnection('calendar');
    const { link, expiry, connected_account_id } = await h.env.authorizationLink({ connection_name: 'calendar', identifier: 'shape' });
    expect(link).toMatch(/^http:\/\/service\.test\/sso\/v1\/connect\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiry)).toBeGreaterThan(h.clock.now);
    expect((await h.env.getAccount(connected_account_id)).status).toBe('PENDING_AUTH');
    const opened = await h.connector.oauth.openLink(link.split('/').pop() as string);
    const url = new URL(opened.redirectTo);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://service.test/sso/v1/oauth/${conn.id}/callback`);
    expect(url.searchParams.get('redirect_uri')).toBe(conn.redirect_uri);
    expect(url.searchParams.get('client_id')).toBe(conn.client_id);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')).toBe(conn.scopes.join(' '));
    // >= 128 bits: 32 random bytes base64url.
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.browserCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('uses PKCE S256 where the connector says so (Google) and not for Notion', async () => {
    const google = await toCallback('calendar', 'pkce-user');
    const url = new URL(google.opened.redirectTo);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    h.sandbox.control.clearRequests();
    await h.connector.oauth.callback(google.connectionId, google.params, google.opened.browserCookie);
    const tokenReq = h.sandbox.control.requests('oauth:google').find((r) => r.path.endsWith('/token'));
    // Sent (the sandbox checked it against the S256 challenge before issuing tokens), and redacted in the record.
    expect((tokenReq?.body as Record<string, string>).code_verifier).toBe('[redacted]');
    expect(tokenReq?.status).toBe(200);

    const notion = await toCallback('workspace', 'pkce-user');
    expect(new URL(notion.opened.redirectTo).searchParams.has('code_challenge')).toBe(false);
    expect(new URL(notion.opened.redirectTo).searchParams.get('owner')).toBe('user');
  });
});

describe('a provider without OAuth scopes (Notion)', () => {
  it('a connection stored with scopes before they were refused: the authorize URL asks none and the account records none', async () => {
    // As a row saved before scopes were refused for workspace connections: written through the store, not the API.
    const view = await h.connection('workspace', 'notion-old-row');
    const row = await h.store.updateConnection(ENV, view.id, { scopes: ['read_content', 'insert_content'] });
    expect(row?.scopes).toEqual(['read_content', 'insert_content']);

    const flow = await toCallback('notion-old-row', 'old-row-user');
    const url = new URL(flow.opened.redirectTo);
    expect(url.searchParams.has('scope')).toBe(false);
    expect(url.searchParams.get('owner')).toBe('user');
    const done = await h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie);
    expect(done.account.status).toBe('ACTIVE');
    expect(done.account.scopes).toEqual([]);
    expect((await h.store.getAccount(ENV, done.account.id))?.tokens?.scopes).toEqual([]);
    expect((await h.env.getAccount(done.account.id)).scopes).toEqual([]);
  });
});

describe('state checks refuse before any token request', () => {
  async function refusedWithoutTokenRequest(run: () => Promise<unknown>): Promise<void> {
    const before = h.sandbox.control.tokenRequestCount('google');
    await expect(run()).rejects.toMatchObject({ code: 'authorization_failed', status: 400 });
    expect(h.sandbox.control.tokenRequestCount('google')).toBe(before);
  }

  it('replayed state', async () => {
    const flow = await toCallback('calendar', 'replay');
    await h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie);
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie));
  });

  it('expired state (more than 10 minutes at the provider)', async () => {
    const flow = await toCallback('calendar', 'slow-user');
    h.clock.advance(10 * 60 * 1000 + 1);
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie));
  });

  it('foreign browser (other cookie, or none)', async () => {
    const flow = await toCallback('calendar', 'victim');
    const other = await h.connector.oauth.openLink((await h.env.authorizationLink({ connection_name: 'calendar', identifier: 'attacker' })).link.split('/').pop() as string);
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow.connectionId, flow.params, other.browserCookie));
    const flow2 = await toCallback('calendar', 'victim2');
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow2.connectionId, flow2.params, undefined));
  });

  it('foreign connection', async () => {
    const flow = await toCallback('calendar', 'cross');
    const sheets = await h.env.getConnection('sheets');
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(sheets.id, flow.params, flow.opened.browserCookie));
  });

  it('missing or unknown state', async () => {
    const flow = await toCallback('calendar', 'nostate');
    const without = new URLSearchParams(flow.params);
    without.delete('state');
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow.connectionId, without, flow.opened.browserCookie));
    const forged = new URLSearchParams(flow.params);
    forged.set('state', 'A'.repeat(43));
    await refusedWithoutTokenRequest(() => h.connector.oauth.callback(flow.connectionId, forged, flow.opened.browserCookie));
  });

  it('access_denied at the provider', async () => {
    const flow = await toCallback('calendar', 'denier', { decision: 'deny' });
    expect(flow.params.get('error')).toBe('access_denied');
    const before = h.sandbox.control.tokenRequestCount('google');
    await expect(h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie)).rejects.toMatchObject({
      code: 'authorization_failed',
      details: { error: 'access_denied' },
    });
    expect(h.sandbox.control.tokenRequestCount('google')).toBe(before);
    const [account] = await h.env.listAccounts({ identifier: 'denier' });
    expect(account?.status).toBe('PENDING_AUTH');
  });

  it('unknown or expired link', async () => {
    await expect(h.connector.oauth.openLink('not-a-link')).rejects.toMatchObject({ code: 'authorization_failed' });
    const { link } = await h.env.authorizationLink({ connection_name: 'calendar', identifier: 'late' });
    h.clock.advance(61 * 60 * 1000);
    await expect(h.connector.oauth.openLink(link.split('/').pop() as string)).rejects.toMatchObject({ code: 'authorization_failed' });
  });
});

describe('redirect allowlist', () => {
  it('refuses a redirect_url not on the allowlist (exact match)', async () => {
    for (const url of ['https://evil.example/done', 'https://app.example/done/', 'https://app.example/done?x=1', 'https://app.example.evil/done']) {
      await expect(h.env.authorizationLink({ connection_name: 'calendar', identifier: 'r', redirect_url: url })).rejects.toMatchObject({ code: 'invalid_request' });
    }
  });

  it('sends the browser to an allowlisted URL, and to null (the service page) without one', async () => {
    const withUrl = await toCallback('calendar', 'redirected', { redirect_url: 'https://app.example/done' });
    const done = await h.connector.oauth.callback(withUrl.connectionId, withUrl.params, withUrl.opened.browserCookie);
    expect(done.redirectTo).toBe('https://app.example/done');
    const without = await toCallback('calendar', 'not-redirected');
    expect((await h.connector.oauth.callback(without.connectionId, without.params, without.opened.browserCookie)).redirectTo).toBeNull();
  });
});

describe('code exchange failures', () => {
  it('a refused code exchange is authorization_failed and leaves no secret in the error', async () => {
    const flow = await toCallback('crm', 'bad-secret');
    await h.env.updateConnection('crm', { client_secret: 'wrong-secret-value-123' });
    const error = await h.connector.oauth.callback(flow.connectionId, flow.params, flow.opened.browserCookie).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'authorization_failed' });
    expect(JSON.stringify(error)).not.toContain('wrong-secret-value-123');
    expect(JSON.stringify(error)).not.toContain(flow.params.get('code') as string);
  });
});

describe('authorization links opened through the library', () => {
  it('bind to the first opener: the same binding may reopen, no binding or another one is refused', async () => {
    const { link } = await h.env.authorizationLink({ connection_name: 'calendar', identifier: 'bound-user' });
    const token = link.split('/').pop() as string;
    const first = await h.connector.oauth.openLink(token);
    expect(first.linkBinding).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const again = await h.connector.oauth.openLink(token, first.linkBinding);
    expect(again.linkBinding).toBe(first.linkBinding);
    // One pending state per link, handed out again while it is valid (with a new browser-binding value).
    expect(new URL(again.redirectTo).searchParams.get('state')).toBe(new URL(first.redirectTo).searchParams.get('state'));
    expect(again.browserCookie).not.toBe(first.browserCookie);

    await expect(h.connector.oauth.openLink(token)).rejects.toMatchObject({ code: 'authorization_failed', message: expect.stringContaining('another browser') });
    const stranger = await h.connector.oauth.openLink((await h.env.authorizationLink({ connection_name: 'calendar', identifier: 'someone-else' })).link.split('/').pop() as string);
    await expect(h.connector.oauth.openLink(token, stranger.linkBinding)).rejects.toMatchObject({ code: 'authorization_failed' });

    // The bound browser still completes the flow.
    const answer = await consent(again.redirectTo, { user: 'bound-user@example.com' });
    const connectionId = new URL(answer.location).pathname.split('/')[4] as string;
    const done = await h.connector.oauth.callback(connectionId, answer.params, again.browserCookie);
    expect(done.account).toMatchObject({ identifier: 'bound-user', status: 'ACTIVE' });
  });
});
