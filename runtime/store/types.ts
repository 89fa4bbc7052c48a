/**
 * The token store contract. Two implementations (SQLite via better-sqlite3, PostgreSQL via pg) pass one contract
 * test suite (`test/runtime/store/contract.ts`).
 *
 * Secrets (client secrets, access and refresh tokens, PKCE verifiers) are passed in and out as plaintext here and
 * are encrypted by the store itself before they touch the database (AES-256-GCM, AAD binding table, row id and
 * column; see `runtime/crypto`). Nothing else in the runtime writes SQL.
 *
 * Every record belongs to one environment (tenant); every read that takes an `environmentId` returns nothing for
 * another environment's rows.
 */
import type { ConnectorName } from '../types.js';
import type { AccountEventDraft, AccountEventType } from '../webhooks/event-types.js';

export type AccountStatus = 'PENDING_AUTH' | 'ACTIVE' | 'EXPIRED' | 'DISCONNECTED';

export interface EnvironmentRecord {
  id: string;
  name: string;
  createdAt: string;
}

/** An application's credentials for the service itself. The secret is stored as a salted hash, never encrypted. */
export interface AppClientRecord {
  clientId: string;
  environmentId: string;
  /** Salted hash of the client secret (format chosen by the hasher in `runtime/crypto`). */
  secretHash: string;
  createdAt: string;
  /** Bumped by each secret rotation; access tokens and sessions carry the one they were issued under. */
  tokenGeneration: number;
}

/** Endpoints a connection may point elsewhere (the sandbox uses these). Absent keys use the connector's defaults. */
export interface ConnectionOverrides {
  authorizationUrl?: string;
  tokenUrl?: string;
  revocationUrl?: string;
  apiBaseUrl?: string;
}

/**
 * A connection as every read returns it: without its client secret, which only a token request or a revocation needs
 * and reads on its own ({@link Store.getClientCredentials}), so listing or looking connections up decrypts nothing.
 */
export interface ConnectionRecord {
  id: string;
  environmentId: string;
  /** Unique within the environment. */
  name: string;
  connector: ConnectorName;
  clientId: string;
  scopes: string[];
  overrides: ConnectionOverrides;
  /** Where the service may send the browser after a finished authorization (exact URLs). */
  allowedRedirectUrls: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NewConnection {
  environmentId: string;
  name: string;
  connector: ConnectorName;
  clientId: string;
  /** Plaintext on the way into the store; encrypted at rest. Never returned by the service's API. */
  clientSecret: string;
  scopes: string[];
  overrides?: ConnectionOverrides;
  allowedRedirectUrls?: string[];
}

export type ConnectionPatch = Partial<
  Pick<NewConnection, 'name' | 'clientId' | 'clientSecret' | 'scopes' | 'overrides' | 'allowedRedirectUrls'>
>;

/** A connection's OAuth client credentials, read from one row: what a token request or a revocation sends. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** ISO time the access token expires, or null when it does not expire by time. */
  expiresAt: string | null;
  tokenType: string;
  /** Granted scopes as the provider reported them (may be fewer than requested). */
  scopes: string[];
}

export interface AccountRecord {
  id: string;
  environmentId: string;
  connectionId: string;
  identifier: string;
  status: AccountStatus;
  /** Null until the first successful authorization, and after disconnect. */
  tokens: TokenSet | null;
  /** Non-secret facts from the provider's token response (e.g. Notion `workspace_name`, `bot_id`). */
  providerInfo: Record<string, unknown>;
  /** Why the account is EXPIRED, if it is (e.g. `invalid_grant`). Never contains a token. */
  statusReason: string | null;
  /** Bumped on every token write; lets a waiter see that another process refreshed. */
  tokenVersion: number;
  createdAt: string;
  updatedAt: string;
}

/** A pending authorization: created when the browser opens the link, consumed once by the callback. */
export interface OAuthStateRecord {
  /** SHA-256 (hex) of the `state` value sent to the provider: the key the callback finds the record by. */
  stateHash: string;
  /** The link that started it (SHA-256 of its token): a link has at most one pending state. */
  linkHash?: string;
  /** The raw state, for reuse while valid when the same link is opened again; encrypted at rest. */
  state?: string;
  environmentId: string;
  connectionId: string;
  accountId: string;
  identifier: string;
  /** PKCE code verifier, or null when the provider does not support PKCE. Encrypted at rest. */
  codeVerifier: string | null;
  /** SHA-256 (hex) of the browser-binding cookie value. */
  browserHash: string;
  /** Application URL to send the browser to afterwards; already checked against the allowlist. */
  redirectUrl: string | null;
  expiresAt: string;
}

