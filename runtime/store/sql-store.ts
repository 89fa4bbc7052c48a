/**
 * The one `Store` implementation, over a `SqlDriver` (SQLite or PostgreSQL). Every statement is portable SQL with
 * `?` placeholders (both databases support `RETURNING` and `ON CONFLICT`), so the two backends cannot drift apart.
 *
 * Secrets are sealed just before they are written, with AAD `table|row id|column`; nothing else in the runtime sees
 * a ciphertext or writes SQL. This file holds the environments and application clients; each other concept has its
 * own module: connections (sql-connections.ts), connected accounts and the refresh lease (sql-accounts.ts), links
 * and OAuth states (sql-oauth-records.ts), MCP sessions (sql-mcp-sessions.ts), the account events outbox
 * (sql-events.ts), webhook endpoints and deliveries (sql-webhooks.ts) and the dashboard's one-time form sends
 * (sql-form-sends.ts).
 */
import { ConnectorError } from '../errors.js';
import { SecretBox } from '../crypto/secret-box.js';
import type { Keyring } from '../crypto/keyring.js';
import { reencryptSecrets } from './reencrypt.js';
import { normalizeTime, toAppClient, toEnvironment, type AppClientRow, type EnvironmentRow } from './records.js';
import { SqlAccounts } from './sql-accounts.js';
import { SqlConnections } from './sql-connections.js';
import { mapWriteError, type SqlContext } from './sql-context.js';
import { isUniqueViolation, type Migration, type SqlDriver } from './sql-driver.js';
import { SqlExecutions } from './sql-executions.js';
import { SqlFormSends } from './sql-form-sends.js';
import { SqlMcpSessions } from './sql-mcp-sessions.js';
import { SqlOAuthRecords } from './sql-oauth-records.js';
import { SqlWebhooks } from './sql-webhooks.js';
import type { AccountEventDraft } from '../webhooks/event-types.js';
import type {
  AccountEventRecord,
  AccountFilter,
  AccountPage,
  AccountRecord,
  AccountStatus,
  AppClientRecord,
  AuthLinkRecord,
  ClaimedDelivery,
  ClientCredentials,
  ConnectionPatch,
  ConnectionRecord,
  EnvironmentRecord,
  ExecutionFilter,
  ExecutionPage,
  ExecutionRecord,
  FormSendRecord,
  McpSessionRecord,
  NewConnection,
  NewWebhookEndpoint,
  NewMcpSession,
  NewFormSend,
  OAuthStateRecord,
  Store,
  TokenSet,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from './types.js';

export class SqlStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly #ctx: SqlContext;
  readonly #migrations: readonly Migration[];
  readonly #connections: SqlConnections;
  readonly #accounts: SqlAccounts;
  readonly #oauth: SqlOAuthRecords;
  readonly #executions: SqlExecutions;
  readonly #webhooks: SqlWebhooks;
  readonly #mcpSessions: SqlMcpSessions;
  readonly #formSends: SqlFormSends;

  constructor(driver: SqlDriver, keyring: Keyring, migrations: readonly Migration[]) {
    this.kind = driver.kind;
    this.#ctx = { db: driver, box: new SecretBox(keyring), kind: driver.kind };
    this.#migrations = migrations;
    this.#connections = new SqlConnections(this.#ctx);
    this.#accounts = new SqlAccounts(this.#ctx);
    this.#oauth = new SqlOAuthRecords(this.#ctx);
    this.#executions = new SqlExecutions(this.#ctx);
    this.#webhooks = new SqlWebhooks(this.#ctx);
    this.#mcpSessions = new SqlMcpSessions(this.#ctx);
    this.#formSends = new SqlFormSends(this.#ctx);
  }

  migrate(): Promise<void> {
    return this.#ctx.db.migrate(this.#migrations);
  }

  async ping(): Promise<void> {
    await this.#ctx.db.get('SELECT 1 AS one');
  }

  close(): Promise<void> {
    return this.#ctx.db.close();
  }

  // ---- environments and app clients ----

  async createEnvironment(env: { id: string; name: string }): Promise<EnvironmentRecord> {
    const createdAt = new Date().toISOString();
    try {
      await this.#ctx.db.run('INSERT INTO environments (id, name, created_at) VALUES (?, ?, ?)', [env.id, env.name, createdAt]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConnectorError('conflict', `environment "${env.id}" already exists`);
      throw err;
    }
    return { id: env.id, name: env.name, createdAt };
  }

  async getEnvironment(id: string): Promise<EnvironmentRecord | null> {
    const row = await this.#ctx.db.get<EnvironmentRow>('SELECT * FROM environments WHERE id = ?', [id]);
    return row ? toEnvironment(row) : null;
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    return (await this.#ctx.db.all<EnvironmentRow>('SELECT * FROM environments ORDER BY created_at, id')).map(toEnvironment);
  }

  async createAppClient(rec: { clientId: string; environmentId: string; secretHash: string }): Promise<AppClientRecord> {
    const createdAt = new Date().toISOString();
    try {
      await this.#ctx.db.run('INSERT INTO app_clients (client_id, environment_id, secret_hash, created_at) VALUES (?, ?, ?, ?)', [
        rec.clientId,
        rec.environmentId,
        rec.secretHash,
        createdAt,
      ]);
    } catch (err) {
      throw mapWriteError(err, `app client "${rec.clientId}"`, rec.environmentId);
    }
    return { ...rec, createdAt, tokenGeneration: 0 };
  }

  async getAppClient(clientId: string): Promise<AppClientRecord | null> {
    const row = await this.#ctx.db.get<AppClientRow>('SELECT * FROM app_clients WHERE client_id = ?', [clientId]);
    return row ? toAppClient(row) : null;
  }

  async rotateAppClientSecret(clientId: string, secretHash: string): Promise<AppClientRecord | null> {
    const row = await this.#ctx.db.get<AppClientRow>(
      'UPDATE app_clients SET secret_hash = ?, token_generation = token_generation + 1 WHERE client_id = ? RETURNING *',
      [secretHash, clientId],
    );
    return row ? toAppClient(row) : null;
  }

  async deleteAppClient(clientId: string): Promise<boolean> {
    return (await this.#ctx.db.run('DELETE FROM app_clients WHERE client_id = ?', [clientId])) > 0;
  }

  async deleteEnvironment(id: string): Promise<boolean> {
    // One statement: the rest cascades (app clients, MCP sessions; connections -> accounts -> links and states).
    return (await this.#ctx.db.run('DELETE FROM environments WHERE id = ?', [id])) > 0;
  }

  async revokeToken(id: string, expiresAt: string): Promise<void> {
    await this.#ctx.db.run('INSERT INTO revoked_tokens (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [id, normalizeTime(expiresAt)]);
  }

  async isTokenRevoked(id: string): Promise<boolean> {
    return (await this.#ctx.db.get<{ id: string }>('SELECT id FROM revoked_tokens WHERE id = ?', [id])) !== undefined;
  }

  // ---- connections (sql-connections.ts) ----

  createConnection(input: NewConnection): Promise<ConnectionRecord> {
    return this.#connections.create(input);
  }

  getConnection(environmentId: string, id: string): Promise<ConnectionRecord | null> {
    return this.#connections.get(environmentId, id);
  }

  getConnectionByName(environmentId: string, name: string): Promise<ConnectionRecord | null> {
    return this.#connections.getByName(environmentId, name);
  }

  listConnections(environmentId: string): Promise<ConnectionRecord[]> {
    return this.#connections.list(environmentId);
  }

  getClientCredentials(environmentId: string, id: string): Promise<ClientCredentials | null> {
    return this.#connections.credentials(environmentId, id);
  }

  updateConnection(environmentId: string, id: string, patch: ConnectionPatch): Promise<ConnectionRecord | null> {
    return this.#connections.update(environmentId, id, patch);
  }

  deleteConnection(environmentId: string, id: string): Promise<boolean> {
    return this.#connections.delete(environmentId, id);
  }

  // ---- connected accounts and the refresh lease (sql-accounts.ts) ----

  ensureAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord> {
    return this.#accounts.ensureAccount(environmentId, connectionId, identifier);
  }

  getAccount(environmentId: string, id: string): Promise<AccountRecord | null> {
    return this.#accounts.getAccount(environmentId, id);
  }

  findAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord | null> {
    return this.#accounts.findAccount(environmentId, connectionId, identifier);
  }

  listAccounts(environmentId: string, filter: AccountFilter = {}, page?: AccountPage): Promise<AccountRecord[]> {
    return this.#accounts.listAccounts(environmentId, filter, page);
  }

  countAccounts(environmentId: string, filter: AccountFilter = {}): Promise<number> {
    return this.#accounts.countAccounts(environmentId, filter);
  }

  countAccountsByStatus(environmentId: string, filter: AccountFilter = {}): Promise<Record<AccountStatus, number>> {
    return this.#accounts.countAccountsByStatus(environmentId, filter);
  }

  saveTokens(
    accountId: string,
    tokens: TokenSet,
    opts: { expectedVersion?: number; providerInfo?: Record<string, unknown>; event?: AccountEventDraft } = {},
  ): Promise<AccountRecord | null> {
    return this.#accounts.saveTokens(accountId, tokens, opts);
  }

  setAccountStatus(accountId: string, status: AccountStatus, reason: string | null = null, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    return this.#accounts.setAccountStatus(accountId, status, reason, opts);
  }

  setStatusReason(accountId: string, reason: string | null, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    return this.#accounts.setStatusReason(accountId, reason, opts);
  }

  clearTokens(accountId: string, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    return this.#accounts.clearTokens(accountId, opts);
  }

  appendAccountEvent(accountId: string, event: AccountEventDraft): Promise<AccountEventRecord | null> {
    return this.#accounts.appendEvent(accountId, event);
  }

  listAccountEvents(environmentId: string, filter: { accountId?: string; eventId?: string; limit?: number } = {}): Promise<AccountEventRecord[]> {
    return this.#accounts.listEvents(environmentId, filter);
  }

  deleteAccount(environmentId: string, id: string): Promise<boolean> {
    return this.#accounts.deleteAccount(environmentId, id);
  }

  tryAcquireRefreshLease(accountId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.#accounts.tryAcquireRefreshLease(accountId, owner, ttlMs);
  }

  releaseRefreshLease(accountId: string, owner: string): Promise<void> {
    return this.#accounts.releaseRefreshLease(accountId, owner);
  }

  // ---- authorization links and OAuth states (sql-oauth-records.ts) ----

  createAuthLink(rec: AuthLinkRecord): Promise<void> {
    return this.#oauth.createAuthLink(rec);
  }

  getAuthLink(tokenHash: string): Promise<AuthLinkRecord | null> {
    return this.#oauth.getAuthLink(tokenHash);
  }

  bindAuthLink(tokenHash: string, browserHash: string): Promise<AuthLinkRecord | null> {
    return this.#oauth.bindAuthLink(tokenHash, browserHash);
  }

  createOAuthState(rec: OAuthStateRecord): Promise<void> {
    return this.#oauth.createOAuthState(rec);
  }

  consumeOAuthState(stateHash: string): Promise<OAuthStateRecord | null> {
    return this.#oauth.consumeOAuthState(stateHash);
  }

  getLinkOAuthState(linkHash: string): Promise<OAuthStateRecord | null> {
    return this.#oauth.getLinkOAuthState(linkHash);
  }

  async purgeExpired(before: string = new Date().toISOString()): Promise<number> {
    const cutoff = normalizeTime(before);
    return (
      (await this.#oauth.purgeExpired(cutoff)) +
      (await this.#mcpSessions.purgeExpired(cutoff)) +
      (await this.#formSends.purgeExpired(cutoff)) +
      (await this.#webhooks.purge(cutoff))
    );
  }

  // ---- dashboard one-time forms (sql-form-sends.ts) ----

  claimFormSend(input: NewFormSend): Promise<FormSendRecord | null> {
    return this.#formSends.claim(input);
  }

  finishFormSend(id: string, result: Record<string, unknown>): Promise<void> {
    return this.#formSends.finish(id, result);
  }

  releaseFormSend(id: string): Promise<void> {
    return this.#formSends.release(id);
  }

  // ---- MCP sessions (sql-mcp-sessions.ts) ----

  createMcpSession(input: NewMcpSession): Promise<McpSessionRecord> {
    return this.#mcpSessions.create(input);
  }

  getMcpSessionByTokenHash(tokenHash: string): Promise<McpSessionRecord | null> {
    return this.#mcpSessions.getByTokenHash(tokenHash);
  }

  getMcpSession(environmentId: string, id: string): Promise<McpSessionRecord | null> {
    return this.#mcpSessions.get(environmentId, id);
  }

  listMcpSessions(environmentId: string, filter?: { identifier?: string }): Promise<McpSessionRecord[]> {
    return this.#mcpSessions.list(environmentId, filter);
  }

  revokeMcpSession(environmentId: string, id: string, at?: string): Promise<McpSessionRecord | null> {
    return this.#mcpSessions.revoke(environmentId, id, at);
  }

  // ---- execution history ----

  recordExecutions(recs: readonly ExecutionRecord[]): Promise<void> {
    return this.#executions.record(recs);
  }

  listExecutions(environmentId: string, filter: ExecutionFilter, page: ExecutionPage): Promise<ExecutionRecord[]> {
    return this.#executions.list(environmentId, filter, page);
  }

  getExecution(environmentId: string, id: string): Promise<ExecutionRecord | null> {
    return this.#executions.get(environmentId, id);
  }

  purgeExecutions(before: string): Promise<number> {
    return this.#executions.purge(before);
  }

  // ---- webhook endpoints and deliveries (sql-webhooks.ts) ----

  createWebhookEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
    return this.#webhooks.createEndpoint(input);
  }

  listWebhookEndpoints(environmentId: string): Promise<WebhookEndpointRecord[]> {
    return this.#webhooks.listEndpoints(environmentId);
  }

  getWebhookEndpoint(environmentId: string, id: string): Promise<WebhookEndpointRecord | null> {
    return this.#webhooks.getEndpoint(environmentId, id);
  }

  rotateWebhookSecret(environmentId: string, id: string, secret: string, previousSecretExpiresAt: string): Promise<WebhookEndpointRecord | null> {
    return this.#webhooks.rotateSecret(environmentId, id, secret, previousSecretExpiresAt);
  }

  deleteWebhookEndpoint(environmentId: string, id: string): Promise<boolean> {
    return this.#webhooks.deleteEndpoint(environmentId, id);
  }

  claimWebhookDeliveries(opts: { owner: string; now: string; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    return this.#webhooks.claim(opts);
  }

  recordWebhookAttempt(deliveryId: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
    return this.#webhooks.recordAttempt(deliveryId, owner, outcome);
  }

  retryWebhookDelivery(environmentId: string, id: string, now: string): Promise<boolean> {
    return this.#webhooks.retryDelivery(environmentId, id, now);
  }

  listWebhookDeliveries(environmentId: string, filter: WebhookDeliveryFilter = {}): Promise<WebhookDeliveryRecord[]> {
    return this.#webhooks.listDeliveries(environmentId, filter);
  }

  getWebhookDelivery(environmentId: string, id: string): Promise<WebhookDeliveryRecord | null> {
    return this.#webhooks.getDelivery(environmentId, id);
  }

  listWebhookAttempts(environmentId: string, deliveryId: string): Promise<WebhookAttemptRecord[]> {
    return this.#webhooks.listAttempts(environmentId, deliveryId);
  }

  // ---- key rotation ----

  reencryptAll(): Promise<number> {
    return reencryptSecrets(this.#ctx.db, this.#ctx.box);
  }
}
