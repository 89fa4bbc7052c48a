/**
 * The runtime's public surface, as the HTTP service and in-process applications use it.
 *
 * `createConnector(options)` (in `runtime/connector.ts`) returns a {@link Connector}. Everything tenant-specific goes
 * through `connector.environment(id)`, so one environment never sees another's connections or accounts: a lookup
 * across environments is simply "not found".
 */
import type { ToolSearchHit, ToolSearchOptions } from './agent/search.js';
import type { ConnectionOverridePolicy } from './connection-override-policy.js';
import type { PageQuery } from './list-page.js';
import type { AccountStatus, ConnectionOverrides, Store } from './store/types.js';
import type { ConnectorName, HttpMethod, ToolDefinition } from './types.js';
import type { WebhookApi } from './webhooks/webhook-api.js';

export interface ConnectorOptions {
  /** A ready store; when absent one is opened from `databaseUrl` / `dataDir`. */
  store?: Store;
  /** PostgreSQL URL; when absent (and no store given) SQLite in `dataDir` is used. */
  databaseUrl?: string;
  /** Directory for the SQLite file and the development key file. Default `./.agent-connector`. */
  dataDir?: string;
  /**
   * Encryption keys for secrets at rest: `kid:base64key[,kid:base64key...]`, the first one current.
   * Default from `AGENT_CONNECTOR_ENCRYPTION_KEY`; in development a key file is created in `dataDir`.
   */
  encryptionKeys?: string;
  /** The service's public base URL, for redirect URIs (`{baseUrl}/sso/v1/oauth/{connection_id}/callback`) and links. */
  baseUrl: string;
  /** pino-compatible logger; secrets are never passed to it. */
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void; debug?(obj: object, msg?: string): void };
  /** Upstream HTTP policy overrides (tests shorten these). */
  http?: {
    timeoutMs?: number;
    connectTimeoutMs?: number;
    maxRetries?: number;
    maxRetryDelayMs?: number;
    maxResponseBytes?: number;
    /** Keep-alive sockets per upstream origin. Default 256. */
    connectionsPerOrigin?: number;
    /** Calls that may wait for a socket to one origin; past it, `unavailable` (503). Default 1024. */
    maxQueuedPerOrigin?: number;
  };
  /** PostgreSQL pool size per process (default: from the environment, 10). */
  databasePoolSize?: number;
  /** Clock (ms since epoch), for tests. */
  now?: () => number;
  /**
   * The execution history: `record` (default true) keeps one record per tool call and proxy request;
   * `captureInputs` (default false) keeps each call's input too, with secret-looking and `redactFields` fields redacted.
   */
  executions?: { record?: boolean; captureInputs?: boolean; redactFields?: string[] };
  /**
   * Which URLs connections' `overrides` may name, for this connector only. Default: read from
   * `AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES` (see `connection-override-policy.ts`).
   */
  connectionOverrides?: ConnectionOverridePolicy;
}

/** One tool call or proxy request from the execution history (see `GET /api/v1/executions`). */
export interface ExecutionView {
  id: string;
  started_at: string;
  kind: 'tool' | 'proxy';
  connection_id: string | null;
  connection_name: string | null;
  identifier: string | null;
  /** The tool's name, or the proxy's method and path template (`GET /crm/v3/objects/contacts/{}`). */
  operation: string;
  outcome: 'success' | 'error';
  error_code: string | null;
  /**
   * The error's message as the caller got it, null on success: values of fields input capture redacts are
   * `[redacted]`, and it is clipped at 2,000 characters. Null for an `internal` error (a bug's message is never shown)
   * and in records written before the message was kept.
   */
  error_message: string | null;
  upstream_status: number | null;
  attempts: number;
  duration_ms: number;
  /** Null unless input capture is on. */
  input: unknown;
}

export interface ExecutionListQuery extends PageQuery {
  connection_name?: string;
  identifier?: string;
  /** A tool name or a proxy operation. */
  tool?: string;
  outcome?: 'success' | 'error';
  error_code?: string;
  since?: string;
  until?: string;
}

/** A connection as the API shows it: never the client secret. */
export interface ConnectionView {
  id: string;
  name: string;
  connector: ConnectorName;
  client_id: string;
  /** True when a client secret is stored; the secret itself is write-only. */
  has_client_secret: boolean;
  scopes: string[];
  /** Register this exact URI with the provider. */
  redirect_uri: string;
  overrides: ConnectionOverrides;
  allowed_redirect_urls: string[];
  created_at: string;
  updated_at: string;
}

export interface CreateConnectionInput {
  name: string;
  connector: ConnectorName;
  client_id: string;
  client_secret: string;
  /** Defaults to the connector's default scopes. */
  scopes?: string[];
  overrides?: ConnectionOverrides;
  allowed_redirect_urls?: string[];
}

export type UpdateConnectionInput = Partial<Omit<CreateConnectionInput, 'connector'>>;

