/**
 * Issue 14 item 6: the control API is never reachable on the providers' origins (a tenant's connection points
 * there), and the request records it serves hold no token, code or client secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import type { Sandbox } from '../../sandbox/types.js';
import { basic, clients, CLIENTS, form, googleTokens } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ clients: clients() });
});
afterAll(() => sb.close());

describe('sandbox control API', () => {
  it('is served on its own origin only, under every spelling of its path on the providers\' origins', async () => {
    expect(new URL(sb.controlUrl).origin).not.toBe(new URL(sb.url).origin);
    expect(Object.values(sb.origins)).not.toContain(sb.controlUrl);
    expect((await fetch(`${sb.controlUrl}/_sandbox/requests`)).status).toBe(200);
    for (const path of ['/_sandbox/requests', '/_sandbox/', '/notion/../_sandbox/requests', '/%2e%2e/_sandbox/requests', '/_sandbox/revoke']) {
      const res = await fetch(`${sb.url}${path}`, { method: path.endsWith('revoke') ? 'POST' : 'GET' });
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(await res.json())).not.toContain('requests":[');
    }
    // A provider's own origin maps every path under that provider (an API 401 or 404), never to the control API.
    for (const origin of Object.values(sb.origins)) {
      const res = await fetch(`${origin}/_sandbox/requests`);
      expect(res.status, origin).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain('"requests"');
    }
    // A request with credentials (what every API call the connector sends carries) is refused there too.
    const withToken = await fetch(`${sb.controlUrl}/_sandbox/requests`, { headers: { authorization: 'Bearer ya29.anything' } });
    expect(withToken.status).toBe(403);
    expect(await withToken.text()).not.toContain('"requests"');
    // And the control origin serves nothing else: no provider answers there.
    expect((await fetch(`${sb.controlUrl}/google/token`, { method: 'POST' })).status).toBe(404);
  });

  it('records requests with every token, code, verifier and client secret redacted', async () => {
    sb.control.clearRequests();
    const tokens = await googleTokens(sb, { user: 'records@example.com' });
    expect(tokens.refresh_token).toBeTruthy();
    await fetch(sb.endpoints('calendar').tokenUrl, {
      ...form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(CLIENTS.google.clientId, CLIENTS.google.clientSecret) },
    });
    await fetch(`${sb.endpoints('calendar').revocationUrl}?token=${encodeURIComponent(tokens.access_token)}`, { method: 'POST' });
    await fetch(`${sb.endpoints('calendar').apiBaseUrl}/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const hub = sb.endpoints('crm');
    await fetch(`${hub.revocationUrl}/${encodeURIComponent(tokens.refresh_token as string)}`, { method: 'DELETE' });

    const records = (await (await fetch(`${sb.controlUrl}/_sandbox/requests`)).json()) as { requests: unknown[] };
    const text = JSON.stringify(records);
    expect(records.requests.length).toBeGreaterThanOrEqual(5);
    for (const secret of [tokens.access_token, tokens.refresh_token as string, CLIENTS.google.clientSecret]) expect(text).not.toContain(secret);
    const exchange = sb.control.requests('oauth:google').find((r) => (r.body as Record<string, string> | undefined)?.grant_type === 'authorization_code');
    expect(exchange?.body).toMatchObject({ code: '[redacted]', code_verifier: '[redacted]', client_secret: '[redacted]' });
    expect(sb.control.requests('crm').length + sb.control.requests('oauth:hubspot').length).toBeGreaterThan(0);
    expect(sb.control.requests('oauth:hubspot').find((r) => r.method === 'DELETE')?.path).toBe('/oauth/v1/refresh-tokens/[redacted]');
  });
});