/** An authorization link handed to the application; opening it starts the provider flow. */
export interface AuthLinkRecord {
  /** SHA-256 (hex) of the link token that appears in the URL. */
  tokenHash: string;
  environmentId: string;
  connectionId: string;
  accountId: string;
  identifier: string;
  redirectUrl: string | null;
  expiresAt: string;
  /**
   * The scopes to ask the provider for, when the link steps up the grant (the connection's, the account's granted
   * ones and the extra ones asked for); absent: the connection's scopes.
   */
  scopes?: string[];
  /**
   * SHA-256 (hex) of the browser-binding value of the first browser that opened the link; absent until then. A link
   * is a bearer capability: once bound, another browser holding a leaked copy cannot start a flow with it.
   */
  browserHash?: string;
}

/** What an MCP session shows its agent: every allowed tool (`tools`), or the three search meta-tools (`search`). */
export type McpSessionMode = 'tools' | 'search';

/**
 * An MCP session: a bearer credential minted by the application for one end user (`identifier`) in one environment,
 * limited to a tool set, until `expiresAt` or revocation. Only the SHA-256 of the token is stored.
 */
export interface McpSessionRecord {
  id: string;
  environmentId: string;
  identifier: string;
  /** SHA-256 (hex) of the session token; the token itself is shown once, at creation. */
  tokenHash: string;
  /** Connection names the session may use; null: every connection of the environment. */
  connections: string[] | null;
  /** Tool names the session may use; null: every tool of those connections. */
  tools: string[] | null;
  /** Only tools declared read-only. */
  readOnly: boolean;
  mode: McpSessionMode;
  expiresAt: string;
  /** Set once, by revocation; a revoked session is refused like an expired one. */
  revokedAt: string | null;
  createdAt: string;
}

export type NewMcpSession = Omit<McpSessionRecord, 'id' | 'revokedAt' | 'createdAt'>;

/**
 * One send of a dashboard one-time form (`sql-form-sends.ts`): `id` is the SHA-256 of the session id and the form's
 * token, `action` what the form does, `result` what its first send made (null while that send is at work).
 */
export interface FormSendRecord {
  id: string;
  environmentId: string;
  action: string;
  result: Record<string, unknown> | null;
  createdAt: string;
  /** When the session it belongs to ends; purged after. */
  expiresAt: string;
}

export type NewFormSend = Pick<FormSendRecord, 'id' | 'environmentId' | 'action' | 'expiresAt'>;

export interface AccountFilter {
  identifier?: string;
  connectionId?: string;
  status?: AccountStatus;
}

/**
 * One page of an account list, in list order: at most `limit` accounts, after the account `after` names (keyset
 * paging: by its `createdAt` and `id`, so accounts added or deleted meanwhile shift no page, and that account need not
 * exist any more), then past the first `offset` (default 0; the dashboard's numbered pages).
 */
export interface AccountPage {
  limit: number;
  offset?: number;
  after?: { createdAt: string; id: string };
}

/** How a tool call or proxy request ended. */
export type ExecutionOutcome = 'success' | 'error';

/**
 * One tool call or proxy request, as the execution history keeps it: ids, codes, a failure's message and timings, never
 * an output, a header or a secret. `input` is present only when input capture is turned on, already redacted.
 */
export interface ExecutionRecord {
  id: string;
  environmentId: string;
  /** ISO time the call started. */
  startedAt: string;
  kind: 'tool' | 'proxy';
  /**
   * Null when no connection was found: the name the request gave is none, or (no name given) the identifier has no
   * account, or accounts on several, of the tool's connector; a proxy request refused before its lookup. A tool call
   * refused for its input has the connection it would have used.
   */
  connectionId: string | null;
  /** As the caller named it (or as resolved, for a tool call that named none). */
  connectionName: string | null;
  identifier: string | null;
  /** The tool's name, or the proxy's method and path template, e.g. `GET /crm/v3/objects/contacts/{}`. */
  operation: string;
  outcome: ExecutionOutcome;
  /** The catalogue error code, or null on success. */
  errorCode: string | null;
  /**
   * The error's message as the caller got it, redacted and clipped for the history (`executions/error-message.ts`);
   * null on success, for a bug (`internal`, whose message is never shown) and in records older than the column.
   */
  errorMessage: string | null;
  /** The last upstream HTTP status, or null when no upstream answer was received. */
  upstreamStatus: number | null;
  /** Upstream requests sent (retries and the retry after a refresh included); 0 when none was sent. */
  attempts: number;
  durationMs: number;
  input: unknown;
}