/** A connected account as the API shows it: never a token. */
export interface AccountView {
  id: string;
  identifier: string;
  connection_id: string;
  connection_name: string;
  connector: ConnectorName;
  status: AccountStatus;
  status_reason: string | null;
  scopes: string[];
  created_at: string;
  updated_at: string;
}

export interface AuthorizationLinkInput {
  connection_name: string;
  identifier: string;
  /** Where to send the browser after authorization; must be on the connection's allowlist. */
  redirect_url?: string;
  /**
   * Extra scopes to ask the user for (a step-up after `insufficient_scope`): the new grant adds to the old one and the
   * account keeps its id. Not for Notion, which has no OAuth scopes.
   */
  scopes?: string[];
}

export interface AuthorizationLink {
  link: string;
  /** ISO time after which the link no longer starts a flow. */
  expiry: string;
  connected_account_id: string;
}

export interface ExecuteToolInput {
  tool_name: string;
  /** May be omitted when the identifier has exactly one account for the tool's connector. */
  connection_name?: string;
  identifier: string;
  /** The tool's parameters; may be omitted (it is then `{}`) for a tool without required parameters. */
  tool_input?: Record<string, unknown>;
}

export interface ExecuteToolResult<T = unknown> {
  data: T;
  execution_id: string;
}

