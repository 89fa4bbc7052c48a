/**
 * Security review, item 11: a dashboard session cookie replayed after sign-out kept working for 8 h, and an access
 * token after its client or environment was deleted. Sign-out, client deletion, secret rotation and environment
 * deletion now revoke them at once, through the store (so every instance on the database sees it; this harness
 * asks the store on every request, revocationCacheMs: 0, where the default reuses an answer for a second).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../runtime/crypto/index.js';
import { createEnvironment, newClientSecret } from '../../../runtime/service/environments.js';
import { startHarness, type Harness, type TestEnv } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false, credentialRateLimit: false, revocationCacheMs: 0 });
});
afterAll(() => h?.close());

async function accessToken(env: TestEnv): Promise<string> {
  const res = await h.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: env.clientId, client_secret: env.clientSecret } });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

async function signIn(env: TestEnv): Promise<string> {
  const res = await fetch(`${h.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
    body: new URLSearchParams({ client_id: env.clientId, client_secret: env.clientSecret }).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.getSetCookie().find((c) => c.startsWith('ac_session='))!.split(';')[0]!;
}

const dashboard = (cookie: string) => fetch(`${h.url}/dashboard`, { redirect: 'manual', headers: { cookie } });
const api = (token: string) => h.call('GET', '/api/v1/connections', { token });
const freshEnv = async (name: string): Promise<TestEnv> => createEnvironment(h.connector.store, { name });

describe('sessions and access tokens are revocable (item 11)', () => {
  it('sign-out revokes the session: the same cookie replayed afterwards goes back to sign-in', async () => {
    const env = await freshEnv('signout');
    const cookie = await signIn(env);
    const home = await dashboard(cookie);
    expect(home.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await home.text())![1]!;
    const out = await fetch(`${h.url}/dashboard/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(out.status).toBe(303);
    const replayed = await dashboard(cookie);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/dashboard/login?ended=1');
    // Another session of the same client is not affected.
    expect((await dashboard(await signIn(env))).status).toBe(200);
  });

  it('secret rotation revokes every token and session issued before it; the new secret works', async () => {
    const env = await freshEnv('rotate');
    const token = await accessToken(env);
    const cookie = await signIn(env);
    expect((await api(token)).status).toBe(200);
    // What `agent-connector environments rotate-secret` does.
    const secret = newClientSecret();
    expect(await h.connector.store.rotateAppClientSecret(env.clientId, await hashSecret(secret))).not.toBeNull();
    expect((await api(token)).status).toBe(401);
    expect((await dashboard(cookie)).status).toBe(303);
    const old = await h.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: env.clientId, client_secret: env.clientSecret } });
    expect(old.status).toBe(401);
    expect((await api(await accessToken({ ...env, clientSecret: secret }))).status).toBe(200);
  });

  it('client deletion revokes its tokens and sessions', async () => {
    const env = await freshEnv('delete-client');
    const token = await accessToken(env);
    const cookie = await signIn(env);
    expect(await h.connector.store.deleteAppClient(env.clientId)).toBe(true);
    expect((await api(token)).status).toBe(401);
    expect((await dashboard(cookie)).status).toBe(303);
  });

  it('environment deletion revokes its tokens and sessions, and leaves other environments alone', async () => {
    const env = await freshEnv('delete-env');
    const token = await accessToken(env);
    const cookie = await signIn(env);
    const other = await accessToken(h.a);
    expect(await h.connector.store.deleteEnvironment(env.environmentId)).toBe(true);
    expect((await api(token)).status).toBe(401);
    expect((await dashboard(cookie)).status).toBe(303);
    expect((await api(other)).status).toBe(200);
  });

  it('with the default cache, a revocation made by another process is seen within a second', async () => {
    const second = await startHarness({ rateLimit: false, credentialRateLimit: false });
    try {
      const created = await createEnvironment(second.connector.store, { name: 'cached' });
      const token = (await second.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret } })).body.access_token;
      expect((await second.call('GET', '/api/v1/connections', { token })).status).toBe(200);
      await second.connector.store.deleteAppClient(created.clientId);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await second.call('GET', '/api/v1/connections', { token })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
