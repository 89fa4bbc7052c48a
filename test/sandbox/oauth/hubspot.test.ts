import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/consent-driver.js';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { basic, clients, CLIENTS, form, hubspotTokens, pkcePair, REDIRECT, url } from '../helpers.js';

describe('HubSpot OAuth server', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients() });
  });
  afterAll(() => sb.close());

  const authUrl = (extra: Record<string, string> = {}) =>
    url(sb.endpoints('crm').authorizationUrl, {
      client_id: CLIENTS.hubspot.clientId,
      redirect_uri: REDIRECT,
      scope: 'crm.objects.contacts.read crm.objects.deals.read',
      state: 'hs',
      ...extra,
    });
  const tokenForm = (fields: Record<string, string>) =>
    fetch(sb.endpoints('crm').tokenUrl, form({ client_id: CLIENTS.hubspot.clientId, client_secret: CLIENTS.hubspot.clientSecret, ...fields }));

  it('issues 30-minute tokens; refresh returns the same refresh token', async () => {
    const t = await hubspotTokens(sb);
    expect(t).toMatchObject({ token_type: 'bearer', expires_in: 1800 });
    const r = await tokenForm({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    const b = (await r.json()) as Record<string, unknown>;
    expect(r.status).toBe(200);
    expect(b.refresh_token).toBe(t.refresh_token);
    expect(b.access_token).not.toBe(t.access_token);
  });

  it('takes credentials in the body only: HTTP Basic alone is BAD_CLIENT_ID', async () => {
    const c = await consent(authUrl());
    const res = await fetch(sb.endpoints('crm').tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(CLIENTS.hubspot.clientId, CLIENTS.hubspot.clientSecret) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: c.params.get('code') as string, redirect_uri: REDIRECT }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'BAD_CLIENT_ID', error: 'invalid_client' });
  });

  it('answers errors with legacy status/message beside error/error_description', async () => {
    const c = await consent(authUrl());
    const code = c.params.get('code') as string;
    expect((await tokenForm({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(200);
    const again = await tokenForm({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    const body = (await again.json()) as Record<string, unknown>;
    expect(again.status).toBe(400);
    expect(body).toMatchObject({ status: 'BAD_AUTH_CODE', error: 'invalid_grant', message: 'missing or unknown auth code' });
    expect(body.error_description).toBe(body.message);
    expect(typeof body.correlationId).toBe('string');
  });

  it('checks a PKCE verifier when a challenge was sent', async () => {
    const { verifier, challenge } = pkcePair();
    const c = await consent(authUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const wrong = await tokenForm({ grant_type: 'authorization_code', code: c.params.get('code') as string, redirect_uri: REDIRECT, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    const c2 = await consent(authUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const ok = await tokenForm({ grant_type: 'authorization_code', code: c2.params.get('code') as string, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(ok.status).toBe(200);
  });

  it('requires scope on the authorize URL', async () => {
    const u = new URL(authUrl());
    u.searchParams.delete('scope');
    expect((await consent(u.toString())).params.get('error')).toBe('invalid_scope');
  });

  it('DELETE /oauth/v1/refresh-tokens/{token} -> 204, then refresh is BAD_REFRESH_TOKEN; access tokens live on', async () => {
    const t = await hubspotTokens(sb, 'jack@example.com');
    const del = await fetch(`${sb.endpoints('crm').revocationUrl}/${t.refresh_token}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    const r = await tokenForm({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
    const info = await fetch(`${sb.url}/hubspot/oauth/v1/access-tokens/${t.access_token}`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ user: 'jack@example.com', token_type: 'access' });
  });

  it('names the hub in the token response (hub_id, scopes: HubSpot since 2025-08-18) and in the token metadata, one hub per user', async () => {
    const jill = await hubspotTokens(sb, 'jill@example.com');
    const jim = await hubspotTokens(sb, 'jim@example.com');
    expect(typeof jill.hub_id).toBe('number');
    expect(jill.scopes).toEqual(['crm.objects.contacts.read', 'crm.objects.contacts.write']);
    expect(jim.hub_id).not.toBe(jill.hub_id);
    expect((await hubspotTokens(sb, 'jill@example.com')).hub_id).toBe(jill.hub_id);
    const refreshed = (await (await tokenForm({ grant_type: 'refresh_token', refresh_token: jill.refresh_token })).json()) as Record<string, unknown>;
    expect(refreshed.hub_id).toBe(jill.hub_id);
    const info = (await (await fetch(`${sb.url}/hubspot/oauth/v1/access-tokens/${jill.access_token}`)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ hub_id: jill.hub_id, user: 'jill@example.com' });
    expect(info.user_id).not.toBe((await (await fetch(`${sb.url}/hubspot/oauth/v1/access-tokens/${jim.access_token}`)).json() as Record<string, unknown>).user_id);
  });
});
