import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function signIn(headers: Record<string, string>): Promise<{ status: number; cookie: string | null }> {
  const res = await fetch(`${h.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ client_id: h.a.clientId, client_secret: h.a.clientSecret }).toString(),
  });
  await res.arrayBuffer();
  return { status: res.status, cookie: res.headers.get('set-cookie') };
}

describe('dashboard sign-in: login CSRF', () => {
  it('signs in from the dashboard page itself', async () => {
    const res = await signIn({ origin: h.url, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(303);
    expect(res.cookie).toMatch(/^ac_session=.*HttpOnly/i);
  });

  it.each(['cross-site', 'same-site'])('refuses a form posted from another site (Sec-Fetch-Site: %s) even without Origin', async (site) => {
    const res = await signIn({ 'sec-fetch-site': site });
    expect(res.status).toBe(401);
    expect(res.cookie).toBeNull();
  });

  it('refuses a foreign Origin', async () => {
    const res = await signIn({ origin: 'https://evil.example' });
    expect(res.status).toBe(401);
    expect(res.cookie).toBeNull();
  });

  it('behind a reverse proxy that rewrites Host, compares Origin with the public base URL', async () => {
    const form = new URLSearchParams({ client_id: h.a.clientId, client_secret: h.a.clientSecret }).toString();
    const post = (headers: Record<string, string>) =>
      h.app.inject({ method: 'POST', url: '/dashboard/login', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form });
    // The proxy forwards to the internal address; the browser's Origin is the public one.
    const genuine = await post({ host: 'agent-connector.internal:8080', origin: h.url, 'sec-fetch-site': 'same-origin' });
    expect(genuine.statusCode).toBe(303);
    expect(String(genuine.headers['set-cookie'])).toMatch(/^ac_session=/);
    // A Host header that agrees with a foreign Origin proves nothing.
    const forged = await post({ host: 'evil.example', origin: 'http://evil.example' });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers['set-cookie']).toBeUndefined();
  });
});
