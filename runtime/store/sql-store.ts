/**
 * The one `Store` implementation, over a `SqlDriver` (SQLite or PostgreSQL). Every statement is portable SQL with
 * `?` placeholders (both databases support `RETURNING` and `ON CONFLICT`), so the two backends cannot drift apart.
 *
 * Secrets are sealed here, just before they are written, with AAD `table|row id|column`; nothing else in the runtime
 * sees a ciphertext or writes SQL.
 */
import { ConnectorError } from '../errors.js';
import { SecretBox, secretAad } from '../crypto/secret-box.js';
import type { Keyring } from '../crypto/keyring.js';
import { newId } from './ids.js';
import { reencryptSecrets } from './reencrypt.js';
import {
  normalizeTime,
  toAccount,
  toAppClient,
  toAuthLink,
  toConnection,
  toEnvironment,
  toOAuthState,
  type AccountRow,
  type AppClientRow,
  type AuthLinkRow,
  type ConnectionRow,
  type EnvironmentRow,
  type OAuthStateRow,
} from './records.js';
import { isForeignKeyViolation, isUniqueViolation, type Migration, type SqlDriver, type SqlValue } from './sql-driver.js';
import type {
  AccountFilter,
  AccountRecord,
  AccountStatus,
  AppClientRecord,
  AuthLinkRecord,
  ConnectionPatch,
  ConnectionRecord,
  EnvironmentRecord,
  NewConnection,
  OAuthStateRecord,
  Store,
  TokenSet,
} from './types.js';

/** About 20,000 accounts' access tokens (findAccount opens a refresh token only when it is read); a few MB. */
export const DEFAULT_SECRET_CACHE_SIZE = 20_000;

