import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/consent-driver.js';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { basic, clients, CLIENTS, notionTokens, REDIRECT, url } from '../helpers.js';

describe('Notion OAuth server', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients() });
  });
  afterAll(() => sb.close());

  const authUrl = (extra: Record<string, string> = {}) =>
    url(sb.endpoints('workspace').authorizationUrl, {
      client_id: CLIENTS.notion.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      owner: 'user',
      state: 'st',
      ...extra,
    });
  const token = (body: unknown, auth = basic(CLIENTS.notion.clientId, CLIENTS.notion.clientSecret)) =>
    fetch(sb.endpoints('workspace').tokenUrl, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('requires owner=user', async () => {
    const r = await consent(authUrl({ owner: 'workspace' }));
    expect(r.params.get('error')).toBe('invalid_request');
    expect(r.params.get('state')).toBe('st');
  });

  it('callback carries code and state only', async () => {
    const r = await consent(authUrl());
    expect([...r.params.keys()].sort()).toEqual(['code', 'state']);
  });

  it('exchanges with Basic auth and JSON: owner user, workspace, no expires_in', async () => {
    const t = await notionTokens(sb, 'frank@example.com');
    expect(t.token_type).toBe('bearer');
    expect(t.access_token).toMatch(/^ntn_/);
    expect(t).not.toHaveProperty('expires_in');
    expect(t).toMatchObject({ owner: { type: 'user', user: { object: 'user', type: 'person', person: { email: 'frank@example.com' } } } });
    expect(typeof t.bot_id).toBe('string');
    expect(typeof t.workspace_id).toBe('string');
  });

  it('refuses client credentials in the body instead of Basic, and a form body', async () => {
    const r = await consent(authUrl());
    const noBasic = await fetch(sb.endpoints('workspace').tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: r.params.get('code'), redirect_uri: REDIRECT, client_id: CLIENTS.notion.clientId, client_secret: CLIENTS.notion.clientSecret }),
    });
    expect(noBasic.status).toBe(401);
    expect(await noBasic.json()).toMatchObject({ error: 'invalid_client' });
    const formBody = await fetch(sb.endpoints('workspace').tokenUrl, {
      method: 'POST',
      headers: { authorization: basic(CLIENTS.notion.clientId, CLIENTS.notion.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: r.params.get('code') as string }).toString(),
    });
    expect(formBody.status).toBe(400);
  });

  it('allows redirect_uri to be omitted when exactly one is registered, and then refuses it at the token endpoint', async () => {
    const u = new URL(authUrl());
    u.searchParams.delete('redirect_uri');
    const r = await consent(u.toString());
    expect(r.location.startsWith(REDIRECT)).toBe(true);
    const res = await token({ grant_type: 'authorization_code', code: r.params.get('code'), redirect_uri: REDIRECT });
    expect(res.status).toBe(400);
    const r2 = await consent(u.toString());
    expect((await token({ grant_type: 'authorization_code', code: r2.params.get('code') })).status).toBe(200);
  });

  it('codes are single-use', async () => {
    const r = await consent(authUrl());
    const body = { grant_type: 'authorization_code', code: r.params.get('code'), redirect_uri: REDIRECT };
    expect((await token(body)).status).toBe(200);
    const again = await token(body);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('rotates refresh tokens: the used one is invalid_grant afterwards', async () => {
    const t = await notionTokens(sb, 'gina@example.com');
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    const b1 = (await r1.json()) as { access_token: string; refresh_token: string };
    expect(r1.status).toBe(200);
    expect(b1.refresh_token).not.toBe(t.refresh_token);
    expect(b1.access_token).not.toBe(t.access_token);
    const old = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await token({ grant_type: 'refresh_token', refresh_token: b1.refresh_token })).status).toBe(200);
  });

  it('revokes with JSON {token} and Basic auth; the API then answers 401', async () => {
    const t = await notionTokens(sb, 'hank@example.com');
    const res = await fetch(sb.endpoints('workspace').revocationUrl, {
      method: 'POST',
      headers: { authorization: basic(CLIENTS.notion.clientId, CLIENTS.notion.clientSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ token: t.access_token }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('request_id');
    const api = await fetch(`${sb.endpoints('workspace').apiBaseUrl}/v1/users/me`, {
      headers: { authorization: `Bearer ${t.access_token}`, 'notion-version': '2022-06-28' },
    });
    expect(api.status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).status).toBe(400);
  });

  it('introspects tokens', async () => {
    const t = await notionTokens(sb, 'ivy@example.com');
    const res = await fetch(`${sb.url}/notion/v1/oauth/introspect`, {
      method: 'POST',
      headers: { authorization: basic(CLIENTS.notion.clientId, CLIENTS.notion.clientSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ token: t.access_token }),
    });
    expect(await res.json()).toMatchObject({ active: true });
  });
});