export interface ExecutionFilter {
  connectionName?: string;
  identifier?: string;
  operation?: string;
  outcome?: ExecutionOutcome;
  errorCode?: string;
  /** Inclusive lower bound on `startedAt` (ISO time). */
  since?: string;
  /** Exclusive upper bound on `startedAt` (ISO time). */
  until?: string;
}

/** One page of the execution history, newest first. */
export interface ExecutionPage {
  /** At most this many. */
  limit: number;
  /**
   * Keyset paging: only executions after this key in list order, i.e. older (`startedAt`, then id, below it): the
   * last execution of the previous page, which need not exist any more.
   */
  before?: { startedAt: string; id: string };
}

/** Where an environment's account events are sent. */
export interface WebhookEndpointRecord {
  id: string;
  environmentId: string;
  url: string;
  /** The event types sent to it; null for every type. */
  events: AccountEventType[] | null;
  /** `whsec_…`. Plaintext on the way in and out of the store; encrypted at rest. */
  secret: string;
  /** The secret before the last rotation, still signing (beside the new one) until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewWebhookEndpoint {
  environmentId: string;
  url: string;
  events: AccountEventType[] | null;
  secret: string;
}

/** One event in the outbox. `payload` is the exact JSON text every delivery of it sends (and signs). */
export interface AccountEventRecord {
  id: string;
  environmentId: string;
  accountId: string;
  type: AccountEventType;
  payload: string;
  createdAt: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event on its way to one endpoint. */
export interface WebhookDeliveryRecord {
  id: string;
  environmentId: string;
  endpointId: string;
  eventId: string;
  eventType: AccountEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One HTTP request of a delivery, as the delivery log shows it. */
export interface WebhookAttemptRecord {
  id: string;
  deliveryId: string;
  attemptedAt: string;
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A delivery claimed by one dispatcher for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  event: AccountEventRecord;
  endpoint: WebhookEndpointRecord;
}

export interface WebhookAttemptOutcome {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** What becomes of the delivery: done, due again at a time, or given up. */
  next: { status: 'delivered' } | { status: 'pending'; nextAttemptAt: string } | { status: 'failed' };
}

/**
 * Which deliveries a delivery log page lists, newest first (`createdAt`, then id: a total order; deliveries of one
 * event to several endpoints share their `createdAt`).
 */
export interface WebhookDeliveryFilter {
  endpointId?: string;
  status?: WebhookDeliveryStatus;
  /** At most this many (default 50). The API's page size rule (list-page.ts) bounds what callers ask for. */
  limit?: number;
  /**
   * Keyset paging: only deliveries after this key in list order, i.e. older (`createdAt`, then id, below it): the last
   * delivery of the previous page, which need not exist any more.
   */
  before?: { createdAt: string; id: string };
}

export interface Store {
  /** `sqlite` or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** Applies pending versioned migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query (the service's readiness check); rejects with its error. */
  ping(): Promise<void>;
  close(): Promise<void>;

  createEnvironment(env: { id: string; name: string }): Promise<EnvironmentRecord>;
  getEnvironment(id: string): Promise<EnvironmentRecord | null>;
  listEnvironments(): Promise<EnvironmentRecord[]>;

  createAppClient(rec: { clientId: string; environmentId: string; secretHash: string }): Promise<AppClientRecord>;
  getAppClient(clientId: string): Promise<AppClientRecord | null>;
  /** Replaces the client's secret hash and bumps its token generation (every token issued before stops working). */
  rotateAppClientSecret(clientId: string, secretHash: string): Promise<AppClientRecord | null>;
  /** Deletes the client: its tokens and sessions stop working. */
  deleteAppClient(clientId: string): Promise<boolean>;
  /** Deletes the environment and everything in it (clients, connections, accounts, links, sessions). */
  deleteEnvironment(id: string): Promise<boolean>;
  /** Records a token id (a dashboard session's `jti`) as revoked until it would have expired anyway. */
  revokeToken(id: string, expiresAt: string): Promise<void>;
  isTokenRevoked(id: string): Promise<boolean>;

