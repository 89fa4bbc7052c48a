import { randomUUID } from 'node:crypto';
import { hubspotHubId, hubspotUserId } from '../core/ids.js';
import type { AuthorizeProfile } from './authorize.js';
import { handleAuthorize } from './authorize.js';
import { fail, parseFields, type OAuthContext, type OAuthFailure, type OAuthRequest, type OAuthResponse } from './context.js';
import { authenticateClient, exchangeCode, refreshGrant, type ExchangeFailure } from './exchange.js';

/** HubSpot access tokens live 30 minutes. */
export const HUBSPOT_ACCESS_TOKEN_SECONDS = 1800;

/**
 * HubSpot's authorize quirks: `scope` required (space-separated) plus `optional_scope`; PKCE checked when a
 * challenge is sent. The callback carries `code` and `state`.
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 */
export const hubspotAuthorizeProfile: AuthorizeProfile = {
  provider: 'hubspot',
  providerName: 'HubSpot',
  issuer: null,
  redirectUriOptional: false,
  responseTypeOptional: true,
  scopesWithholdable: false,
  pkce: 'optional',
  decide(q) {
    const scope = (q.get('scope') ?? '').split(/[ +]/).filter(Boolean);
    if (!scope.length) return { error: 'invalid_scope', description: 'scope is required' };
    const optional = (q.get('optional_scope') ?? '').split(/[ +]/).filter(Boolean);
    return { scopes: [...scope, ...optional.filter((s) => !scope.includes(s))], refreshToken: () => true, callbackParams: () => ({}) };
  },
};

/** HubSpot's OAuth errors carry the legacy `status`/`message` beside RFC 6749 `error`/`error_description`. */
function render(f: OAuthFailure): OAuthResponse {
  return {
    kind: 'json',
    status: f.status,
    body: {
      status: f.legacyStatus ?? 'error',
      message: f.description,
      correlationId: randomUUID(),
      error: f.error,
      error_description: f.description,
    },
  };
}

const BAD_CODE = fail(400, 'invalid_grant', 'missing or unknown auth code', 'BAD_AUTH_CODE');
const EXCHANGE_ERRORS: Record<ExchangeFailure, OAuthFailure> = {
  code_invalid: BAD_CODE,
  code_reused: BAD_CODE,
  code_expired: fail(400, 'invalid_grant', 'auth code expired', 'BAD_AUTH_CODE'),
  code_other_client: BAD_CODE,
  redirect_mismatch: fail(400, 'invalid_grant', 'redirect_uri does not match the one used to obtain the auth code', 'BAD_REDIRECT_URI'),
  verifier_missing: fail(400, 'invalid_grant', 'missing code_verifier', 'BAD_AUTH_CODE'),
  verifier_invalid: fail(400, 'invalid_grant', 'code_verifier does not match the code_challenge', 'BAD_AUTH_CODE'),
};

/**
 * A token answer. Since 2025-08-18 HubSpot adds the token's `hub_id` and its `scopes` (an array) to every one, from a
 * code or a refresh (developer changelog: "Additional details returned when generating OAuth access tokens").
 */
function tokenAnswer(access: { token: string; user: string; scopes: string[] }, refreshToken: string | undefined): OAuthResponse {
  return {
    kind: 'json',
    status: 200,
    body: { token_type: 'bearer', refresh_token: refreshToken, hub_id: hubspotHubId(access.user), scopes: access.scopes, access_token: access.token, expires_in: HUBSPOT_ACCESS_TOKEN_SECONDS },
  };
}

