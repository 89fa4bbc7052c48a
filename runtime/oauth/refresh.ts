/**
 * Access tokens on demand, refreshed ahead of expiry, one refresh per account at a time.
 *
 * Within a process, concurrent callers share one in-flight promise per account (single flight). Across processes
 * the store's refresh lease is the lock: the holder re-reads the row after acquiring it (another process may just
 * have refreshed), refreshes, saves, releases. A process that does not get the lease polls the row until its
 * `tokenVersion` moves, then uses the token the other process saved. The lease expires on its own, so a process
 * killed mid-refresh blocks the others for at most the lease TTL.
 *
 * The new token set (rotated refresh token included) is written before the new access token is handed out, so a
 * crash after the write loses nothing and a crash before it leaves the old refresh token in place. For a provider
 * that does not rotate (Google, HubSpot) the old refresh token stays valid, so a crash in the middle of a refresh
 * loses nothing (tested with a killed process). For a rotating provider (Notion), a crash after the provider
 * answered but before the write loses the rotated token: the provider has already retired the old one and no
 * client-side scheme can recover a value only the dead process saw; the next refresh gets `invalid_grant` and the
 * account is marked EXPIRED (re-authorization), never silently broken.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionOverridePolicy } from '../connection-override-policy.js';
import { ConnectorError } from '../errors.js';
import type { UpstreamClient } from '../http/client.js';
import { parseRetryAfter } from '../http/retry.js';
import type { AccountRecord, ConnectionRecord, Store, TokenSet } from '../store/types.js';
import type { ConnectorDefinition } from '../types.js';
import { resolveEndpoints } from './endpoints.js';
import { reauthorizationRequired } from './reauthorization.js';
import { buildTokenRequest, processTokenResponse, TokenEndpointError } from './token-request.js';
import { isClientRefusal, refreshFailedText } from './refresh-refusal.js';
import { clientCredentials } from './client-credentials.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { traceRefresh } from '../telemetry/refresh-span.js';

/**
 * What a refused refresh other than `invalid_grant` asks of whoever reads it (an agent most often), which the OAuth
 * error code alone does not say: a token endpoint that failed (5xx) is passing, so the call may simply be
 * repeated; a refused client (`invalid_client`, `unauthorized_client`: the connection's client id or secret) is the
 * application's to fix, and neither the user nor a repeat can. Empty otherwise.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
function refreshFailureAdvice(error: TokenEndpointError, connectionName: string): string {
  if (error.status >= 500) {
    return " The provider's token endpoint failed, not the call nor the user's authorization: the same call may work if repeated in a moment.";
  }
  if (isClientRefusal(error.oauthError)) {
    return ` The provider refused the application's OAuth client (its client id or secret), not the user: the application's operator must fix the connection ${connectionName}; repeating the call will not help.`;
  }
  return '';
}

export interface AuthTarget {
  account: AccountRecord;
  connection: ConnectionRecord;
  connector: ConnectorDefinition;
}

export interface AccessToken {
  token: string;
  /** The token set `token` is the access token of (what a call's redactions are kept by: `executor/token-redactions.ts`). */
  tokens: TokenSet;
  /** The account's `tokenVersion` this token belongs to; passed back after a 401. */
  version: number;
}

export interface RefreshOptions {
  /** Refresh this long before `expiresAt`. Default 60 s. */
  skewMs: number;
  /** Cross-process lease lifetime; longer than one token request may take. */
  leaseTtlMs: number;
  /** How often a process without the lease re-reads the row. */
  pollIntervalMs: number;
  /** How long a waiter waits for another process before giving up. */
  waitTimeoutMs: number;
}

export interface RefreshDeps {
  store: Store;
  http: UpstreamClient;
  now: () => number;
  overridePolicy: ConnectionOverridePolicy;
  logger?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
  options: RefreshOptions;
  /** Traces each refresh (`oauth.refresh`) and counts it; see `telemetry/telemetry.ts`. */
  telemetry?: Telemetry;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class RefreshCoordinator {
  private readonly inFlight = new Map<string, Promise<AccountRecord>>();
  private readonly owner = `${process.pid}:${randomUUID()}`;
  /** `expiresAt` parsed once per token set: every call checks it, and the set is reused from the lookup cache. */
  private readonly expiryMs = new WeakMap<TokenSet, number>();

  constructor(private readonly deps: RefreshDeps) {}

  /** Whether a token set should be refreshed now (expired, or within the skew of expiring). */
  needsRefresh(tokens: TokenSet): boolean {
    if (tokens.expiresAt === null) return false;
    let expiresAt = this.expiryMs.get(tokens);
    if (expiresAt === undefined) {
      expiresAt = Date.parse(tokens.expiresAt);
      this.expiryMs.set(tokens, expiresAt);
    }
    return expiresAt - this.deps.options.skewMs <= this.deps.now();
  }

  /** A usable access token for the target's account, refreshing first if it is about to expire. */
  async accessToken(target: AuthTarget): Promise<AccessToken> {
    const { account } = target;
    if (account.status !== 'ACTIVE' || account.tokens === null) throw reauthorizationRequired(account, target.connection.name);
    if (!this.needsRefresh(account.tokens)) return { token: account.tokens.accessToken, tokens: account.tokens, version: account.tokenVersion };
    return this.refresh(target, account.tokenVersion);
  }

  /** After the upstream refused the token of `staleVersion` (401): a newer token, refreshing if nobody has. */
  async afterRejection(target: AuthTarget, staleVersion: number): Promise<AccessToken> {
    return this.refresh(target, staleVersion, true);
  }

  private async refresh(target: AuthTarget, staleVersion: number, rejected = false): Promise<AccessToken> {
    const id = target.account.id;
    let flight = this.inFlight.get(id);
    if (flight === undefined) {
      flight = this.coordinate(target, staleVersion, rejected).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, flight);
    }
    const account = await flight;
    const tokens = account.tokens as TokenSet;
    return { token: tokens.accessToken, tokens, version: account.tokenVersion };
  }

