/**
 * The authorization code flow: link -> service page -> provider consent -> callback -> tokens.
 *
 * Three secrets guard it, all random, all stored only as SHA-256 digests:
 * - the link token (in the link the application hands its user; valid for {@link LINK_TTL_MS});
 * - the `state` sent to the provider (single use, {@link STATE_TTL_MS}), bound to the connection, the identifier
 *   and the browser that opened the link;
 * - the browser-binding value, set as a cookie by the page that opened the link: a callback arriving in another
 *   browser (an attacker replaying a victim's state, or a login-CSRF) does not carry it.
 * The callback checks all of this before any request to the provider, so a bad state never costs a token request.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 * @see https://www.rfc-editor.org/rfc/rfc9700 (OAuth 2.0 Security Best Current Practice)
 */
import { ConnectorError } from '../errors.js';
import { INPUT_LIMITS } from '../validation/input-limits.js';
import { checkTextInput } from '../validation/text-input.js';
import type { ProviderRevocation } from '../api.js';
import type { UpstreamClient } from '../http/client.js';
import type { AccountRecord, AuthLinkRecord, ClientCredentials, ConnectionRecord, OAuthStateRecord, Store } from '../store/types.js';
import { UNDECRYPTABLE_REASON } from '../store/records.js';
import type { ConnectorDefinition, ConnectorName } from '../types.js';
import { changedAccountIdentity } from './account-identity.js';
import { buildAuthorizeUrl } from './authorize-url.js';
import { hasNoOAuthScopes, noScopesReason } from './no-scopes.js';
import type { ConnectionOverridePolicy } from '../connection-override-policy.js';
import { redirectUriFor, resolveEndpoints } from './endpoints.js';
import { createPkce, s256 } from './pkce.js';
import { randomToken, sameDigest, sha256Hex } from './random.js';
import { buildRevocationRequest } from './revoke.js';
import { buildTokenRequest, processTokenResponse, TokenEndpointError } from './token-request.js';
import { clientCredentials } from './client-credentials.js';
import { violationError } from '../validation/violation-error.js';

/** How long an authorization link starts flows. A link is a bearer capability for one identifier: keep it short. */
export const LINK_TTL_MS = 60 * 60 * 1000;
/** How long the user has at the provider's consent page. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** A pending state with less than this left is not handed out again: the user needs time at the consent page. */
export const STATE_REUSE_MIN_MS = 2 * 60 * 1000;
const MAX_IDENTIFIER_LENGTH = INPUT_LIMITS.identifier;

export interface FlowDeps {
  store: Store;
  http: UpstreamClient;
  baseUrl: string;
  now: () => number;
  connectorFor(name: ConnectorName): ConnectorDefinition;
  overridePolicy: ConnectionOverridePolicy;
  logger?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

/** A refused field of the link request, named by its JSON pointer like every other input error. */
function invalidField(field: string, message: string, keyword: string): ConnectorError {
  return violationError('invalid_request', message, { pointer: `/${field}`, message, keyword });
}

function failed(message: string, details?: Record<string, unknown>): ConnectorError {
  return new ConnectorError('authorization_failed', message, details === undefined ? {} : { details });
}

const MAX_EXTRA_SCOPES = 50;

/**
 * The link's optional extra `scopes` (a step-up: the user is asked to grant more than the connection's scopes).
 * Refused for a connector without OAuth scopes (Notion: access is the integration's capabilities).
 */
function checkExtraScopes(value: unknown, connector: ConnectorDefinition): string[] | undefined {
  if (value === undefined) return undefined;
  const ok = Array.isArray(value) && value.length > 0 && value.length <= MAX_EXTRA_SCOPES && value.every((s) => typeof s === 'string' && /^[\x21-\x7e]{1,200}$/.test(s));
  if (!ok) throw invalidField('scopes', `scopes must be a non-empty array of at most ${MAX_EXTRA_SCOPES} scope names (printable, no spaces).`, 'type');
  if (hasNoOAuthScopes(connector.oauth)) throw invalidField('scopes', `${noScopesReason(connector)}; a link cannot ask for more.`, 'forbidden');
  return value as string[];
}

/**
 * What a step-up link asks for: the connection's scopes, those the account already has, and the extra ones, so the
 * new grant covers the old one on every provider (Google also adds what was granted, with include_granted_scopes).
 */
function stepUpScopes(connection: readonly string[], granted: readonly string[], extra: readonly string[]): string[] {
  return [...new Set([...connection, ...granted, ...extra])];
}

/** Creates an authorization link for (connection, identifier); the account exists as PENDING_AUTH from here on. */
export async function createAuthorizationLink(
  deps: FlowDeps,
  connection: ConnectionRecord,
  identifier: string,
  redirectUrl: string | undefined,
  extraScopes?: unknown,
): Promise<{ link: string; expiry: string; account: AccountRecord }> {
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > MAX_IDENTIFIER_LENGTH) {
    throw invalidField('identifier', `identifier must be a non-empty string of at most ${MAX_IDENTIFIER_LENGTH} characters.`, 'type');
  }
  checkTextInput(identifier, '/identifier', 'identifier');
  if (redirectUrl !== undefined && !connection.allowedRedirectUrls.includes(redirectUrl)) {
    throw invalidField('redirect_url', `redirect_url is not on the allowlist of connection ${JSON.stringify(connection.name)}.`, 'allowlist');
  }
  const extra = checkExtraScopes(extraScopes, deps.connectorFor(connection.connector));
  const account = await deps.store.ensureAccount(connection.environmentId, connection.id, identifier);
  const token = randomToken();
  const expiresAt = new Date(deps.now() + LINK_TTL_MS).toISOString();
  await deps.store.createAuthLink({
    tokenHash: sha256Hex(token),
    environmentId: connection.environmentId,
    connectionId: connection.id,
    accountId: account.id,
    identifier,
    redirectUrl: redirectUrl ?? null,
    expiresAt,
    ...(extra === undefined ? {} : { scopes: stepUpScopes(connection.scopes, account.tokens?.scopes ?? [], extra) }),
  });
  return { link: `${deps.baseUrl.replace(/\/+$/, '')}/sso/v1/connect/${token}`, expiry: expiresAt, account };
}