  createConnection(input: NewConnection): Promise<ConnectionRecord>;
  getConnection(environmentId: string, id: string): Promise<ConnectionRecord | null>;
  getConnectionByName(environmentId: string, name: string): Promise<ConnectionRecord | null>;
  listConnections(environmentId: string): Promise<ConnectionRecord[]>;
  /**
   * The connection's client id and its client secret, the one read that decrypts the secret; null when the
   * connection does not exist in the environment. A secret that cannot be decrypted (damaged, or sealed with a key
   * no longer in the keyring) is `invalid_request` naming the connection, for this read alone: the connection's
   * other reads, and the environment's other connections, are unaffected.
   */
  getClientCredentials(environmentId: string, id: string): Promise<ClientCredentials | null>;
  updateConnection(environmentId: string, id: string, patch: ConnectionPatch): Promise<ConnectionRecord | null>;
  /**
   * Deletes the connection and its accounts' secrets, writing `account.disconnected` (reason `connection_deleted`)
   * for each account that held tokens, in the same transaction. Returns false if it did not exist.
   */
  deleteConnection(environmentId: string, id: string): Promise<boolean>;

  /** Returns the account for (connection, identifier), creating it as PENDING_AUTH if there is none. */
  ensureAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord>;
  getAccount(environmentId: string, id: string): Promise<AccountRecord | null>;
  /** The lookup every call makes. Lookups asked for in the same turn of the event loop may share one query. */
  findAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord | null>;
  /** Oldest first (`createdAt`, then id: a total order); with `page`, only that page is read. */
  listAccounts(environmentId: string, filter?: AccountFilter, page?: AccountPage): Promise<AccountRecord[]>;
  /** How many accounts `listAccounts` would list with this filter, without reading them. */
  countAccounts(environmentId: string, filter?: AccountFilter): Promise<number>;
  /** How many of those accounts are in each status (every status, 0 when none), in one query. */
  countAccountsByStatus(environmentId: string, filter?: AccountFilter): Promise<Record<AccountStatus, number>>;
  /**
   * Writes new tokens and marks the account ACTIVE, bumping `tokenVersion`. When `expectedVersion` is given the
   * write happens only if the stored version still equals it (returns null otherwise).
   */
  saveTokens(
    accountId: string,
    tokens: TokenSet,
    opts?: { expectedVersion?: number; providerInfo?: Record<string, unknown>; event?: AccountEventDraft },
  ): Promise<AccountRecord | null>;
  /** With `event`, the event is written in the same transaction as the status (and only if the account exists). */
  setAccountStatus(accountId: string, status: AccountStatus, reason?: string | null, opts?: { event?: AccountEventDraft }): Promise<void>;
  /** Sets the status reason and leaves the status as it is (a failed re-authorization of an ACTIVE account). */
  setStatusReason(accountId: string, reason: string | null, opts?: { event?: AccountEventDraft }): Promise<void>;
  /** Removes the account's tokens and marks it DISCONNECTED. */
  clearTokens(accountId: string, opts?: { event?: AccountEventDraft }): Promise<void>;
  /**
   * Writes an event about the account with no change to it (e.g. `account.scope_insufficient`). Returns the event,
   * or null when the account does not exist or an event with the same `dedupeKey` was written before.
   */
  appendAccountEvent(accountId: string, event: AccountEventDraft): Promise<AccountEventRecord | null>;
  /** The environment's events, newest first (for the delivery log and tests). */
  listAccountEvents(environmentId: string, filter?: { accountId?: string; eventId?: string; limit?: number }): Promise<AccountEventRecord[]>;
  deleteAccount(environmentId: string, id: string): Promise<boolean>;

