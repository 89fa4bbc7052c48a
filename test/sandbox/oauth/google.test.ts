import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/consent-driver.js';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { basic, clients, CLIENTS, clock, form, googleTokens, pkcePair, REDIRECT, url } from '../helpers.js';

const SCOPE = 'https://www.googleapis.com/auth/calendar https://www.googleapis.com/auth/spreadsheets';

describe('Google OAuth server', () => {
  let sb: Sandbox;
  const c = clock();
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), now: c.now });
  });
  afterAll(() => sb.close());

  const authUrl = (extra: Record<string, string> = {}, challenge = pkcePair().challenge) =>
    url(sb.endpoints('calendar').authorizationUrl, {
      client_id: CLIENTS.google.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: SCOPE,
      state: 'xyz',
      access_type: 'offline',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });

  it('serves a plain HTML consent form naming the client and the scopes', async () => {
    const res = await fetch(authUrl());
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(CLIENTS.google.clientId);
    expect(html).toContain('https://www.googleapis.com/auth/spreadsheets');
    expect(html).toContain('name="user"');
    expect(html).toContain('value="allow"');
    expect(html).toContain('value="deny"');
    expect(html).not.toContain('<script');
  });

  it('passes state through, adds scope and Google issuer (RFC 9207) on the callback', async () => {
    const r = await consent(authUrl());
    expect(r.location.startsWith(REDIRECT + '?')).toBe(true);
    expect(r.params.get('state')).toBe('xyz');
    expect(r.params.get('code')).toMatch(/^4\/0A/);
    expect(r.params.get('scope')).toBe(SCOPE);
    expect(r.params.get('iss')).toBe('https://accounts.google.com');
  });

  it('Deny redirects with error=access_denied and the state', async () => {
    const r = await consent(authUrl(), { decision: 'deny' });
    expect(r.params.get('error')).toBe('access_denied');
    expect(r.params.get('state')).toBe('xyz');
    expect(r.params.has('code')).toBe(false);
  });

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
    const bads: Record<string, string>[] = [{ client_id: "nope" }, { redirect_uri: "http://127.0.0.1:9/other" }, { redirect_uri: REDIRECT + "/" }];
    for (const bad of bads) {
      const res = await fetch(authUrl(bad), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('requires a PKCE S256 challenge, reported to the redirect URI', async () => {
    const u = new URL(authUrl());
    u.searchParams.delete('code_challenge');
    u.searchParams.delete('code_challenge_method');
    const r = await consent(u.toString());
    expect(r.params.get('error')).toBe('invalid_request');
    expect(r.params.get('state')).toBe('xyz');
    const plain = await consent(authUrl({ code_challenge_method: 'plain' }));
    expect(plain.params.get('error')).toBe('invalid_request');
  });

  it('checks access_type and prompt values', async () => {
    expect((await consent(authUrl({ access_type: 'forever' }))).params.get('error')).toBe('invalid_request');
    expect((await consent(authUrl({ prompt: 'sometimes' }))).params.get('error')).toBe('invalid_request');
    expect((await consent(authUrl({ prompt: 'none consent' }))).params.get('error')).toBe('invalid_request');
  });

  async function exchange(code: string, verifier: string, extra: Record<string, string> = {}, init: RequestInit = {}) {
    const res = await fetch(sb.endpoints('calendar').tokenUrl, {
      ...form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: CLIENTS.google.clientId,
        client_secret: CLIENTS.google.clientSecret,
        code_verifier: verifier,
        ...extra,
      }),
      ...init,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('exchanges a code once: expires_in 3599, Bearer, granted scope, refresh token for offline', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await consent(authUrl({ prompt: 'consent' }, challenge));
    const code = r.params.get('code') as string;
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ expires_in: 3599, token_type: 'Bearer', scope: SCOPE });
    expect(first.body.access_token).toMatch(/^ya29\./);
    expect(typeof first.body.refresh_token).toBe('string');
    const again = await exchange(code, verifier);
    expect(again).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } });
  });

  it('refuses a wrong PKCE verifier and a missing one', async () => {
    const { challenge } = pkcePair();
    const r1 = await consent(authUrl({}, challenge));
    expect((await exchange(r1.params.get('code') as string, pkcePair().verifier)).body).toMatchObject({ error: 'invalid_grant' });
    const r2 = await consent(authUrl({}, challenge));
    const res = await fetch(
      sb.endpoints('calendar').tokenUrl,
      form({ grant_type: 'authorization_code', code: r2.params.get('code') as string, redirect_uri: REDIRECT, client_id: CLIENTS.google.clientId, client_secret: CLIENTS.google.clientSecret }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant', error_description: 'Missing code verifier.' });
  });

  it('refuses a redirect_uri other than the authorize one, and wrong client credentials', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await consent(authUrl({}, challenge));
    expect((await exchange(r.params.get('code') as string, verifier, { redirect_uri: 'http://127.0.0.1:9/x' })).body.error).toBe('redirect_uri_mismatch');
    const r2 = await consent(authUrl({}, challenge));
    const bad = await exchange(r2.params.get('code') as string, verifier, { client_secret: 'wrong' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_client');
  });

  it('accepts HTTP Basic client authentication too', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await consent(authUrl({}, challenge));
    const res = await fetch(sb.endpoints('calendar').tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(CLIENTS.google.clientId, CLIENTS.google.clientSecret),
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: r.params.get('code') as string, redirect_uri: REDIRECT, code_verifier: verifier }).toString(),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a JSON token request (form only)', async () => {
    const res = await fetch(sb.endpoints('calendar').tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x', client_id: CLIENTS.google.clientId, client_secret: CLIENTS.google.clientSecret }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('codes expire after 10 minutes', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await consent(authUrl({}, challenge));
    c.advance(10 * 60 * 1000 + 1);
    expect((await exchange(r.params.get('code') as string, verifier)).body.error).toBe('invalid_grant');
  });

  it('gives no refresh token online, and only on first consent unless prompt=consent', async () => {
    const online = await googleTokens(sb, { user: 'online@example.com', offline: false });
    expect(online.refresh_token).toBeUndefined();
    const first = await googleTokens(sb, { user: 'bob@example.com', prompt: 'select_account' });
    expect(first.refresh_token).toBeDefined();
    const second = await googleTokens(sb, { user: 'bob@example.com', prompt: 'select_account' });
    expect(second.refresh_token).toBeUndefined();
    const forced = await googleTokens(sb, { user: 'bob@example.com', prompt: 'consent' });
    expect(forced.refresh_token).toBeDefined();
  });

  it('grants only the scopes the user did not withhold', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await consent(authUrl({}, challenge), { withhold: ['https://www.googleapis.com/auth/spreadsheets'] });
    expect(r.params.get('scope')).toBe('https://www.googleapis.com/auth/calendar');
    expect((await exchange(r.params.get('code') as string, verifier)).body.scope).toBe('https://www.googleapis.com/auth/calendar');
  });

  it('refreshes without rotating, and answers invalid_grant after revocation', async () => {
    const t = await googleTokens(sb, { user: 'carol@example.com' });
    const refresh = (token: string) =>
      fetch(sb.endpoints('calendar').tokenUrl, form({ grant_type: 'refresh_token', refresh_token: token, client_id: CLIENTS.google.clientId, client_secret: CLIENTS.google.clientSecret }));
    const before = sb.control.tokenRequestCount('google', 'refresh_token');
    const r1 = await refresh(t.refresh_token as string);
    const b1 = (await r1.json()) as Record<string, unknown>;
    expect(r1.status).toBe(200);
    expect(b1.refresh_token).toBeUndefined();
    expect(b1.expires_in).toBe(3599);
    expect(b1.access_token).not.toBe(t.access_token);
    expect((await refresh(t.refresh_token as string)).status).toBe(200);
    expect(sb.control.tokenRequestCount('google', 'refresh_token')).toBe(before + 2);
    sb.control.revokeRefreshTokens('google', 'carol@example.com');
    const r3 = await refresh(t.refresh_token as string);
    expect(r3.status).toBe(400);
    expect(await r3.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
  });

  it('revokes through POST /revoke with token= (the whole grant), 400 for an unknown token', async () => {
    const t = await googleTokens(sb, { user: 'dave@example.com' });
    const revoke = (token: string) => fetch(sb.endpoints('calendar').revocationUrl, form({ token }));
    expect((await revoke(t.access_token)).status).toBe(200);
    const refresh = await fetch(
      sb.endpoints('calendar').tokenUrl,
      form({ grant_type: 'refresh_token', refresh_token: t.refresh_token as string, client_id: CLIENTS.google.clientId, client_secret: CLIENTS.google.clientSecret }),
    );
    expect(refresh.status).toBe(400);
    expect((await revoke('ya29.unknown')).status).toBe(400);
  });

  it('prompt=none answers consent_required for a new user and a code for one who consented', async () => {
    const none = await fetch(authUrl({ prompt: 'none', login_hint: 'erin@example.com' }), { redirect: 'manual' });
    expect(new URL(none.headers.get('location') as string).searchParams.get('error')).toBe('consent_required');
    await consent(authUrl(), { user: 'erin@example.com' });
    const again = await fetch(authUrl({ prompt: 'none', login_hint: 'erin@example.com' }), { redirect: 'manual' });
    expect(new URL(again.headers.get('location') as string).searchParams.get('code')).toBeTruthy();
  });
});
