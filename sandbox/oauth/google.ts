import type { AuthorizeDecision, AuthorizeProfile } from './authorize.js';
import { handleAuthorize } from './authorize.js';
import { fail, parseBasic, parseFields, type OAuthContext, type OAuthFailure, type OAuthRequest, type OAuthResponse } from './context.js';
import { authenticateClient, exchangeCode, refreshGrant, type ExchangeFailure } from './exchange.js';

/** Google's access tokens live one hour; the token response says 3599 seconds. */
export const GOOGLE_ACCESS_TOKEN_SECONDS = 3599;

const PROMPTS = new Set(['none', 'consent', 'select_account']);

/**
 * Google's authorize-endpoint quirks: `scope` required (space-separated), `access_type=offline` needed for a refresh
 * token (which comes only on the first consent unless `prompt=consent`), `prompt` values, PKCE (this sandbox requires
 * S256). The callback carries `code`, `state`, `scope`, `authuser`, `prompt` and no `iss`.
 * @see https://developers.google.com/identity/protocols/oauth2/web-server
 */
export const googleAuthorizeProfile: AuthorizeProfile = {
  provider: 'google',
  providerName: 'Google',
  // Google's discovery document says authorization_response_iss_parameter_supported: true.
  issuer: 'https://accounts.google.com',
  redirectUriOptional: false,
  scopesWithholdable: true,
  pkce: 'required',
  decide(q) {
    const scope = q.get('scope');
    if (!scope || !scope.trim()) return { error: 'invalid_request', description: 'Missing required parameter: scope' };
    const accessType = q.get('access_type') ?? 'online';
    if (accessType !== 'online' && accessType !== 'offline') {
      return { error: 'invalid_request', description: `Invalid access_type: ${accessType}` };
    }
    const prompts = (q.get('prompt') ?? '').split(' ').filter(Boolean);
    if (prompts.some((p) => !PROMPTS.has(p))) return { error: 'invalid_request', description: `Invalid prompt: ${q.get('prompt')}` };
    if (prompts.includes('none') && prompts.length > 1) {
      return { error: 'invalid_request', description: 'prompt=none cannot be combined with other values' };
    }
    const forceConsent = prompts.includes('consent');
    const decision: AuthorizeDecision = {
      scopes: scope.split(' ').filter(Boolean),
      refreshToken: (ctx, clientId, user) =>
        accessType === 'offline' && ctx.store.shouldIssueOfflineRefresh('google', clientId, user, forceConsent),
      callbackParams: (scopes) => ({ scope: scopes.join(' '), authuser: '0', prompt: forceConsent ? 'consent' : 'none' }),
    };
    if (prompts.includes('none')) decision.silent = { loginHint: q.get('login_hint') };
    // Incremental authorization: the new token also carries what the user granted this client before.
    if (q.get('include_granted_scopes') === 'true') decision.includeGranted = true;
    return decision;
  },
};

function render(f: OAuthFailure): OAuthResponse {
  return { kind: 'json', status: f.status, body: { error: f.error, error_description: f.description } };
}

const EXCHANGE_ERRORS: Record<ExchangeFailure, OAuthFailure> = {
  code_invalid: fail(400, 'invalid_grant', 'Malformed auth code.'),
  code_reused: fail(400, 'invalid_grant', 'Bad Request'),
  code_expired: fail(400, 'invalid_grant', 'Bad Request'),
  code_other_client: fail(400, 'invalid_grant', 'Bad Request'),
  redirect_mismatch: fail(400, 'redirect_uri_mismatch', 'Bad Request'),
  verifier_missing: fail(400, 'invalid_grant', 'Missing code verifier.'),
  verifier_invalid: fail(400, 'invalid_grant', 'Invalid code verifier.'),
};

/**
 * `POST /token`: form body; client credentials in the body (`client_secret_post`) or HTTP Basic
 * (`client_secret_basic`). Refresh does not rotate: the response has no `refresh_token`.
 */