/** The link a token names, with its connection, or `authorization_failed`. Reads only. */
export async function inspectAuthorizationLink(deps: FlowDeps, linkToken: string): Promise<{ link: AuthLinkRecord; connection: ConnectionRecord }> {
  const link = typeof linkToken === 'string' && linkToken !== '' ? await deps.store.getAuthLink(sha256Hex(linkToken)) : null;
  if (link === null || Date.parse(link.expiresAt) <= deps.now()) throw failed('This authorization link is unknown or has expired; ask the application for a new one.');
  const connection = await deps.store.getConnection(link.environmentId, link.connectionId);
  if (connection === null) throw failed('The connection of this authorization link no longer exists.');
  return { link, connection };
}

/**
 * The browser opened a link: the provider URL to send it to, with the link's pending state. A link holds at most
 * one pending state (the store replaces it on each open); while it has more than {@link STATE_REUSE_MIN_MS} to live
 * it is reused (same state, same PKCE verifier), so opening a link again and again writes no new rows. The
 * browser-binding value is new on every open (the row's hash is replaced with it), and the cookie holding it keeps
 * its name, which derives from the state.
 */
export async function openAuthorizationLink(
  deps: FlowDeps,
  linkToken: string,
): Promise<{ redirectTo: string; browserCookie: string; connection: ConnectionRecord; connector: ConnectorDefinition }> {
  const { link, connection } = await inspectAuthorizationLink(deps, linkToken);
  const connector = deps.connectorFor(connection.connector);
  const linkHash = sha256Hex(linkToken);
  const pending = await deps.store.getLinkOAuthState(linkHash);
  const reuse =
    pending !== null && pending.state !== undefined && pending.connectionId === connection.id && Date.parse(pending.expiresAt) - deps.now() >= STATE_REUSE_MIN_MS ? pending : null;
  const state = reuse?.state ?? randomToken();
  const browserCookie = randomToken();
  const verifier = reuse ? reuse.codeVerifier : connector.oauth.pkce ? createPkce().verifier : null;
  const pkce = verifier === null ? null : { verifier, challenge: s256(verifier) };
  await deps.store.createOAuthState({
    linkHash,
    state,
    stateHash: sha256Hex(state),
    environmentId: link.environmentId,
    connectionId: link.connectionId,
    accountId: link.accountId,
    identifier: link.identifier,
    codeVerifier: pkce?.verifier ?? null,
    browserHash: sha256Hex(browserCookie),
    redirectUrl: link.redirectUrl,
    expiresAt: reuse?.expiresAt ?? new Date(deps.now() + STATE_TTL_MS).toISOString(),
  });
  const endpoints = resolveEndpoints(connector.oauth, connection.overrides, deps.overridePolicy);
  const redirectTo = buildAuthorizeUrl(connector.oauth, {
    authorizationUrl: endpoints.authorizationUrl,
    clientId: connection.clientId,
    redirectUri: redirectUriFor(deps.baseUrl, connection.id),
    scopes: link.scopes ?? connection.scopes,
    state,
    ...(pkce === null ? {} : { codeChallenge: pkce.challenge }),
  });
  return { redirectTo, browserCookie, connection, connector };
}

