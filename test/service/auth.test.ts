import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { AppAuth, TOKEN_ISSUER, signingKeyId } from '../../runtime/service/app-auth.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('POST /oauth/token', () => {
  it('issues a Bearer token for good client credentials sent as JSON', async () => {
    const res = await h.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(typeof res.body.access_token).toBe('string');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts form bodies and HTTP Basic client authentication', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: h.a.clientId, client_secret: h.a.clientSecret });
    const viaForm = await h.call('POST', '/oauth/token', { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(viaForm.status).toBe(200);
    const basic = Buffer.from(`${h.a.clientId}:${h.a.clientSecret}`).toString('base64');
    const viaBasic = await h.call('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    expect(viaBasic.status).toBe(200);
  });

  it.each([
    ['a wrong secret', () => ({ client_id: h.a.clientId, client_secret: `${h.a.clientSecret}x` })],
    ['an unknown client', () => ({ client_id: 'ac_nobody', client_secret: h.a.clientSecret })],
    ["another environment's secret", () => ({ client_id: h.a.clientId, client_secret: h.b.clientSecret })],
    ['no secret', () => ({ client_id: h.a.clientId })],
  ])('answers 401 invalid_client for %s', async (_name, creds) => {
    const res = await h.call('POST', '/oauth/token', { body: { grant_type: 'client_credentials', ...creds() } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(JSON.stringify(res.body)).not.toContain(h.a.clientSecret);
  });

  it('refuses other grant types', async () => {
    const res = await h.call('POST', '/oauth/token', { body: { grant_type: 'password', client_id: h.a.clientId, client_secret: h.a.clientSecret } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });
});

describe('Bearer on /api/v1', () => {
  it('lets a valid token through', async () => {
    const res = await h.call('GET', '/api/v1/connections', { token: await h.token(h.a) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connections: [] });
  });

  it.each([
    ['no Authorization header', undefined],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
  ])('answers 401 unauthorized with %s', async (_name, authorization) => {
    const res = await h.call('GET', '/api/v1/connections', authorization ? { headers: { authorization } } : {});
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses an expired token and one signed with another key', async () => {
    const past = new AppAuth(h.connector.store, { signingKey: h.signingKey, tokenTtlSeconds: 60, now: () => Date.now() - 3600_000 });
    const expired = await past.issueAccessToken({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });
    const res = await h.call('GET', '/api/v1/connections', { token: expired.access_token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);

    const foreign = new AppAuth(h.connector.store, { signingKey: new Uint8Array(32).fill(7) });
    const forged = await foreign.issueAccessToken({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });
    expect((await h.call('GET', '/api/v1/connections', { token: forged.access_token })).status).toBe(401);
  });

  it('a token verified once is refused after it expires, and an altered copy of it never verifies', async () => {
    const clock = { now: Date.now() };
    const auth = new AppAuth(h.connector.store, { signingKey: h.signingKey, tokenTtlSeconds: 60, now: () => clock.now });
    const { access_token: token } = await auth.issueAccessToken({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });
    expect(await auth.verifyAccessToken(token)).toEqual({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });
    // Remembered now: a changed signature, or the same token for the session audience, must still be refused.
    const [head, body, sig] = token.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(await auth.verifyAccessToken(flipped)).toBeNull();
    expect(await auth.verifySession(token)).toBeNull();
    expect(await auth.verifyAccessToken(token)).not.toBeNull();
    clock.now += 61_000;
    expect(await auth.verifyAccessToken(token)).toBeNull();
  });

  it('does not accept a dashboard session token as an API token', async () => {
    const auth = new AppAuth(h.connector.store, { signingKey: h.signingKey });
    const session = await auth.issueSession({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });
    expect((await h.call('GET', '/api/v1/connections', { token: session.token })).status).toBe(401);
  });
});

describe('signing key rotation (several keys: the first signs, all verify)', () => {
  const oldKey = new Uint8Array(randomBytes(32));
  const newKey = new Uint8Array(randomBytes(32));
  const claims = () => ({ environmentId: h.a.environmentId, clientId: h.a.clientId, generation: 0 });

  it('accepts access tokens of the old key while it is listed second, refuses them once it is removed', async () => {
    const before = new AppAuth(h.connector.store, { signingKey: oldKey });
    const during = new AppAuth(h.connector.store, { signingKey: [newKey, oldKey] });
    const after = new AppAuth(h.connector.store, { signingKey: [newKey] });
    const old = (await before.issueAccessToken(claims())).access_token;
    expect(decodeProtectedHeader(old).kid).toBe(signingKeyId(oldKey));
    expect(await during.verifyAccessToken(old)).toEqual(claims());
    expect(await after.verifyAccessToken(old)).toBeNull();

    const fresh = (await during.issueAccessToken(claims())).access_token;
    expect(decodeProtectedHeader(fresh).kid).toBe(signingKeyId(newKey));
    expect(await after.verifyAccessToken(fresh)).toEqual(claims());
    // Rolling restart, first step: an instance with the new key listed second accepts what the rotated ones sign.
    expect(await new AppAuth(h.connector.store, { signingKey: [oldKey, newKey] }).verifyAccessToken(fresh)).toEqual(claims());
    expect(await before.verifyAccessToken(fresh)).toBeNull();
  });

  it('does the same for dashboard sessions', async () => {
    const during = new AppAuth(h.connector.store, { signingKey: [newKey, oldKey] });
    const old = await new AppAuth(h.connector.store, { signingKey: [oldKey] }).issueSession(claims());
    expect(await during.verifySession(old.token)).toMatchObject({ ...claims(), csrf: old.csrf });
    expect(await new AppAuth(h.connector.store, { signingKey: newKey }).verifySession(old.token)).toBeNull();
    const fresh = await during.issueSession(claims());
    expect(decodeProtectedHeader(fresh.token).kid).toBe(signingKeyId(newKey));
    expect(await new AppAuth(h.connector.store, { signingKey: newKey }).verifySession(fresh.token)).toMatchObject({ ...claims(), csrf: fresh.csrf });
  });

  it('refuses a token naming a kid not listed, and checks a token without a kid (signed before kids) against the first key', async () => {
    const auth = new AppAuth(h.connector.store, { signingKey: [newKey, oldKey] });
    const sign = (key: Uint8Array, kid?: string) =>
      new SignJWT({ env: h.a.environmentId, cid: h.a.clientId, gen: 0 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid === undefined ? {} : { kid }) })
        .setIssuer(TOKEN_ISSUER)
        .setAudience('agent-connector:api')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    expect(await auth.verifyAccessToken(await sign(newKey, 'not-listed'))).toBeNull();
    expect(await auth.verifyAccessToken(await sign(oldKey, signingKeyId(newKey)))).toBeNull();
    expect(await auth.verifyAccessToken(await sign(newKey))).toEqual(claims());
    expect(await auth.verifyAccessToken(await sign(oldKey))).toBeNull();
  });

  it('refuses a short key in the list', () => {
    expect(() => new AppAuth(h.connector.store, { signingKey: [newKey, new Uint8Array(16)] })).toThrow(RangeError);
    expect(() => new AppAuth(h.connector.store, { signingKey: [] })).toThrow(RangeError);
  });
});