export function googleToken(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  if (req.method !== 'POST') return render(fail(405, 'invalid_request', 'Method not allowed'));
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'form');
  if (!fields) return render(fail(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded'));
  const basic = parseBasic(req.headers['authorization']);
  if (basic && fields.client_id && fields.client_id !== basic.clientId) {
    return render(fail(400, 'invalid_request', 'client_id in the body does not match the Authorization header'));
  }
  const clientId = basic?.clientId ?? fields.client_id;
  const auth = authenticateClient(ctx, 'google', clientId, basic?.clientSecret ?? fields.client_secret);
  const grantType = fields.grant_type ?? '';
  ctx.store.tokenRequests.push({ provider: 'google', grantType });
  if ('failure' in auth) {
    return render(fail(401, 'invalid_client', auth.failure === 'unknown_client' ? 'The OAuth client was not found.' : 'Unauthorized'));
  }
  if (grantType === 'authorization_code') {
    if (!fields.code) return render(fail(400, 'invalid_request', 'Missing required parameter: code'));
    if (!fields.redirect_uri) return render(fail(400, 'invalid_request', 'Missing parameter: redirect_uri'));
    const r = exchangeCode(
      ctx,
      'google',
      auth.client,
      { code: fields.code, redirectUri: fields.redirect_uri, codeVerifier: fields.code_verifier ?? null },
      GOOGLE_ACCESS_TOKEN_SECONDS,
    );
    if ('failure' in r) return render(EXCHANGE_ERRORS[r.failure]);
    return {
      kind: 'json',
      status: 200,
      body: {
        access_token: r.access.token,
        expires_in: GOOGLE_ACCESS_TOKEN_SECONDS,
        ...(r.refresh ? { refresh_token: r.refresh.token } : {}),
        scope: r.grant.scopes.join(' '),
        token_type: 'Bearer',
      },
    };
  }
  if (grantType === 'refresh_token') {
    if (!fields.refresh_token) return render(fail(400, 'invalid_request', 'Missing required parameter: refresh_token'));
    const r = refreshGrant(ctx, 'google', auth.client, fields.refresh_token, { rotate: false, lifetimeSeconds: GOOGLE_ACCESS_TOKEN_SECONDS });
    if ('failure' in r) return render(fail(400, 'invalid_grant', 'Token has been expired or revoked.'));
    return {
      kind: 'json',
      status: 200,
      body: { access_token: r.access.token, expires_in: GOOGLE_ACCESS_TOKEN_SECONDS, scope: r.grant.scopes.join(' '), token_type: 'Bearer' },
    };
  }
  return render(fail(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`));
}

/**
 * `POST /revoke` with `token=` (form body or query): revoking an access or a refresh token ends the whole grant.
 * @see https://developers.google.com/identity/protocols/oauth2/web-server#tokenrevoke
 */
export function googleRevoke(ctx: OAuthContext, req: OAuthRequest): OAuthResponse {
  if (req.method !== 'POST') return render(fail(405, 'invalid_request', 'Method not allowed'));
  const fields = parseFields(req.rawBody, req.headers['content-type'], 'form') ?? {};
  const token = fields.token ?? req.query.get('token');
  if (!token) return render(fail(400, 'invalid_request', 'Missing required parameter: token'));
  const access = ctx.store.findAccess(token);
  const refresh = ctx.store.lookupRefresh('google', token);
  const grantId = access?.provider === 'google' && !access.revoked ? access.grantId : refresh && !refresh.revoked ? refresh.grantId : null;
  if (!grantId) return render(fail(400, 'invalid_token', 'Token expired or revoked'));
  ctx.store.revokeGrant(grantId);
  return { kind: 'json', status: 200, body: {} };
}

/** Routes `/google/...`. */
export function googleOAuth(ctx: OAuthContext, req: OAuthRequest): OAuthResponse | null {
  if (req.path === '/o/oauth2/v2/auth' || req.path === '/o/oauth2/auth') return handleAuthorize(ctx, googleAuthorizeProfile, req);
  if (req.path === '/token') return googleToken(ctx, req);
  if (req.path === '/revoke' || req.path === '/o/oauth2/revoke') return googleRevoke(ctx, req);
  return null;
}