/**
 * The provider redirected back. Every check on the state happens before the token request; the state is consumed
 * by the first callback that presents it, whatever the outcome, so it can never be replayed.
 */
export async function completeAuthorization(
  deps: FlowDeps,
  connectionId: string,
  query: URLSearchParams,
  browserCookie: string | undefined,
): Promise<{ redirectTo: string | null; account: AccountRecord; connection: ConnectionRecord }> {
  const state = query.get('state');
  if (state === null || state === '') throw failed('The authorization response has no state.');
  const record = await deps.store.consumeOAuthState(sha256Hex(state));
  if (record === null) throw failed('The authorization state is unknown or was already used; start again from the authorization link.');
  if (record.connectionId !== connectionId) throw failed('The authorization state belongs to another connection.');
  if (Date.parse(record.expiresAt) <= deps.now()) throw failed('The authorization state has expired; start again from the authorization link.');
  if (browserCookie === undefined || browserCookie === '' || !sameDigest(sha256Hex(browserCookie), record.browserHash)) {
    throw failed('The authorization was completed in a different browser from the one that opened the link.');
  }
  const connection = await deps.store.getConnection(record.environmentId, record.connectionId);
  if (connection === null) throw failed('The connection no longer exists.');
  try {
    return await finishAuthorization(deps, record, connection, query);
  } catch (error) {
    // From here on the failure belongs to a known account: it is its status reason and an event, not only a page.
    const said = (error instanceof ConnectorError ? error.details : undefined) as Record<string, unknown> | undefined;
    const reason = typeof said?.reason === 'string' ? said.reason : 'code_exchange_failed';
    const details: Record<string, string> = { reason };
    if (typeof said?.error === 'string') details.error = said.error;
    await deps.store.setStatusReason(record.accountId, reason, { event: { type: 'account.authorization_failed', details } });
    throw error;
  }
}

/** The callback after its state checked out: the provider's answer, the code exchange, the stored tokens. */
async function finishAuthorization(
  deps: FlowDeps,
  record: OAuthStateRecord,
  connection: ConnectionRecord,
  query: URLSearchParams,
): Promise<{ redirectTo: string | null; account: AccountRecord; connection: ConnectionRecord }> {
  const connector = deps.connectorFor(connection.connector);
  // RFC 9207 §2.4: where the provider sends `iss` (success and error responses alike), it must be exactly the
  // declared issuer, and its absence is refused too; anything else may be a mix-up attack. Checked first, so not
  // even an error response from another issuer is believed.
  if (connector.oauth.issuer !== null && query.get('iss') !== connector.oauth.issuer) {
    throw failed('The authorization response did not come from the expected issuer.', { reason: 'issuer_mismatch' });
  }
  const error = query.get('error');
  if (error !== null) {
    const code = /^[a-z_]{1,64}$/.test(error) ? error : 'invalid_error';
    throw failed(code === 'access_denied' ? 'The user denied access at the provider.' : `The provider refused the authorization (${code}).`, { error: code, reason: code });
  }
  const code = query.get('code');
  if (code === null || code === '') throw failed('The authorization response has no code.', { reason: 'missing_code' });

  const endpoints = resolveEndpoints(connector.oauth, connection.overrides, deps.overridePolicy);
  const call = buildTokenRequest(connector.oauth, endpoints.tokenUrl, await clientCredentials(deps.store, connection), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUriFor(deps.baseUrl, connection.id),
    ...(record.codeVerifier === null ? {} : { code_verifier: record.codeVerifier }),
  });
  const res = await deps.http.send(call);
  let processed;
  try {
    processed = processTokenResponse(connector.oauth, res, { now: deps.now(), previousRefreshToken: null, requestedScopes: connection.scopes });
  } catch (e) {
    if (e instanceof TokenEndpointError) {
      throw failed(`The code exchange failed (${e.status} ${e.oauthError}).`, { status: e.status, error: e.oauthError, reason: 'code_exchange_failed' });
    }
    throw e;
  }
  // An account that held an authorization before (ACTIVE, or EXPIRED awaiting this) is re-authorized; a new or
  // disconnected one is connected.
  const before = await deps.store.getAccount(record.environmentId, record.accountId);
  const type = before !== null && (before.status === 'ACTIVE' || before.status === 'EXPIRED') ? 'account.reauthorized' : 'account.connected';
  // A re-authorization keeps the provider account: whoever continued the link first (it is a bearer credential until
  // then) must not swap the user's account for theirs. Refused before anything is saved: the account keeps its
  // tokens and status. A first authorization, or one after a disconnect, takes any account.
  if (type === 'account.reauthorized') {
    const changed = changedAccountIdentity(connector.oauth.accountIdentity, before!.providerInfo, processed.providerInfo);
    if (changed.length > 0) {
      deps.logger?.warn(
        { accountId: record.accountId, connectionId: connection.id, reason: 'account_mismatch', changed: changed.join(' ') },
        're-authorization with another provider account refused',
      );
      const name = connector.displayName;
      throw failed(
        `This authorization was made with a different ${name} account from the one already connected for this user, so it was not saved; the connected account is unchanged. Authorize with the same ${name} account, or have the application disconnect the account first to connect another.`,
        { reason: 'account_mismatch' },
      );
    }
  }
  const saved = await deps.store.saveTokens(record.accountId, processed.tokens, {
    providerInfo: processed.providerInfo,
    event: { type, details: { scopes: processed.tokens.scopes } },
  });
  if (saved === null) throw new ConnectorError('internal', 'The tokens could not be saved.');
  // Re-checked against the current allowlist: an URL removed since the link was made is no longer trusted.
  const redirectTo = record.redirectUrl !== null && connection.allowedRedirectUrls.includes(record.redirectUrl) ? record.redirectUrl : null;
  return { redirectTo, account: saved, connection };
}