export interface ProxyInput {
  connection_name: string;
  identifier: string;
  path: string;
  method: HttpMethod | string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ProxyResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Which connected accounts a list returns; every field narrows it. */
export interface AccountListFilter {
  identifier?: string;
  connection_name?: string;
  status?: AccountStatus;
}

/** A filter and which page of it (see `listAccountsPage`). */
export interface AccountListQuery extends AccountListFilter, PageQuery {}

/** One page of connected accounts: what `GET /api/v1/connected_accounts` answers. */
export interface AccountList {
  /** Oldest first (created_at, then id). */
  connected_accounts: AccountView[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/**
 * What happened at the provider when a disconnect asked it to revoke an account's tokens. The tokens are deleted
 * here whatever the outcome:
 * - `revoked`: the provider accepted the revocation (`provider_status` its 2xx status);
 * - `refused`: the provider answered with an error (`provider_status` its status): the grant may still be alive there;
 * - `unreachable`: no answer (network error, timeout, a refused address): the grant may still be alive there;
 * - `not_offered`: the connector declares no revocation endpoint;
 * - `not_sent`: nothing could be sent (the connection's revocation URL override is refused by policy, or its client
 *   secret or the account's tokens cannot be decrypted);
 * - `no_tokens`: the account held no tokens, so there was nothing to revoke.
 */
export interface ProviderRevocation {
  outcome: 'revoked' | 'refused' | 'unreachable' | 'not_offered' | 'not_sent' | 'no_tokens';
  /** The provider's HTTP status when it answered (`revoked`, `refused`); null otherwise. */
  provider_status: number | null;
}

/** The outcomes a connection's deletion counts: every one but `no_tokens` (only accounts holding tokens are asked). */
export type RevocationCounts = Record<Exclude<ProviderRevocation['outcome'], 'no_tokens'>, number>;

/** What disconnecting an account did: the account, now DISCONNECTED, and what the provider did with its tokens. */
export interface AccountDisconnection extends AccountView {
  revocation: ProviderRevocation;
}

/** What deleting a connection did. */
export interface ConnectionDeletion {
  id: string;
  name: string;
  deleted: true;
  /** Accounts that held tokens: their tokens were deleted and `account.disconnected` was sent. */
  disconnected_accounts: number;
  /** Those accounts by what their provider did with the revocation asked for (they add up to disconnected_accounts). */
  revocations: RevocationCounts;
}

/** Per-call options of `executeTool` and `proxy`. */
export interface CallOptions {
  /**
   * Where the call's log line goes: called once when the call ends, with its execution fields (execution_id,
   * operation, outcome, error_code, upstream_status, attempts, duration_ms, ...). The HTTP service puts them into its
   * one line for the request. Default: the connector's logger writes a line of its own.
   */
  logExecution?: (fields: Record<string, unknown>) => void;
}

/** Webhook endpoints and deliveries: see `webhooks/webhook-api.ts`. */
export interface EnvironmentScope extends WebhookApi {
  readonly environmentId: string;
  createConnection(input: CreateConnectionInput): Promise<ConnectionView>;
  listConnections(): Promise<ConnectionView[]>;
  /** By id or by name. */
  getConnection(idOrName: string): Promise<ConnectionView>;
  updateConnection(idOrName: string, patch: UpdateConnectionInput): Promise<ConnectionView>;
  /** Asks the provider to revoke its accounts' tokens (best effort, counted by outcome), then deletes it and them. */
  deleteConnection(idOrName: string): Promise<ConnectionDeletion>;

  authorizationLink(input: AuthorizationLinkInput): Promise<AuthorizationLink>;

  /**
   * Every matching account, oldest first, in one answer (the HTTP client reads every page of `listAccountsPage` for
   * it): for callers that need them all, such as a count before deleting a connection.
   */
  listAccounts(filter?: AccountListFilter): Promise<AccountView[]>;
  /**
   * `listAccounts` a page at a time, by cursor: up to `limit` accounts (1 to 200, default 50) after those of the page
   * whose `next_cursor` is `cursor`. Keyset paging: an account created meanwhile comes on a later page and none shifts
   * a page. What `GET /api/v1/connected_accounts` answers; a cursor no page returned, or given with other filters than
   * the page that returned it, is refused with `invalid_request` (pointer `/cursor`).
   */
  listAccountsPage(query?: AccountListQuery): Promise<AccountList>;
  /**
   * One page of `listAccounts` (same filter, same order), read and counted in the store: page `page` (from 1; past
   * the last, the last) of `limit` accounts, the page it is, and how many match. In process only (the dashboard's
   * list, which shows numbered pages and a total); the HTTP client has no counterpart.
   */
  pageAccounts(filter: AccountListFilter, page: { limit: number; page: number }): Promise<{ accounts: AccountView[]; total: number; page: number }>;
  /**
   * How many accounts `listAccounts(filter)` would list in each status (every status, 0 when none), counted by the
   * store in one query. In process only (the dashboard's delete confirmation); the HTTP client has no counterpart.
   */
  countAccountsByStatus(filter: AccountListFilter): Promise<Record<AccountStatus, number>>;
  getAccount(id: string): Promise<AccountView>;
  /**
   * Asks the provider to revoke the tokens (best effort), deletes them, marks the account DISCONNECTED, and says what
   * the provider did (`revocation`).
   */
  disconnectAccount(id: string): Promise<AccountDisconnection>;

  executeTool(input: ExecuteToolInput, options?: CallOptions): Promise<ExecuteToolResult>;
  proxy(input: ProxyInput, options?: CallOptions): Promise<ProxyResult>;
  /**
   * The execution history, newest first, a page at a time; a cursor no page returned, or given with other filters
   * than the page that returned it, is refused with `invalid_request` (pointer `/cursor`).
   */
  listExecutions(query?: ExecutionListQuery): Promise<{ executions: ExecutionView[]; next_cursor: string | null }>;
  /**
   * One execution of the history, by the id a tool call returned as `execution_id`: the view an item of
   * `listExecutions` has. An id no record of this environment has (another environment's, one purged after the
   * retention, one that is no execution id at all) is `not_found`.
   */
  getExecution(id: string): Promise<ExecutionView>;
}

/** The browser side of the flow, which the HTTP service exposes as pages. */
export interface OAuthFlow {
  /**
   * What a link leads to, for the page shown before anything is bound or written: throws `authorization_failed` as
   * `openLink` would (unknown, expired, connection gone, bound to another browser than `linkBinding`'s), else names
   * the connection. Reads only, so a link scanner's GET or HEAD changes nothing.
   */
  inspectLink(linkToken: string, linkBinding?: string): Promise<{ connectionName: string; connector: ConnectorName; displayName: string }>;
  /**
   * The browser opened an authorization link. `linkBinding` is the value the browser kept from an earlier open of
   * this link, if any. The first open binds the link to the browser (see `oauth/link-binding.ts`); a later open
   * with another or no binding is refused with `authorization_failed`, so a leaked link is of no use to anyone else.
   * Returns the provider's authorization URL to redirect to, the flow's browser-binding cookie value to set
   * (HttpOnly, SameSite=Lax, path `/sso/`), and the `linkBinding` the browser must keep for this link's lifetime.
   */
  openLink(
    linkToken: string,
    linkBinding?: string,
  ): Promise<{ redirectTo: string; browserCookie: string; linkBinding: string; connectionName: string; connector: ConnectorName }>;
  /**
   * The provider redirected back. `query` is the callback's query string; `browserCookie` is the binding cookie the
   * browser sent (or undefined). Returns where to send the browser next (the app's allowlisted URL, or null for the
   * service's own success page), the account, and the system's name as its users know it (`displayName`: "HubSpot",
   * as the link's page said, not the connector's `crm`).
   */
  callback(connectionId: string, query: URLSearchParams, browserCookie: string | undefined): Promise<{ redirectTo: string | null; account: AccountView; displayName: string }>;
}

export interface Connector {
  readonly store: Store;
  readonly baseUrl: string;
  environment(environmentId: string): EnvironmentScope;
  oauth: OAuthFlow;
  /** Why this connector's policy refuses `url` as a webhook endpoint (checked again before every delivery), or null. */
  webhookUrlRefusal(url: string): string | null;
  /** Why this connector's policy refuses connecting to `address`, which a webhook endpoint's `hostname` resolved to, or null. */
  webhookAddressRefusal(hostname: string, address: string): string | null;
  /**
   * Every tool, by name; aliases resolve to the same definition. `search` ranks tools for a natural-language query
   * (see `agent/search.ts`).
   */
  tools: { list(): readonly ToolDefinition[]; resolve(nameOrAlias: string): ToolDefinition | undefined; search(query: string, options?: ToolSearchOptions): ToolSearchHit[] };
  close(): Promise<void>;
}
