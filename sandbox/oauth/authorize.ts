import { createHash } from 'node:crypto';
import type { OAuthProvider, RegisteredClient } from '../types.js';
import { renderConsentPage, renderErrorPage } from './consent-page.js';
import type { OAuthContext, OAuthRequest, OAuthResponse } from './context.js';

export const DEFAULT_SANDBOX_USER = 'alice@example.com';
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What the authorize endpoint decided from the query, once client and redirect URI are trusted. */
export interface AuthorizeDecision {
  scopes: string[];
  /** Whether a code from this request brings a refresh token (Google: only `access_type=offline`). */
  refreshToken: (ctx: OAuthContext, clientId: string, user: string) => boolean;
  /** Extra parameters on a successful redirect (Google adds `scope`, `authuser`, `prompt`). */
  callbackParams: (scopes: string[]) => Record<string, string>;
  /** Google `prompt=none`: answer without a page, for this login hint. */
  silent?: { loginHint: string | null };
  /** Google `include_granted_scopes=true`: the new grant also covers every scope the user granted the client before. */
  includeGranted?: boolean;
}

/** A provider family's authorize-endpoint quirks. */
export interface AuthorizeProfile {
  provider: OAuthProvider;
  providerName: string;
  /**
   * RFC 9207: the issuer identifier the provider adds as `iss` to every authorization response (success and error),
   * as Google does; null for providers that send none (HubSpot, Notion).
   */
  issuer: string | null;
  /** Notion: `redirect_uri` may be omitted when exactly one is registered. */
  redirectUriOptional: boolean;
  /** HubSpot's install URL has no `response_type`; when sent it must still be `code`. */
  responseTypeOptional?: boolean;
  scopesWithholdable: boolean;
  /** `required`: S256 challenge must be sent; `optional`: checked when sent; `ignored`: the provider has no PKCE. */
  pkce: 'required' | 'optional' | 'ignored';
  /** Provider-specific checks; returns an RFC 6749 error to send to the redirect URI, or the decision. */
  decide(q: URLSearchParams): { error: string; description: string } | AuthorizeDecision;
}

function errorRedirect(redirectUri: string, error: string, description: string, state: string | null, issuer: string | null): OAuthResponse {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  if (description) url.searchParams.set('error_description', description);
  if (state !== null) url.searchParams.set('state', state);
  if (issuer !== null) url.searchParams.set('iss', issuer);
  return { kind: 'redirect', location: url.toString() };
}

/**
 * The authorization endpoint (RFC 6749 section 4.1.1): GET shows the consent page, POST (the form) answers it.
 * Client id and redirect URI are checked before anything is sent to the redirect URI (section 4.1.2.1): a bad one
 * gets an error page, never a redirect.
 */