const revocation = (outcome: ProviderRevocation['outcome'], status: number | null = null): ProviderRevocation => ({ outcome, provider_status: status });

/**
 * Revokes the account's tokens at the provider and says what happened there. Best effort: a provider outage or
 * refusal is logged and answered, never thrown, because it must not keep the tokens alive here.
 */
export async function revokeAccountTokens(deps: FlowDeps, account: AccountRecord, connection: ConnectionRecord): Promise<ProviderRevocation> {
  // Tokens that cannot be decrypted are read as none (store/records.ts): they were there, but nothing can be sent.
  if (account.tokens === null) return revocation(account.statusReason === UNDECRYPTABLE_REASON ? 'not_sent' : 'no_tokens');
  const connector = deps.connectorFor(connection.connector);
  if (connector.oauth.revocation === null) return revocation('not_offered');
  let revocationUrl: string | null = null;
  try {
    revocationUrl = resolveEndpoints(connector.oauth, connection.overrides, deps.overridePolicy).revocationUrl;
  } catch (error) {
    // An override the policy refuses gets no request (it would carry the token); the tokens are cleared anyway.
    deps.logger?.warn({ accountId: account.id, errorCode: (error as { code?: string }).code ?? 'error' }, 'token revocation skipped');
    return revocation('not_sent');
  }
  if (revocationUrl === null) return revocation('not_offered');
  let client: ClientCredentials;
  try {
    client = await clientCredentials(deps.store, connection);
  } catch (error) {
    // Without readable client credentials (a secret that does not decrypt) nothing can be sent; the tokens are
    // cleared anyway.
    if (!(error instanceof ConnectorError)) throw error;
    deps.logger?.warn({ accountId: account.id, connectionId: connection.id, errorCode: error.code }, 'token revocation skipped');
    return revocation('not_sent');
  }
  const call = buildRevocationRequest(connector.oauth, revocationUrl, client, account.tokens);
  if (call === null) return revocation('not_sent');
  try {
    const res = await deps.http.send(call);
    if (res.status >= 300) {
      deps.logger?.warn({ accountId: account.id, status: res.status }, 'token revocation refused by the provider');
      return revocation('refused', res.status);
    }
    return revocation('revoked', res.status);
  } catch (error) {
    deps.logger?.warn({ accountId: account.id, errorCode: (error as { code?: string }).code ?? 'error' }, 'token revocation failed');
    return revocation('unreachable');
  }
}

/** Revokes at the provider (best effort), then clears the tokens, with `account.disconnected` if it held any. */
export async function disconnectAccount(deps: FlowDeps, account: AccountRecord, connection: ConnectionRecord): Promise<ProviderRevocation> {
  const done = await revokeAccountTokens(deps, account, connection);
  await deps.store.clearTokens(account.id, account.tokens === null ? {} : { event: { type: 'account.disconnected' } });
  return done;
}