  /**
   * Cross-process refresh lease on one account: succeeds for exactly one holder until it is released or
   * `ttlMs` passes (so a crashed holder cannot block refresh forever).
   */
  tryAcquireRefreshLease(accountId: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseRefreshLease(accountId: string, owner: string): Promise<void>;

  createAuthLink(rec: AuthLinkRecord): Promise<void>;
  getAuthLink(tokenHash: string): Promise<AuthLinkRecord | null>;
  /**
   * Binds the link to a browser: sets `browserHash` only when the link has none yet, in one atomic statement, and
   * returns the link as stored afterwards (its `browserHash` is the winner's when two browsers race). Null if unknown.
   */
  bindAuthLink(tokenHash: string, browserHash: string): Promise<AuthLinkRecord | null>;

  createOAuthState(rec: OAuthStateRecord): Promise<void>;
  /** Atomically returns and deletes the state (single use). Returns null if unknown or already consumed. */
  consumeOAuthState(stateHash: string): Promise<OAuthStateRecord | null>;
  /**
   * The pending state of an authorization link (`linkHash`), with its raw `state`, or null. A state created with a
   * `linkHash` replaces the link's previous one, so there is at most one.
   */
  getLinkOAuthState(linkHash: string): Promise<OAuthStateRecord | null>;

  createMcpSession(input: NewMcpSession): Promise<McpSessionRecord>;
  /** The session whose token hashes to `tokenHash`, in any environment (the token alone names it); null if none. */
  getMcpSessionByTokenHash(tokenHash: string): Promise<McpSessionRecord | null>;
  getMcpSession(environmentId: string, id: string): Promise<McpSessionRecord | null>;
  /** Newest first; with `identifier`, only that end user's. */
  listMcpSessions(environmentId: string, filter?: { identifier?: string }): Promise<McpSessionRecord[]>;
  /** Sets `revokedAt` (once; a second revocation keeps the first time). Returns the session, or null if unknown. */
  revokeMcpSession(environmentId: string, id: string, at?: string): Promise<McpSessionRecord | null>;

  /**
   * Claims the send `id` of a dashboard one-time form: null when this call took it (the first send), otherwise the
   * record of the send that took it first. One statement decides, so of two sends (on any instances) one gets null.
   */
  claimFormSend(input: NewFormSend): Promise<FormSendRecord | null>;
  /** Records what the claimed send made (sealed: it may hold an authorization link). */
  finishFormSend(id: string, result: Record<string, unknown>): Promise<void>;
  /** Gives back a claim whose send did nothing (refused or failed), so the form sent again tries again. */
  releaseFormSend(id: string): Promise<void>;

  /**
   * Deletes OAuth states, authorization links, MCP sessions and dashboard form sends that expired before `before` (ISO time; default now), so abandoned
   * flows do not pile up, and account events more than 30 days older than `before` with nothing left to deliver (with
   * their delivery log). Returns how many rows were removed. Safe to run from any number of processes.
   */
  purgeExpired(before?: string): Promise<number>;

  /**
   * Adds execution records, in one statement (one transaction: the history is written in batches, so that a busy
   * service does not pay a commit per call). Ids are unique; a batch holding a known id is refused whole.
   */
  recordExecutions(recs: readonly ExecutionRecord[]): Promise<void>;
  /** The environment's executions matching `filter`, newest first: one page of them (see {@link ExecutionPage}). */
  listExecutions(environmentId: string, filter: ExecutionFilter, page: ExecutionPage): Promise<ExecutionRecord[]>;
  /** The execution `id` of the environment, or null (an id of another environment is null too). */
  getExecution(environmentId: string, id: string): Promise<ExecutionRecord | null>;
  /** Deletes executions that started before `before` (ISO time); returns how many. Safe from any number of processes. */
  purgeExecutions(before: string): Promise<number>;

  createWebhookEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpointRecord>;
  listWebhookEndpoints(environmentId: string): Promise<WebhookEndpointRecord[]>;
  getWebhookEndpoint(environmentId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /**
   * Replaces the secret; the one it replaces keeps signing beside it until `previousSecretExpiresAt` (a secret
   * older than that, from an earlier rotation, is dropped). Null if the endpoint does not exist.
   */
  rotateWebhookSecret(environmentId: string, id: string, secret: string, previousSecretExpiresAt: string): Promise<WebhookEndpointRecord | null>;
  /** Deletes the endpoint and its deliveries. */
  deleteWebhookEndpoint(environmentId: string, id: string): Promise<boolean>;

  /**
   * Claims up to `limit` pending deliveries due at `now` for one attempt by `owner`, for `leaseMs`: no other caller
   * (in any process) claims them until the lease lapses or the attempt is recorded. Oldest due first.
   */
  claimWebhookDeliveries(opts: { owner: string; now: string; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]>;
  /**
   * Logs the attempt and moves the delivery on (delivered, due again, failed), releasing the claim. Returns false
   * (the attempt is still logged) when `owner` no longer held the claim.
   */
  recordWebhookAttempt(deliveryId: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean>;
  /** Makes a delivery that is not delivered due at `now` (attempts and log kept); false when none, delivered, or being attempted. */
  retryWebhookDelivery(environmentId: string, id: string, now: string): Promise<boolean>;
  listWebhookDeliveries(environmentId: string, filter?: WebhookDeliveryFilter): Promise<WebhookDeliveryRecord[]>;
  getWebhookDelivery(environmentId: string, id: string): Promise<WebhookDeliveryRecord | null>;
  /** A delivery's attempts, oldest first. */
  listWebhookAttempts(environmentId: string, deliveryId: string): Promise<WebhookAttemptRecord[]>;

  /** Re-encrypts every secret with the keyring's current key; returns how many values were rewritten. */
  reencryptAll(): Promise<number>;
}
