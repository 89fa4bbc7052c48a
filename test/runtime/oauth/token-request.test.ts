import { describe, expect, it } from 'vitest';
import { buildAuthorizeUrl } from '../../../runtime/oauth/authorize-url.js';
import { createPkce, s256 } from '../../../runtime/oauth/pkce.js';
import { buildRevocationRequest } from '../../../runtime/oauth/revoke.js';
import { buildTokenRequest, processTokenResponse, TokenEndpointError } from '../../../runtime/oauth/token-request.js';
import type { OAuthDefinition } from '../../../runtime/types.js';
import { loadDefinitions } from '../connector-harness.js';

const defs = await loadDefinitions();
const oauth = (name: string): OAuthDefinition => defs.connectors.find((c) => c.name === name)!.oauth;
const client = { clientId: 'cid', clientSecret: 's3cret' };
const json = (status: number, body: unknown) => ({ status, body: Buffer.from(JSON.stringify(body)) });
const NOW = Date.parse('2026-03-01T00:00:00Z');

describe('token request builders', () => {
  it('Notion: JSON body, HTTP Basic, no credentials in the body', () => {
    const call = buildTokenRequest(oauth('workspace'), 'https://n/token', client, { grant_type: 'refresh_token', refresh_token: 'rt' });
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('cid:s3cret').toString('base64')}`);
    expect(JSON.parse(call.body as string)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt' });
    expect(call.retry).toBe(false);
  });

  it('HubSpot and Google: form body with the credentials in it, never Basic', () => {
    for (const name of ['crm', 'calendar']) {
      const call = buildTokenRequest(oauth(name), 'https://h/token', client, { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://s/cb', code_verifier: 'v' });
      expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(call.headers.authorization).toBeUndefined();
      expect(Object.fromEntries(new URLSearchParams(call.body as string))).toEqual({
        grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://s/cb', code_verifier: 'v', client_id: 'cid', client_secret: 's3cret',
      });
    }
  });

  it('revocation in each style', () => {
    const tokens = { accessToken: 'at', refreshToken: 'rt/x', expiresAt: null, tokenType: 'bearer', scopes: [] };
    const hub = buildRevocationRequest(oauth('crm'), 'https://h/oauth/v1/refresh-tokens', client, tokens)!;
    expect([hub.method, hub.url]).toEqual(['DELETE', 'https://h/oauth/v1/refresh-tokens/rt%2Fx']);
    const notion = buildRevocationRequest(oauth('workspace'), 'https://n/revoke', client, tokens)!;
    expect(JSON.parse(notion.body as string)).toEqual({ token: 'at' });
    expect(notion.headers.authorization).toMatch(/^Basic /);
    const google = buildRevocationRequest(oauth('calendar'), 'https://g/revoke', client, tokens)!;
    expect(new URLSearchParams(google.body as string).get('token')).toBe('rt/x');
  });
});

describe('processTokenResponse', () => {
  it('Notion: no expires_in (no expiry), no scope, provider facts kept, tokens not', () => {
    const out = processTokenResponse(oauth('workspace'), json(200, { access_token: 'a', refresh_token: 'r', token_type: 'bearer', bot_id: 'b', workspace_name: 'W' }), {
      now: NOW, previousRefreshToken: null, requestedScopes: [],
    });
    expect(out.tokens).toEqual({ accessToken: 'a', refreshToken: 'r', expiresAt: null, tokenType: 'bearer', scopes: [] });
    expect(out.providerInfo).toEqual({ bot_id: 'b', workspace_name: 'W' });
  });

  it('keeps only the connector\'s provider_info_fields: a nested or unknown token is never providerInfo', () => {
    const notion = processTokenResponse(
      oauth('workspace'),
      json(200, {
        access_token: 'a', refresh_token: 'r', token_type: 'bearer', bot_id: 'b', workspace_id: 'w', owner: { type: 'user', user: { id: 'u' } },
        authed_user: { id: 'U1', access_token: 'xoxp-nested-secret' }, request_id: 'req', id_token: 'jwt',
      }),
      { now: NOW, previousRefreshToken: null, requestedScopes: [] },
    );
    expect(notion.providerInfo).toEqual({ bot_id: 'b', workspace_id: 'w', owner: { type: 'user', user: { id: 'u' } } });
    const google = processTokenResponse(oauth('calendar'), json(200, { access_token: 'a', expires_in: 3599, token_type: 'Bearer', scope: 'x', id_token: 'eyJ.jwt.sig', extra: { access_token: 'nested' } }), {
      now: NOW, previousRefreshToken: 'rt', requestedScopes: ['x'],
    });
    expect(google.providerInfo).toEqual({});
    const hubspot = processTokenResponse(oauth('crm'), json(200, { access_token: 'a', refresh_token: 'r', expires_in: 1800, token_type: 'bearer', hub_id: 42, other_token: 'x' }), {
      now: NOW, previousRefreshToken: null, requestedScopes: ['crm.objects.contacts.read'],
    });
    expect(hubspot.providerInfo).toEqual({ hub_id: 42 });
    expect(JSON.stringify([notion.providerInfo, google.providerInfo, hubspot.providerInfo])).not.toMatch(/nested|jwt|other_token/);
  });

  it('Google refresh: expires_in and granted scopes; the missing refresh_token keeps the old one', () => {
    const out = processTokenResponse(oauth('calendar'), json(200, { access_token: 'a2', expires_in: 3599, token_type: 'Bearer', scope: 'x y' }), {
      now: NOW, previousRefreshToken: 'old-rt', requestedScopes: ['x', 'y', 'z'],
    });
    expect(out.tokens.refreshToken).toBe('old-rt');
    expect(out.tokens.expiresAt).toBe(new Date(NOW + 3_599_000).toISOString());
    expect(out.tokens.scopes).toEqual(['x', 'y']);
  });

  it('HubSpot: no scope in the answer -> the requested scopes; lifetime from expires_in', () => {
    const out = processTokenResponse(oauth('crm'), json(200, { access_token: 'a', refresh_token: 'r', expires_in: 1800 }), { now: NOW, previousRefreshToken: null, requestedScopes: ['s'] });
    expect(out.tokens.scopes).toEqual(['s']);
    expect(out.tokens.expiresAt).toBe(new Date(NOW + 1_800_000).toISOString());
  });

  it.each([
    ['RFC', { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }],
    ['Notion', { object: 'error', status: 400, code: 'invalid_grant', message: 'Invalid refresh token.' }],
    ['HubSpot legacy', { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' }],
  ])('recognizes invalid_grant in the %s shape', (_shape, body) => {
    let error: unknown;
    try {
      processTokenResponse(oauth('calendar'), json(400, body), { now: NOW, previousRefreshToken: 'r', requestedScopes: [] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect((error as TokenEndpointError).isInvalidGrant).toBe(true);
  });

  it('refuses answers that are not usable token responses', () => {
    const opts = { now: NOW, previousRefreshToken: null, requestedScopes: [] };
    expect(() => processTokenResponse(oauth('calendar'), { status: 200, body: Buffer.from('<html>') }, opts)).toThrow(TokenEndpointError);
    expect(() => processTokenResponse(oauth('calendar'), json(200, { token_type: 'bearer' }), opts)).toThrow(/access_token/);
    expect(() => processTokenResponse(oauth('calendar'), json(200, { access_token: 'a', token_type: 'mac' }), opts)).toThrow(/token_type/);
    expect(() => processTokenResponse(oauth('calendar'), json(500, { error: 'server_error' }), opts)).toThrow(TokenEndpointError);
  });
});

describe('authorize URL and PKCE', () => {
  it('S256 challenge of the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const p = createPkce();
    expect(p.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.challenge).toBe(s256(p.verifier));
  });

  it('extra parameters cannot override protocol parameters', () => {
    const def = { ...oauth('calendar'), extraAuthorizeParams: { redirect_uri: 'https://evil', state: 'x', prompt: 'consent' } };
    const url = new URL(buildAuthorizeUrl(def, { authorizationUrl: 'https://a/auth', clientId: 'c', redirectUri: 'https://s/cb', scopes: ['a', 'b'], state: 'st' }));
    expect(url.searchParams.get('redirect_uri')).toBe('https://s/cb');
    expect(url.searchParams.get('state')).toBe('st');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('scope')).toBe('a b');
  });
});