  /** True when the row holds a token newer than the one the caller found stale, and it is usable. */
  private isFreshFor(account: AccountRecord, staleVersion: number, rejected: boolean): boolean {
    if (account.tokens === null || account.tokenVersion === staleVersion) return false;
    return rejected || !this.needsRefresh(account.tokens);
  }

  private async coordinate(target: AuthTarget, staleVersion: number, rejected: boolean): Promise<AccountRecord> {
    const { store, now, options } = this.deps;
    const { account: known, connection } = target;
    const deadline = now() + options.waitTimeoutMs;
    for (;;) {
      const current = await store.getAccount(known.environmentId, known.id);
      if (current === null) throw new ConnectorError('account_not_found', `The connected account ${known.id} no longer exists.`);
      if (current.status !== 'ACTIVE' || current.tokens === null) throw reauthorizationRequired(current, connection.name);
      if (this.isFreshFor(current, staleVersion, rejected)) return current;

      if (await store.tryAcquireRefreshLease(known.id, this.owner, options.leaseTtlMs)) {
        try {
          // The database is the lock: re-read under it, another process may have refreshed since the read above.
          const locked = await store.getAccount(known.environmentId, known.id);
          if (locked === null) throw new ConnectorError('account_not_found', `The connected account ${known.id} no longer exists.`);
          if (locked.status !== 'ACTIVE' || locked.tokens === null) throw reauthorizationRequired(locked, connection.name);
          if (this.isFreshFor(locked, staleVersion, rejected)) return locked;
          return await (this.deps.telemetry ? traceRefresh(this.deps.telemetry, target, () => this.exchange(target, locked)) : this.exchange(target, locked));
        } finally {
          await store.releaseRefreshLease(known.id, this.owner).catch(() => undefined);
        }
      }
      if (now() >= deadline) {
        throw new ConnectorError('upstream_timeout', 'Another process is refreshing this account\'s token and did not finish in time.');
      }
      await sleep(options.pollIntervalMs);
    }
  }

  /** The refresh itself, under the lease. */
  private async exchange(target: AuthTarget, account: AccountRecord): Promise<AccountRecord> {
    const { store, http, now, logger } = this.deps;
    const { connection, connector } = target;
    const tokens = account.tokens as TokenSet;
    if (tokens.refreshToken === null) {
      await store.setAccountStatus(account.id, 'EXPIRED', 'no_refresh_token', { event: { type: 'account.expired' } });
      throw reauthorizationRequired({ ...account, status: 'EXPIRED' }, connection.name, 'no_refresh_token');
    }
    const endpoints = resolveEndpoints(connector.oauth, connection.overrides, this.deps.overridePolicy);
    const call = buildTokenRequest(connector.oauth, endpoints.tokenUrl, await clientCredentials(store, connection), {
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
    });
    const res = await http.send(call);
    let processed;
    try {
      processed = processTokenResponse(connector.oauth, res, { now: now(), previousRefreshToken: tokens.refreshToken, requestedScopes: tokens.scopes });
    } catch (error) {
      if (!(error instanceof TokenEndpointError)) throw error;
      if (error.isInvalidGrant) {
        // A newer token saved meanwhile (only possible if our lease lapsed) means the grant is fine after all.
        const again = await store.getAccount(account.environmentId, account.id);
        if (again !== null && again.tokens !== null && again.tokenVersion !== account.tokenVersion && again.status === 'ACTIVE') return again;
        await store.setAccountStatus(account.id, 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired', details: { error: error.oauthError } } });
        logger?.warn({ accountId: account.id, connectionId: connection.id }, 'refresh token refused (invalid_grant); account marked EXPIRED');
        throw reauthorizationRequired({ ...account, status: 'EXPIRED' }, connection.name, 'invalid_grant');
      }
      if (error.status === 429) {
        // The provider's rate limit, on its token endpoint rather than its API: answered as one, with its wait.
        const afterMs = parseRetryAfter(res.headers['retry-after'], now());
        throw new ConnectorError('upstream_rate_limited', "The provider's token endpoint rate-limited the token refresh (429). Neither the call nor the user's authorization is at fault: repeat the same call after retry_after_seconds.", {
          details: { status: error.status, error: error.oauthError },
          retryAfterSeconds: afterMs === undefined ? 1 : Math.max(1, Math.ceil(afterMs / 1000)),
        });
      }
      throw new ConnectorError('upstream_error', `${refreshFailedText(error.status, error.oauthError)}${refreshFailureAdvice(error, connection.name)}`, {
        details: { status: error.status, error: error.oauthError },
      });
    }
    const saved = await store.saveTokens(account.id, processed.tokens, { expectedVersion: account.tokenVersion });
    if (saved !== null) return saved;
    // The row moved under us although we held the lease (it lapsed). Our tokens are the newest the provider issued,
    // so keep them, unless the account was disconnected meanwhile.
    const moved = await store.getAccount(account.environmentId, account.id);
    if (moved === null || moved.status !== 'ACTIVE') {
      throw reauthorizationRequired(moved ?? { ...account, status: 'DISCONNECTED' }, connection.name);
    }
    const forced = await store.saveTokens(account.id, processed.tokens);
    if (forced === null) throw new ConnectorError('internal', 'The refreshed tokens could not be saved.');
    return forced;
  }
}
