/**
 * Token endpoint: request builder and response processor, as a pair (oauth4webapi's shape, hand-written because the
 * providers' quirks are the point: Notion takes a JSON body with HTTP Basic and answers without `expires_in`;
 * HubSpot wants the client credentials in the form body; Google accepts either and answers RFC 6749 to the letter).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 */
import type { UpstreamCall, UpstreamResponse } from '../http/client.js';
import type { ClientCredentials, TokenSet } from '../store/types.js';
import type { OAuthDefinition } from '../types.js';
import { oauthScopes } from './no-scopes.js';

export type TokenGrant =
  | { grant_type: 'authorization_code'; code: string; redirect_uri: string; code_verifier?: string }
  | { grant_type: 'refresh_token'; refresh_token: string };


/** `application/x-www-form-urlencoded` encoding of one credential, as RFC 6749 §2.3.1 asks before Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * Adds the connector's client authentication to a parameter set and headers: HTTP Basic, or `client_id` and
 * `client_secret` among the parameters.
 */
export function applyClientAuth(oauth: OAuthDefinition, client: ClientCredentials, params: Record<string, string>, headers: Record<string, string>): void {
  if (oauth.clientAuth === 'basic') {
    const basic = Buffer.from(`${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
  } else {
    params.client_id = client.clientId;
    params.client_secret = client.clientSecret;
  }
}

/** Serializes parameters in the connector's token request format and sets the Content-Type. */
export function encodeParams(format: OAuthDefinition['tokenRequestFormat'], params: Record<string, string>, headers: Record<string, string>): string {
  if (format === 'json') {
    headers['content-type'] = 'application/json';
    return JSON.stringify(params);
  }
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return new URLSearchParams(params).toString();
}

/** Builds the token request. Never retried by the HTTP layer: a rotating refresh token is single-use. */
export function buildTokenRequest(oauth: OAuthDefinition, tokenUrl: string, client: ClientCredentials, grant: TokenGrant): UpstreamCall {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(grant)) if (value !== undefined) params[key] = value;
  const headers: Record<string, string> = { accept: 'application/json' };
  applyClientAuth(oauth, client, params, headers);
  const body = encodeParams(oauth.tokenRequestFormat, params, headers);
  return { method: 'POST', url: tokenUrl, headers, body, retry: false };
}

/** A refusal from the token endpoint, with the RFC 6749 §5.2 error code when the provider gave one. */
export class TokenEndpointError extends Error {
  constructor(
    /** `invalid_grant`, `invalid_client`, ... or `invalid_response` when the answer is not a usable token response. */
    readonly oauthError: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'TokenEndpointError';
  }

  get isInvalidGrant(): boolean {
    return this.oauthError === 'invalid_grant';
  }
}

export interface ProcessedTokens {
  tokens: TokenSet;
  /** Non-secret facts from the response, only the connector's `providerInfoFields` (Notion's workspace and bot ids); never a token. */
  providerInfo: Record<string, unknown>;
}

export interface ProcessOptions {
  now: number;
  /** Kept when the response carries no `refresh_token` (Google and HubSpot refreshes). */
  previousRefreshToken: string | null;
  /** Used when the response carries no `scope` (Notion, HubSpot). */
  requestedScopes: readonly string[];
}

/** Response members that are secrets or protocol fields, never copied into `providerInfo` even if a spec lists one. */
const PROTOCOL_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'expires_in', 'token_type', 'scope', 'refresh_token_expires_in']);
/** Error-code shapes the providers use: RFC `error`, Notion `code`, HubSpot legacy `status`. */
const LEGACY_INVALID_GRANT = new Set(['BAD_REFRESH_TOKEN', 'BAD_AUTH_CODE', 'EXPIRED_AUTH_CODE']);

function errorCode(body: Record<string, unknown>): string {
  for (const key of ['error', 'code'] as const) {
    const value = body[key];
    if (typeof value === 'string' && /^[a-z_]{1,64}$/.test(value)) return value;
  }
  if (typeof body.status === 'string' && LEGACY_INVALID_GRANT.has(body.status)) return 'invalid_grant';
  return 'invalid_response';
}

/** Validates a token endpoint answer and turns it into a {@link TokenSet}; throws {@link TokenEndpointError}. */
export function processTokenResponse(oauth: OAuthDefinition, res: Pick<UpstreamResponse, 'status' | 'body'>, options: ProcessOptions): ProcessedTokens {
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new TokenEndpointError('invalid_response', res.status, `The token endpoint answered ${res.status} without a JSON body.`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new TokenEndpointError('invalid_response', res.status, `The token endpoint answered ${res.status} with a non-object body.`);
  }
  const b = body as Record<string, unknown>;
  if (res.status < 200 || res.status >= 300 || typeof b.error === 'string') {
    const code = errorCode(b);
    throw new TokenEndpointError(code, res.status, `The token endpoint refused the request (${res.status} ${code}).`);
  }
  if (typeof b.access_token !== 'string' || b.access_token === '') {
    throw new TokenEndpointError('invalid_response', res.status, 'The token response has no access_token.');
  }
  const tokenType = typeof b.token_type === 'string' ? b.token_type : 'bearer';
  if (tokenType.toLowerCase() !== 'bearer') {
    throw new TokenEndpointError('invalid_response', res.status, `The token response has an unsupported token_type (${tokenType.slice(0, 32)}).`);
  }
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : typeof b.expires_in === 'string' ? Number(b.expires_in) : NaN;
  const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : oauth.defaultAccessTokenLifetimeSeconds;
  const refreshToken = typeof b.refresh_token === 'string' && b.refresh_token !== '' ? b.refresh_token : options.previousRefreshToken;
  // A provider without OAuth scopes grants none: the requested ones (a connection's stored before they were refused,
  // or an account's recorded so) are not taken as its grant.
  const scopes = [
    ...oauthScopes(oauth, typeof b.scope === 'string' ? b.scope.split(oauth.scopeSeparator === ' ' ? /\s+/ : oauth.scopeSeparator).filter(Boolean) : options.requestedScopes),
  ];
  const providerInfo: Record<string, unknown> = {};
  // An allowlist, not a denylist: providerInfo is stored in plaintext, and a provider may nest a second token in a
  // member we have never seen (Slack's `authed_user.access_token`).
  for (const key of oauth.providerInfoFields) {
    if (!PROTOCOL_FIELDS.has(key) && Object.hasOwn(b, key) && b[key] !== undefined) providerInfo[key] = b[key];
  }
  return {
    tokens: {
      accessToken: b.access_token,
      refreshToken,
      expiresAt: lifetime === null ? null : new Date(options.now + lifetime * 1000).toISOString(),
      tokenType: 'bearer',
      scopes,
    },
    providerInfo,
  };
}