export class SqlStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly #db: SqlDriver;
  readonly #box: SecretBox;
  readonly #migrations: readonly Migration[];

  /**
   * @param opts.secretCacheSize Opened secrets remembered per process (see `SecretBox`): the executor reads the
   *   same accounts' tokens on every call, and AES-GCM setup is most of a lookup's cost.
   */
  constructor(driver: SqlDriver, keyring: Keyring, migrations: readonly Migration[], opts: { secretCacheSize?: number } = {}) {
    this.kind = driver.kind;
    this.#db = driver;
    this.#box = new SecretBox(keyring, { cacheSize: opts.secretCacheSize ?? DEFAULT_SECRET_CACHE_SIZE });
    this.#migrations = migrations;
  }

  migrate(): Promise<void> {
    return this.#db.migrate(this.#migrations);
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  // ---- environments and app clients ----

  async createEnvironment(env: { id: string; name: string }): Promise<EnvironmentRecord> {
    const createdAt = new Date().toISOString();
    try {
      await this.#db.run('INSERT INTO environments (id, name, created_at) VALUES (?, ?, ?)', [env.id, env.name, createdAt]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConnectorError('conflict', `environment "${env.id}" already exists`);
      throw err;
    }
    return { id: env.id, name: env.name, createdAt };
  }

  async getEnvironment(id: string): Promise<EnvironmentRecord | null> {
    const row = await this.#db.get<EnvironmentRow>('SELECT * FROM environments WHERE id = ?', [id]);
    return row ? toEnvironment(row) : null;
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    return (await this.#db.all<EnvironmentRow>('SELECT * FROM environments ORDER BY created_at, id')).map(toEnvironment);
  }

  async createAppClient(rec: { clientId: string; environmentId: string; secretHash: string }): Promise<AppClientRecord> {
    const createdAt = new Date().toISOString();
    try {
      await this.#db.run('INSERT INTO app_clients (client_id, environment_id, secret_hash, created_at) VALUES (?, ?, ?, ?)', [
        rec.clientId,
        rec.environmentId,
        rec.secretHash,
        createdAt,
      ]);
    } catch (err) {
      throw mapWriteError(err, `app client "${rec.clientId}"`, rec.environmentId);
    }
    return { ...rec, createdAt };
  }

  async getAppClient(clientId: string): Promise<AppClientRecord | null> {
    const row = await this.#db.get<AppClientRow>('SELECT * FROM app_clients WHERE client_id = ?', [clientId]);
    return row ? toAppClient(row) : null;
  }

  // ---- connections ----

  async createConnection(input: NewConnection): Promise<ConnectionRecord> {
    const id = newId('conn');
    const now = new Date().toISOString();
    const rec: ConnectionRecord = {
      id,
      environmentId: input.environmentId,
      name: input.name,
      connector: input.connector,
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      scopes: [...input.scopes],
      overrides: { ...(input.overrides ?? {}) },
      allowedRedirectUrls: [...(input.allowedRedirectUrls ?? [])],
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.#db.run(
        `INSERT INTO connections (id, environment_id, name, connector, client_id, client_secret, scopes, overrides,
           allowed_redirect_urls, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          rec.environmentId,
          rec.name,
          rec.connector,
          rec.clientId,
          this.#box.seal(rec.clientSecret, secretAad('connections', id, 'client_secret')),
          JSON.stringify(rec.scopes),
          JSON.stringify(rec.overrides),
          JSON.stringify(rec.allowedRedirectUrls),
          now,
          now,
        ],
      );
    } catch (err) {
      throw mapWriteError(err, `connection "${input.name}"`, input.environmentId);
    }
    return rec;
  }

  async getConnection(environmentId: string, id: string): Promise<ConnectionRecord | null> {
    const row = await this.#db.get<ConnectionRow>('SELECT * FROM connections WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row ? toConnection(row, this.#box) : null;
  }

  async getConnectionById(id: string): Promise<ConnectionRecord | null> {
    const row = await this.#db.get<ConnectionRow>('SELECT * FROM connections WHERE id = ?', [id]);
    return row ? toConnection(row, this.#box) : null;
  }

  async getConnectionByName(environmentId: string, name: string): Promise<ConnectionRecord | null> {
    const row = await this.#db.get<ConnectionRow>('SELECT * FROM connections WHERE environment_id = ? AND name = ?', [environmentId, name]);
    return row ? toConnection(row, this.#box) : null;
  }

  async listConnections(environmentId: string): Promise<ConnectionRecord[]> {
    const rows = await this.#db.all<ConnectionRow>('SELECT * FROM connections WHERE environment_id = ? ORDER BY created_at, id', [environmentId]);
    return rows.map((r) => toConnection(r, this.#box));
  }

  async updateConnection(environmentId: string, id: string, patch: ConnectionPatch): Promise<ConnectionRecord | null> {
    // Column names come from this fixed list, never from the caller.
    const sets: string[] = [];
    const params: SqlValue[] = [];
    const set = (column: string, value: SqlValue) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.clientId !== undefined) set('client_id', patch.clientId);
    if (patch.clientSecret !== undefined) set('client_secret', this.#box.seal(patch.clientSecret, secretAad('connections', id, 'client_secret')));
    if (patch.scopes !== undefined) set('scopes', JSON.stringify(patch.scopes));
    if (patch.overrides !== undefined) set('overrides', JSON.stringify(patch.overrides));
    if (patch.allowedRedirectUrls !== undefined) set('allowed_redirect_urls', JSON.stringify(patch.allowedRedirectUrls));
    set('updated_at', new Date().toISOString());
    try {
      const row = await this.#db.get<ConnectionRow>(
        `UPDATE connections SET ${sets.join(', ')} WHERE id = ? AND environment_id = ? RETURNING *`,
        [...params, id, environmentId],
      );
      return row ? toConnection(row, this.#box) : null;
    } catch (err) {
      throw mapWriteError(err, `connection "${patch.name ?? id}"`, environmentId);
    }
  }

  async deleteConnection(environmentId: string, id: string): Promise<boolean> {
    // ON DELETE CASCADE removes the accounts (and with them their tokens), links and pending states.
    return (await this.#db.run('DELETE FROM connections WHERE id = ? AND environment_id = ?', [id, environmentId])) > 0;
  }

  // ---- connected accounts ----

  async ensureAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord> {
    const now = new Date().toISOString();
    // Selecting from connections makes the insert a no-op for a connection of another environment.
    await this.#db.run(
      `INSERT INTO connected_accounts (id, environment_id, connection_id, identifier, status, created_at, updated_at)
       SELECT ?, environment_id, id, ?, 'PENDING_AUTH', ?, ? FROM connections WHERE id = ? AND environment_id = ?
       ON CONFLICT (connection_id, identifier) DO NOTHING`,
      [newId('ca'), identifier, now, now, connectionId, environmentId],
    );
    const account = await this.findAccount(environmentId, connectionId, identifier);
    if (!account) throw new ConnectorError('connection_not_found', `no connection "${connectionId}" in this environment`);
    return account;
  }

  async getAccount(environmentId: string, id: string): Promise<AccountRecord | null> {
    const row = await this.#db.get<AccountRow>('SELECT * FROM connected_accounts WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row ? toAccount(row, this.#box) : null;
  }

  async findAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord | null> {
    const row = await this.#db.get<AccountRow>(
      'SELECT * FROM connected_accounts WHERE connection_id = ? AND identifier = ? AND environment_id = ?',
      [connectionId, identifier, environmentId],
    );
    // The per-call lookup: the refresh token is opened only if something reads it (see toAccount).
    return row ? toAccount(row, this.#box, { lazyRefresh: true }) : null;
  }

  async listAccounts(environmentId: string, filter: AccountFilter = {}): Promise<AccountRecord[]> {
    const where = ['environment_id = ?'];
    const params: SqlValue[] = [environmentId];
    if (filter.identifier !== undefined) (where.push('identifier = ?'), params.push(filter.identifier));
    if (filter.connectionId !== undefined) (where.push('connection_id = ?'), params.push(filter.connectionId));
    if (filter.status !== undefined) (where.push('status = ?'), params.push(filter.status));
    const rows = await this.#db.all<AccountRow>(
      `SELECT * FROM connected_accounts WHERE ${where.join(' AND ')} ORDER BY created_at, id`,
      params,
    );
    return rows.map((r) => toAccount(r, this.#box));
  }

  /**
   * Stores exactly the given token set (a null `refreshToken` is stored as null: keeping the previous refresh token
   * when a provider omits it is the caller's decision). With `expectedVersion` this is a compare-and-set on
   * `token_version`, the check and the write being one statement.
   */
  async saveTokens(
    accountId: string,
    tokens: TokenSet,
    opts: { expectedVersion?: number; providerInfo?: Record<string, unknown> } = {},
  ): Promise<AccountRecord | null> {
    const params: SqlValue[] = [
      this.#box.seal(tokens.accessToken, secretAad('connected_accounts', accountId, 'access_token')),
      tokens.refreshToken === null ? null : this.#box.seal(tokens.refreshToken, secretAad('connected_accounts', accountId, 'refresh_token')),
      tokens.tokenType,
      tokens.expiresAt === null ? null : normalizeTime(tokens.expiresAt),
      JSON.stringify(tokens.scopes),
      opts.providerInfo === undefined ? null : JSON.stringify(opts.providerInfo),
      new Date().toISOString(),
      accountId,
    ];
    let sql = `UPDATE connected_accounts SET access_token = ?, refresh_token = ?, token_type = ?, expires_at = ?, scopes = ?,
      provider_info = COALESCE(?, provider_info), status = 'ACTIVE', status_reason = NULL,
      token_version = token_version + 1, updated_at = ? WHERE id = ?`;
    if (opts.expectedVersion !== undefined) {
      sql += ' AND token_version = ?';
      params.push(opts.expectedVersion);
    }
    const row = await this.#db.get<AccountRow>(`${sql} RETURNING *`, params);
    return row ? toAccount(row, this.#box) : null;
  }

  async setAccountStatus(accountId: string, status: AccountStatus, reason: string | null = null): Promise<void> {
    await this.#db.run('UPDATE connected_accounts SET status = ?, status_reason = ?, updated_at = ? WHERE id = ?', [
      status,
      reason,
      new Date().toISOString(),
      accountId,
    ]);
  }

  async clearTokens(accountId: string): Promise<void> {
    await this.#db.run(
      `UPDATE connected_accounts SET access_token = NULL, refresh_token = NULL, token_type = NULL, expires_at = NULL,
         scopes = '[]', status = 'DISCONNECTED', status_reason = NULL, token_version = token_version + 1,
         refresh_lease_owner = NULL, refresh_lease_until = NULL, updated_at = ? WHERE id = ?`,
      [new Date().toISOString(), accountId],
    );
  }

  async deleteAccount(environmentId: string, id: string): Promise<boolean> {
    return (await this.#db.run('DELETE FROM connected_accounts WHERE id = ? AND environment_id = ?', [id, environmentId])) > 0;
  }

  // ---- refresh lease ----

  /**
   * One conditional UPDATE: it succeeds when the lease is free, expired, or already ours. Both databases serialize
   * writers to a row, so of several concurrent callers (in any process) exactly one sees a changed row.
   */
  async tryAcquireRefreshLease(accountId: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = Math.max(0, Math.floor(ttlMs));
    if (this.kind === 'postgres') {
      // Several service hosts share PostgreSQL: judge expiry by the database's clock, not each host's.
      const changed = await this.#db.run(
        `UPDATE connected_accounts SET refresh_lease_owner = ?,
           refresh_lease_until = clock_timestamp() + (?::double precision * interval '1 millisecond')
         WHERE id = ? AND (refresh_lease_owner IS NULL OR refresh_lease_until < clock_timestamp() OR refresh_lease_owner = ?)`,
        [owner, ttl, accountId, owner],
      );
      return changed === 1;
    }
    // SQLite is one file on one machine, so every process shares this clock.
    const now = Date.now();
    const changed = await this.#db.run(
      `UPDATE connected_accounts SET refresh_lease_owner = ?, refresh_lease_until = ?
       WHERE id = ? AND (refresh_lease_owner IS NULL OR refresh_lease_until < ? OR refresh_lease_owner = ?)`,
      [owner, new Date(now + ttl).toISOString(), accountId, new Date(now).toISOString(), owner],
    );
    return changed === 1;
  }

  async releaseRefreshLease(accountId: string, owner: string): Promise<void> {
    await this.#db.run(
      'UPDATE connected_accounts SET refresh_lease_owner = NULL, refresh_lease_until = NULL WHERE id = ? AND refresh_lease_owner = ?',
      [accountId, owner],
    );
  }

  // ---- authorization links and OAuth states ----

  async createAuthLink(rec: AuthLinkRecord): Promise<void> {
    await this.#db.run(
      `INSERT INTO auth_links (token_hash, environment_id, connection_id, account_id, identifier, redirect_url, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [rec.tokenHash, rec.environmentId, rec.connectionId, rec.accountId, rec.identifier, rec.redirectUrl, normalizeTime(rec.expiresAt), new Date().toISOString()],
    );
  }

  async getAuthLink(tokenHash: string): Promise<AuthLinkRecord | null> {
    const row = await this.#db.get<AuthLinkRow>('SELECT * FROM auth_links WHERE token_hash = ?', [tokenHash]);
    return row ? toAuthLink(row) : null;
  }

  async createOAuthState(rec: OAuthStateRecord): Promise<void> {
    await this.#db.run(
      `INSERT INTO oauth_states (state_hash, environment_id, connection_id, account_id, identifier, code_verifier, browser_hash,
         redirect_url, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        rec.stateHash,
        rec.environmentId,
        rec.connectionId,
        rec.accountId,
        rec.identifier,
        rec.codeVerifier === null ? null : this.#box.seal(rec.codeVerifier, secretAad('oauth_states', rec.stateHash, 'code_verifier')),
        rec.browserHash,
        rec.redirectUrl,
        normalizeTime(rec.expiresAt),
        new Date().toISOString(),
      ],
    );
  }

  /** DELETE ... RETURNING: the read and the removal are one statement, so two callbacks cannot both get the state. */
  async consumeOAuthState(stateHash: string): Promise<OAuthStateRecord | null> {
    const row = await this.#db.get<OAuthStateRow>('DELETE FROM oauth_states WHERE state_hash = ? RETURNING *', [stateHash]);
    return row ? toOAuthState(row, this.#box) : null;
  }

  async purgeExpired(before: string = new Date().toISOString()): Promise<number> {
    const cutoff = normalizeTime(before);
    const states = await this.#db.run('DELETE FROM oauth_states WHERE expires_at < ?', [cutoff]);
    const links = await this.#db.run('DELETE FROM auth_links WHERE expires_at < ?', [cutoff]);
    return states + links;
  }

  // ---- key rotation ----

  reencryptAll(): Promise<number> {
    return reencryptSecrets(this.#db, this.#box);
  }
}

function mapWriteError(err: unknown, what: string, environmentId: string): unknown {
  if (isUniqueViolation(err)) return new ConnectorError('conflict', `${what} already exists in this environment`);
  if (isForeignKeyViolation(err)) return new ConnectorError('not_found', `environment "${environmentId}" does not exist`);
  return err;
}
