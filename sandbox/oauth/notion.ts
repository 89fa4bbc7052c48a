import { randomUUID } from 'node:crypto';
import { notionUserId, notionWorkspaceId } from '../core/ids.js';
import type { AuthorizeProfile } from './authorize.js';
import { handleAuthorize } from './authorize.js';
import { fail, parseBasic, parseFields, type OAuthContext, type OAuthFailure, type OAuthRequest, type OAuthResponse } from './context.js';
import { authenticateClient, exchangeCode, refreshGrant, type ExchangeFailure } from './exchange.js';
import type { Grant } from './grant-store.js';
import type { RegisteredClient } from '../types.js';

/**
 * Notion's authorize quirks: no scopes (capabilities are set on the integration), `owner=user` required,
 * `redirect_uri` optional when exactly one is registered, no PKCE. The callback carries `code` and `state` only.
 * @see https://developers.notion.com/docs/authorization
 */
export const notionAuthorizeProfile: AuthorizeProfile = {
  provider: 'notion',
  providerName: 'Notion',
  issuer: null,
  redirectUriOptional: true,
  scopesWithholdable: false,
  pkce: 'ignored',
  decide(q) {
    if (q.get('owner') !== 'user') return { error: 'invalid_request', description: 'owner must be user' };
    return { scopes: [], refreshToken: () => true, callbackParams: () => ({}) };
  },
};

function render(f: OAuthFailure): OAuthResponse {
  return { kind: 'json', status: f.status, body: { error: f.error, error_description: f.description, request_id: randomUUID() } };
}

const EXCHANGE_ERRORS: Record<ExchangeFailure, OAuthFailure> = {
  code_invalid: fail(400, 'invalid_grant', 'Invalid code.'),
  code_reused: fail(400, 'invalid_grant', 'Invalid code.'),
  code_expired: fail(400, 'invalid_grant', 'Invalid code.'),
  code_other_client: fail(400, 'invalid_grant', 'Invalid code.'),
  redirect_mismatch: fail(400, 'invalid_grant', 'Invalid redirect_uri.'),
  verifier_missing: fail(400, 'invalid_grant', 'Invalid code.'),
  verifier_invalid: fail(400, 'invalid_grant', 'Invalid code.'),
};

/** The token response: no `expires_in` and no `scope`; the owner is the consenting user. */
function tokenBody(grant: Grant, accessToken: string, refreshToken: string | null) {
  const name = grant.user.split('@')[0] ?? grant.user;
  return {
    access_token: accessToken,
    token_type: 'bearer',
    refresh_token: refreshToken,
    bot_id: notionUserId(`bot|${grant.clientId}|${grant.user}`),
    workspace_id: notionWorkspaceId(grant.user),
    workspace_name: `${name}'s workspace`,
    workspace_icon: null,
    owner: {
      type: 'user',
      user: { object: 'user', id: notionUserId(grant.user), type: 'person', person: { email: grant.user }, name, avatar_url: null },
    },
    duplicated_template_id: null,
    request_id: randomUUID(),
  };
}

/** Client auth is HTTP Basic only, and the body is JSON. */
function clientFromBasic(ctx: OAuthContext, req: OAuthRequest): { failure: OAuthResponse } | { client: RegisteredClient } {
  const basic = parseBasic(req.headers['authorization']);
  if (!basic) return { failure: render(fail(401, 'invalid_client', 'Client authentication (HTTP Basic) is required.')) };
  const auth = authenticateClient(ctx, 'notion', basic.clientId, basic.clientSecret);
  if ('failure' in auth) return { failure: render(fail(401, 'invalid_client', 'Invalid client.')) };
  return { client: auth.client };
}

/** `POST /v1/oauth/token`: Basic auth, JSON body; refresh rotates the refresh token. */
export function notionToken(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  if (req.method !== 'POST') return render(fail(405, 'invalid_request', 'Method not allowed'));
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'json');
  ctx.store.tokenRequests.push({ provider: 'notion', grantType: fields?.grant_type ?? '' });
  const c = clientFromBasic(ctx, req);
  if ('failure' in c) return c.failure;
  if (!fields) return render(fail(400, 'invalid_request', 'The request body must be JSON.'));
  if (fields.grant_type === 'authorization_code') {
    if (!fields.code) return render(fail(400, 'invalid_request', 'code is required.'));
    const r = exchangeCode(
      ctx,
      'notion',
      c.client,
      { code: fields.code, redirectUri: fields.redirect_uri ?? null, codeVerifier: null },
      null,
    );
    if ('failure' in r) return render(EXCHANGE_ERRORS[r.failure]);
    return { kind: 'json', status: 200, body: tokenBody(r.grant, r.access.token, r.refresh?.token ?? null) };
  }
  if (fields.grant_type === 'refresh_token') {
    if (!fields.refresh_token) return render(fail(400, 'invalid_request', 'refresh_token is required.'));
    const r = refreshGrant(ctx, 'notion', c.client, fields.refresh_token, { rotate: true, lifetimeSeconds: null });
    if ('failure' in r) return render(fail(400, 'invalid_grant', 'Invalid refresh token.'));
    return { kind: 'json', status: 200, body: tokenBody(r.grant, r.access.token, r.refresh?.token ?? null) };
  }
  return render(fail(400, 'unsupported_grant_type', `Unsupported grant_type: ${fields.grant_type ?? ''}`));
}

/** `POST /v1/oauth/revoke` `{token}` with Basic auth: ends the grant (the bot's access). */
export function notionRevoke(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  if (req.method !== 'POST') return render(fail(405, 'invalid_request', 'Method not allowed'));
  const c = clientFromBasic(ctx, req);
  if ('failure' in c) return c.failure;
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'json');
  if (!fields?.token) return render(fail(400, 'invalid_request', 'token is required.'));
  const access = ctx.store.findAccess(fields.token);
  const refresh = ctx.store.lookupRefresh('notion', fields.token);
  const grantId = access?.provider === 'notion' && access.clientId === c.client.clientId ? access.grantId : refresh?.clientId === c.client.clientId ? refresh.grantId : null;
  if (grantId) ctx.store.revokeGrant(grantId);
  return { kind: 'json', status: 200, body: { request_id: randomUUID() } };
}

/** `POST /v1/oauth/introspect` `{token}` with Basic auth. */
export function notionIntrospect(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  const c = clientFromBasic(ctx, req);
  if ('failure' in c) return c.failure;
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'json');
  if (!fields?.token) return render(fail(400, 'invalid_request', 'token is required.'));
  const looked = ctx.store.lookupAccess('notion', fields.token, ctx.now());
  if (looked.ok) return { kind: 'json', status: 200, body: { active: true, iat: Math.floor(looked.record.issuedAt / 1000), request_id: randomUUID() } };
  return { kind: 'json', status: 200, body: { active: false, request_id: randomUUID() } };
}

/** Routes `/notion/v1/oauth/...`. */
export function notionOAuth(ctx: OAuthContext, req: OAuthRequest): OAuthResponse | null {
  switch (req.path) {
    case '/v1/oauth/authorize':
      return handleAuthorize(ctx, notionAuthorizeProfile, req);
    case '/v1/oauth/token':
      return notionToken(ctx, req);
    case '/v1/oauth/revoke':
      return notionRevoke(ctx, req);
    case '/v1/oauth/introspect':
      return notionIntrospect(ctx, req);
    default:
      return null;
  }
}