/** `POST /oauth/v1/token`: form body, client credentials in the body only (never HTTP Basic); no rotation. */
export function hubspotToken(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  if (req.method !== 'POST') return render(fail(405, 'invalid_request', 'Method not allowed'));
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'form');
  if (!fields) return render(fail(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded', 'BAD_REQUEST'));
  const grantType = fields.grant_type ?? '';
  ctx.store.tokenRequests.push({ provider: 'hubspot', grantType });
  const auth = authenticateClient(ctx, 'hubspot', fields.client_id, fields.client_secret);
  if ('failure' in auth) {
    return render(
      auth.failure === 'unknown_client'
        ? fail(400, 'invalid_client', 'missing or unknown client id', 'BAD_CLIENT_ID')
        : fail(400, 'invalid_client', 'missing or invalid client secret', 'BAD_CLIENT_SECRET'),
    );
  }
  if (grantType === 'authorization_code') {
    if (!fields.code) return render(BAD_CODE);
    if (!fields.redirect_uri) return render(fail(400, 'invalid_request', 'missing redirect_uri', 'BAD_REDIRECT_URI'));
    const r = exchangeCode(
      ctx,
      'hubspot',
      auth.client,
      { code: fields.code, redirectUri: fields.redirect_uri, codeVerifier: fields.code_verifier ?? null },
      HUBSPOT_ACCESS_TOKEN_SECONDS,
    );
    if ('failure' in r) return render(EXCHANGE_ERRORS[r.failure]);
    return tokenAnswer(r.access, r.refresh?.token);
  }
  if (grantType === 'refresh_token') {
    const token = fields.refresh_token;
    const r = token ? refreshGrant(ctx, 'hubspot', auth.client, token, { rotate: false, lifetimeSeconds: HUBSPOT_ACCESS_TOKEN_SECONDS }) : null;
    if (!r || 'failure' in r) return render(fail(400, 'invalid_grant', 'missing or unknown refresh token', 'BAD_REFRESH_TOKEN'));
    return tokenAnswer(r.access, r.refresh?.token);
  }
  return render(fail(400, 'unsupported_grant_type', `unsupported grant_type: ${grantType}`, 'BAD_GRANT_TYPE'));
}

/**
 * `DELETE /oauth/v1/refresh-tokens/{token}` -> 204. Only the refresh token dies; access tokens already issued
 * keep working until they expire. `GET` on the same path and on `/oauth/v1/access-tokens/{token}` return token info.
 */
export function hubspotTokenPaths(ctx: OAuthContext, req: OAuthRequest): OAuthResponse | null {
  const refreshMatch = /^\/oauth\/v1\/refresh-tokens\/([^/]+)$/.exec(req.path);
  if (refreshMatch) {
    const token = decodeURIComponent(refreshMatch[1] as string);
    const record = ctx.store.lookupRefresh('hubspot', token);
    if (!record || record.revoked) return render(fail(404, 'invalid_grant', 'refresh token not found', 'NOT_FOUND'));
    if (req.method === 'DELETE') {
      record.revoked = true;
      return { kind: 'empty', status: 204 };
    }
    if (req.method === 'GET') {
      const grant = ctx.store.grant(record.grantId);
      return { kind: 'json', status: 200, body: { token, user: record.user, hub_id: hubspotHubId(record.user), scopes: grant?.scopes ?? [], client_id: record.clientId, token_type: 'refresh' } };
    }
    return render(fail(405, 'invalid_request', 'Method not allowed'));
  }
  const accessMatch = /^\/oauth\/v1\/access-tokens\/([^/]+)$/.exec(req.path);
  if (accessMatch && req.method === 'GET') {
    const token = decodeURIComponent(accessMatch[1] as string);
    const looked = ctx.store.lookupAccess('hubspot', token, ctx.now());
    if (!looked.ok) return render(fail(404, 'invalid_token', 'access token not found or expired', 'NOT_FOUND'));
    const r = looked.record;
    return {
      kind: 'json',
      status: 200,
      body: {
        token,
        user: r.user,
        hub_id: hubspotHubId(r.user),
        scopes: r.scopes,
        app_id: 1,
        expires_in: r.expiresAt === null ? null : Math.max(0, Math.floor((r.expiresAt - ctx.now()) / 1000)),
        user_id: hubspotUserId(r.user),
        token_type: 'access',
      },
    };
  }
  return null;
}

/** Routes `/hubspot/oauth/...`. */
export function hubspotOAuth(ctx: OAuthContext, req: OAuthRequest): OAuthResponse | null {
  if (req.path === '/oauth/authorize') return handleAuthorize(ctx, hubspotAuthorizeProfile, req);
  if (req.path === '/oauth/v1/token' || req.path === '/oauth/v3/token') return hubspotToken(ctx, req);
  return hubspotTokenPaths(ctx, req);
}