export function handleAuthorize(ctx: OAuthContext, profile: AuthorizeProfile, req: OAuthRequest): OAuthResponse {
  const q = req.query;
  const page = (status: number, error: string, description: string): OAuthResponse => ({
    kind: 'html',
    status,
    html: renderErrorPage(profile.providerName, error, description),
  });
  const client = ctx.store.client(profile.provider, q.get('client_id'));
  if (!client) return page(400, 'invalid_client', 'The OAuth client was not found.');
  const redirect = resolveRedirect(profile, client, q.get('redirect_uri'));
  if ('error' in redirect) return page(400, 'redirect_uri_mismatch', redirect.error);
  const state = q.get('state');
  const responseType = q.get('response_type') ?? (profile.responseTypeOptional ? 'code' : null);
  if (responseType !== 'code') {
    return errorRedirect(redirect.uri, 'unsupported_response_type', 'response_type must be code', state, profile.issuer);
  }
  const pkceError = checkPkce(profile, q);
  if (pkceError) return errorRedirect(redirect.uri, 'invalid_request', pkceError, state, profile.issuer);
  const decision = profile.decide(q);
  if ('error' in decision) return errorRedirect(redirect.uri, decision.error, decision.description, state, profile.issuer);

  const issue = (user: string, consented: string[]): OAuthResponse => {
    ctx.seedUser(user);
    const scopes = decision.includeGranted ? [...new Set([...ctx.store.grantedScopes(profile.provider, client.clientId, user), ...consented])] : consented;
    const code = ctx.store.issueCode(
      {
        provider: profile.provider,
        clientId: client.clientId,
        user,
        scopes,
        redirectUri: redirect.sent,
        codeChallenge: profile.pkce === 'ignored' ? null : q.get('code_challenge'),
        codeChallengeMethod: profile.pkce === 'ignored' ? null : (q.get('code_challenge_method') ?? (q.get('code_challenge') ? 'plain' : null)),
        issueRefreshToken: decision.refreshToken(ctx, client.clientId, user),
      },
      ctx.now(),
    );
    const url = new URL(redirect.uri);
    url.searchParams.set('code', code.code);
    if (state !== null) url.searchParams.set('state', state);
    if (profile.issuer !== null) url.searchParams.set('iss', profile.issuer);
    for (const [k, v] of Object.entries(decision.callbackParams(scopes))) url.searchParams.set(k, v);
    return { kind: 'redirect', location: url.toString() };
  };

  if (decision.silent) {
    const hint = decision.silent.loginHint;
    if (hint && ctx.store.hasConsented(profile.provider, client.clientId, hint)) return issue(hint, decision.scopes);
    return errorRedirect(redirect.uri, 'consent_required', 'prompt=none but the user has not consented', state, profile.issuer);
  }

  const defaultUser = q.get('login_hint') && EMAIL.test(q.get('login_hint') ?? '') ? (q.get('login_hint') as string) : DEFAULT_SANDBOX_USER;
  const consentPage = (status: number, error?: string): OAuthResponse => ({
    kind: 'html',
    status,
    html: renderConsentPage({
      providerName: profile.providerName,
      clientId: client.clientId,
      scopes: decision.scopes,
      scopesWithholdable: profile.scopesWithholdable,
      defaultUser,
      action: req.rawUrl,
      ...(error ? { error } : {}),
    }),
  });
  if (req.method === 'GET') return consentPage(200);
  if (req.method !== 'POST') return page(405, 'invalid_request', 'Use GET or POST');

  const form = new URLSearchParams(req.rawBody);
  const choice = form.get('decision');
  if (choice === 'deny') return errorRedirect(redirect.uri, 'access_denied', '', state, profile.issuer);
  if (choice !== 'allow') return consentPage(400, 'decision must be allow or deny');
  const user = (form.get('user') ?? '').trim().toLowerCase();
  if (!EMAIL.test(user)) return consentPage(400, 'user must be an e-mail address');
  const withheld = new Set(profile.scopesWithholdable ? form.getAll('withhold') : []);
  return issue(user, decision.scopes.filter((s) => !withheld.has(s)));
}

function resolveRedirect(
  profile: AuthorizeProfile,
  client: RegisteredClient,
  sent: string | null,
): { uri: string; sent: string | null } | { error: string } {
  if (sent !== null) {
    if (!client.redirectUris.includes(sent)) return { error: `redirect_uri is not registered for this client: ${sent}` };
    return { uri: sent, sent };
  }
  if (profile.redirectUriOptional && client.redirectUris.length === 1) return { uri: client.redirectUris[0] as string, sent: null };
  return { error: 'Missing required parameter: redirect_uri' };
}

function checkPkce(profile: AuthorizeProfile, q: URLSearchParams): string | null {
  if (profile.pkce === 'ignored') return null;
  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method');
  if (!challenge) {
    if (method) return 'code_challenge_method without code_challenge';
    return profile.pkce === 'required' ? 'Missing required parameter: code_challenge (PKCE S256 is required)' : null;
  }
  // RFC 7636 section 4.2: a base64url SHA-256 digest is 43 characters; plain challenges are 43..128 unreserved chars.
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) return 'Invalid code_challenge';
  if (method !== 'S256') return 'code_challenge_method must be S256';
  return null;
}

/** RFC 7636 section 4.6: S256 compares BASE64URL(SHA256(verifier)) with the challenge. */
export function verifyPkce(challenge: string, method: string | null, verifier: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  if (method === 'S256') return createHash('sha256').update(verifier).digest('base64url') === challenge;
  return method === 'plain' && verifier === challenge;
}
