import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { consent } from '../../sandbox/consent-driver.js';
import { startSandbox } from '../../sandbox/start.js';
import type { OAuthProvider, Sandbox } from '../../sandbox/types.js';

export const REDIRECT = 'http://127.0.0.1:9/sso/v1/oauth/conn_1/callback';
export const CLIENTS = {
  notion: { provider: 'notion', clientId: 'notion-client', clientSecret: 'notion-secret', redirectUris: [REDIRECT] },
  google: { provider: 'google', clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret', redirectUris: [REDIRECT] },
  hubspot: { provider: 'hubspot', clientId: 'hubspot-client', clientSecret: 'hubspot-secret', redirectUris: [REDIRECT] },
} as const satisfies Record<OAuthProvider, { provider: OAuthProvider; clientId: string; clientSecret: string; redirectUris: string[] }>;

export function clients() {
  return Object.values(CLIENTS).map((c) => ({ ...c, redirectUris: [...c.redirectUris] }));
}

/**
 * A Google fake over HTTP for the file's tests: a sandbox started before them (closed after) and a Google access token
 * for `user` with `scope`. `api(path, init)` sends a JSON request with that token to `system`'s API under `root`
 * (`/v1`, `/v4`) and answers its status and parsed body.
 */
export function googleApiOverHttp(system: 'docs' | 'sheets', root: string, user: string, scope: string) {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), now: clock().now });
    token = sb.control.issueTokens('google', user, { scopes: [scope] }).accessToken;
  });
  afterAll(() => sb.close());
  return {
    api: async (path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await fetch(`${sb.endpoints(system).apiBaseUrl}${root}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    },
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export function url(base: string, params: Record<string, string>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

export function form(params: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() };
}

/** Full Google flow: consent + code exchange; returns the token response. */
export async function googleTokens(sb: Sandbox, opts: { user?: string; scope?: string; offline?: boolean; prompt?: string } = {}) {
  const { verifier, challenge } = pkcePair();
  const e = sb.endpoints('calendar');
  const c = await consent(
    url(e.authorizationUrl, {
      client_id: CLIENTS.google.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: opts.scope ?? 'https://www.googleapis.com/auth/calendar',
      state: 's1',
      access_type: opts.offline === false ? 'online' : 'offline',
      ...(opts.prompt ? { prompt: opts.prompt } : { prompt: 'consent' }),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
    { user: opts.user ?? 'alice@example.com' },
  );
  const res = await fetch(
    e.tokenUrl,
    form({
      grant_type: 'authorization_code',
      code: c.params.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: CLIENTS.google.clientId,
      client_secret: CLIENTS.google.clientSecret,
      code_verifier: verifier,
    }),
  );
  return (await res.json()) as { access_token: string; refresh_token?: string; expires_in: number; scope: string; token_type: string };
}

/** Full Notion flow. */
export async function notionTokens(sb: Sandbox, user = 'alice@example.com') {
  const e = sb.endpoints('workspace');
  const c = await consent(
    url(e.authorizationUrl, { client_id: CLIENTS.notion.clientId, redirect_uri: REDIRECT, response_type: 'code', owner: 'user', state: 'n1' }),
    { user },
  );
  const res = await fetch(e.tokenUrl, {
    method: 'POST',
    headers: { authorization: basic(CLIENTS.notion.clientId, CLIENTS.notion.clientSecret), 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: c.params.get('code'), redirect_uri: REDIRECT }),
  });
  return (await res.json()) as { access_token: string; refresh_token: string; [k: string]: unknown };
}

/** Full HubSpot flow. */
export async function hubspotTokens(sb: Sandbox, user = 'alice@example.com', scope = 'crm.objects.contacts.read crm.objects.contacts.write') {
  const e = sb.endpoints('crm');
  const c = await consent(
    url(e.authorizationUrl, { client_id: CLIENTS.hubspot.clientId, redirect_uri: REDIRECT, scope, state: 'h1' }),
    { user },
  );
  const res = await fetch(
    e.tokenUrl,
    form({
      grant_type: 'authorization_code',
      code: c.params.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: CLIENTS.hubspot.clientId,
      client_secret: CLIENTS.hubspot.clientSecret,
    }),
  );
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number; token_type: string; hub_id: number; scopes: string[] };
}

/** A movable clock for expiry tests. */
export function clock(start = Date.UTC(2025, 0, 6, 9, 0, 0)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}
