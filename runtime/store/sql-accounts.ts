/**
 * The `connected_accounts` table: one end user's authorization of one connection, its tokens sealed with AAD
 * `connected_accounts|<id>|access_token` (and `refresh_token`), and the refresh lease that lets one process at a time
 * refresh an account's tokens.
 */
import DataLoader from 'dataloader';
import { ConnectorError } from '../errors.js';
import { secretAad } from '../crypto/secret-box.js';
import { newId } from './ids.js';
import { normalizeTime, toAccount, type AccountRow } from './records.js';
import type { AccountEventDraft } from '../webhooks/event-types.js';
import type { SqlContext } from './sql-context.js';
import type { SqlQueries, SqlValue } from './sql-driver.js';
import { appendAccountEvent, toAccountEvent, type AccountEventRow } from './sql-events.js';
import type { AccountEventRecord, AccountFilter, AccountPage, AccountRecord, AccountStatus, TokenSet } from './types.js';

/** The WHERE clause of a filtered account list or count (column names fixed here, values as parameters). */
function accountWhere(environmentId: string, filter: AccountFilter): { where: string; params: SqlValue[] } {
  const where = ['environment_id = ?'];
  const params: SqlValue[] = [environmentId];
  if (filter.identifier !== undefined) (where.push('identifier = ?'), params.push(filter.identifier));
  if (filter.connectionId !== undefined) (where.push('connection_id = ?'), params.push(filter.connectionId));
  if (filter.status !== undefined) (where.push('status = ?'), params.push(filter.status));
  return { where: where.join(' AND '), params };
}

/** One end user's account on one connection: what a tool call or proxy request looks up. */
interface AccountKey {
  environmentId: string;
  connectionId: string;
  identifier: string;
}

/** The most identifiers one lookup query names. */
const MAX_LOOKUPS_PER_QUERY = 100;

export class SqlAccounts {
  /**
   * `findAccount`s asked for in one turn of the event loop, read with one query per connection. With many end users
   * most calls miss the executor's short lookup cache, and on PostgreSQL a query per call was most of the cost of a
   * miss: the round trip and the server's parse and plan (docs/benchmarks.md, "Many users on PostgreSQL"). Nothing is
   * remembered here (`cache: false`): the lookup cache above decides what may be reused and for how long.
   * @see https://github.com/graphql/dataloader
   */
  readonly #lookups: DataLoader<AccountKey, AccountRecord | null>;

  constructor(private readonly ctx: SqlContext) {
    this.#lookups = new DataLoader((keys) => this.#findAccounts(keys), {
      cache: false,
      maxBatchSize: MAX_LOOKUPS_PER_QUERY,
      // After the I/O callbacks of this turn: the requests that arrived together look their users up together.
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    });
  }

  /**
   * Runs an account write (`UPDATE ... RETURNING *`) and, when there is an event, appends it in the same
   * transaction. Without an event the write is the single statement it always was.
   */
  async #write(sql: string, params: readonly SqlValue[], event: AccountEventDraft | undefined): Promise<AccountRow | undefined> {
    const write = async (q: SqlQueries): Promise<AccountRow | undefined> => {
      const row = await q.get<AccountRow>(sql, params);
      if (row !== undefined && event !== undefined) await appendAccountEvent(q, row, event);
      return row;
    };
    return event === undefined ? write(this.ctx.db) : this.ctx.db.transaction(write);
  }

  async ensureAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord> {
    const now = new Date().toISOString();
    // Selecting from connections makes the insert a no-op for a connection of another environment.
    await this.ctx.db.run(
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
    const row = await this.ctx.db.get<AccountRow>('SELECT * FROM connected_accounts WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row ? toAccount(row, this.ctx.box) : null;
  }

  findAccount(environmentId: string, connectionId: string, identifier: string): Promise<AccountRecord | null> {
    return this.#lookups.load({ environmentId, connectionId, identifier });
  }

  /**
   * The statement reading `count` identifiers' accounts on one connection (parameters: the identifiers, then the
   * connection id and the environment id), each found through the (connection, identifier) or (environment,
   * identifier) index whatever the table's statistics say. SQLite probes the index once per value of an IN list.
   * PostgreSQL, on a table not yet analyzed (just after a bulk load), plans an IN list as a scan of every account of
   * the connection; it is given one lookup per identifier instead (a LATERAL subquery, planned like the single
   * lookup was).
   */
  #lookupSql(count: number): string {
    const placeholders = Array.from({ length: count }, () => '?');
    if (this.ctx.kind === 'postgres') {
      return `SELECT a.* FROM (VALUES ${placeholders.map((p) => `(${p})`).join(', ')}) AS k(identifier) CROSS JOIN LATERAL (
        SELECT * FROM connected_accounts WHERE identifier = k.identifier AND connection_id = ? AND environment_id = ? LIMIT 1) a`;
    }
    return `SELECT * FROM connected_accounts WHERE identifier IN (${placeholders.join(', ')}) AND connection_id = ? AND environment_id = ?`;
  }

  /** The accounts for `keys`, in their order (null where there is none): one query per connection among them. */
  async #findAccounts(keys: readonly AccountKey[]): Promise<(AccountRecord | null | Error)[]> {
    const byConnection = new Map<string, { environmentId: string; connectionId: string; identifiers: Set<string> }>();
    for (const { environmentId, connectionId, identifier } of keys) {
      const group = JSON.stringify([environmentId, connectionId]);
      let lookup = byConnection.get(group);
      if (lookup === undefined) byConnection.set(group, (lookup = { environmentId, connectionId, identifiers: new Set() }));
      lookup.identifiers.add(identifier);
    }
    const rows = new Map<string, AccountRow | Error>();
    await Promise.all(
      [...byConnection.values()].map(async ({ environmentId, connectionId, identifiers }) => {
        const named = [...identifiers];
        try {
          const found = await this.ctx.db.all<AccountRow>(this.#lookupSql(named.length), [...named, connectionId, environmentId]);
          for (const row of found) rows.set(JSON.stringify([environmentId, connectionId, row.identifier]), row);
        } catch (error) {
          // This connection's lookups fail with the query; the other connections' are unaffected.
          for (const identifier of named) rows.set(JSON.stringify([environmentId, connectionId, identifier]), error as Error);
        }
      }),
    );
    return keys.map(({ environmentId, connectionId, identifier }) => {
      const row = rows.get(JSON.stringify([environmentId, connectionId, identifier]));
      if (row === undefined) return null;
      if (row instanceof Error) return row;
      try {
        // The per-call lookup: the refresh token is opened only if something reads it (records.ts, toTokens).
        return toAccount(row, this.ctx.box, { lazyRefresh: true });
      } catch (error) {
        return error as Error;
      }
    });
  }

  async listAccounts(environmentId: string, filter: AccountFilter = {}, page?: AccountPage): Promise<AccountRecord[]> {
    const { where, params } = accountWhere(environmentId, filter);
    let sql = `SELECT * FROM connected_accounts WHERE ${where}`;
    if (page?.after !== undefined) {
      // After (created_at, id) in list order, as one row-value comparison: both databases search the
      // (environment_id, created_at, id) index from that key, so a page costs its own rows however deep it is. The
      // spelled-out `created_at > ? OR (created_at = ? AND id > ?)` reads past every earlier account of the same
      // instant first (test/runtime/store/sqlite-perf.test.ts checks the plan).
      sql += ' AND (created_at, id) > (?, ?)';
      params.push(normalizeTime(page.after.createdAt), page.after.id);
    }
    sql += ' ORDER BY created_at, id';
    if (page !== undefined) {
      // Only the page's rows are read and decrypted (the index on environment_id, created_at, id serves the order).
      sql += ' LIMIT ? OFFSET ?';
      params.push(Math.max(1, Math.floor(page.limit)), Math.max(0, Math.floor(page.offset ?? 0)));
    }
    const rows = await this.ctx.db.all<AccountRow>(sql, params);
    return rows.map((r) => toAccount(r, this.ctx.box));
  }

  async countAccounts(environmentId: string, filter: AccountFilter = {}): Promise<number> {
    const { where, params } = accountWhere(environmentId, filter);
    const row = await this.ctx.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM connected_accounts WHERE ${where}`, params);
    return Number(row?.n ?? 0);
  }

  async countAccountsByStatus(environmentId: string, filter: AccountFilter = {}): Promise<Record<AccountStatus, number>> {
    const { where, params } = accountWhere(environmentId, filter);
    const rows = await this.ctx.db.all<{ status: AccountStatus; n: number | string }>(`SELECT status, COUNT(*) AS n FROM connected_accounts WHERE ${where} GROUP BY status`, params);
    const counts: Record<AccountStatus, number> = { PENDING_AUTH: 0, ACTIVE: 0, EXPIRED: 0, DISCONNECTED: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  /**
   * Stores exactly the given token set (a null `refreshToken` is stored as null: keeping the previous refresh token
   * when a provider omits it is the caller's decision). With `expectedVersion` this is a compare-and-set on
   * `token_version`, the check and the write being one statement.
   */
  async saveTokens(
    accountId: string,
    tokens: TokenSet,
    opts: { expectedVersion?: number; providerInfo?: Record<string, unknown>; event?: AccountEventDraft } = {},
  ): Promise<AccountRecord | null> {
    const params: SqlValue[] = [
      this.ctx.box.seal(tokens.accessToken, secretAad('connected_accounts', accountId, 'access_token')),
      tokens.refreshToken === null ? null : this.ctx.box.seal(tokens.refreshToken, secretAad('connected_accounts', accountId, 'refresh_token')),
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
    const row = await this.#write(`${sql} RETURNING *`, params, opts.event);
    return row ? toAccount(row, this.ctx.box) : null;
  }

  async setAccountStatus(accountId: string, status: AccountStatus, reason: string | null = null, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    await this.#write(
      'UPDATE connected_accounts SET status = ?, status_reason = ?, updated_at = ? WHERE id = ? RETURNING *',
      [status, reason, new Date().toISOString(), accountId],
      opts.event,
    );
  }

  async setStatusReason(accountId: string, reason: string | null, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    await this.#write('UPDATE connected_accounts SET status_reason = ?, updated_at = ? WHERE id = ? RETURNING *', [reason, new Date().toISOString(), accountId], opts.event);
  }

  async clearTokens(accountId: string, opts: { event?: AccountEventDraft } = {}): Promise<void> {
    await this.#write(
      `UPDATE connected_accounts SET access_token = NULL, refresh_token = NULL, token_type = NULL, expires_at = NULL,
         scopes = '[]', status = 'DISCONNECTED', status_reason = NULL, token_version = token_version + 1,
         refresh_lease_owner = NULL, refresh_lease_until = NULL, updated_at = ? WHERE id = ? RETURNING *`,
      [new Date().toISOString(), accountId],
      opts.event,
    );
  }

  async appendEvent(accountId: string, event: AccountEventDraft): Promise<AccountEventRecord | null> {
    return this.ctx.db.transaction(async (tx) => {
      const row = await tx.get<AccountRow>('SELECT * FROM connected_accounts WHERE id = ?', [accountId]);
      return row === undefined ? null : appendAccountEvent(tx, row, event);
    });
  }

  async listEvents(environmentId: string, filter: { accountId?: string; eventId?: string; limit?: number } = {}): Promise<AccountEventRecord[]> {
    const where = ['environment_id = ?'];
    const params: SqlValue[] = [environmentId];
    if (filter.accountId !== undefined) (where.push('account_id = ?'), params.push(filter.accountId));
    if (filter.eventId !== undefined) (where.push('id = ?'), params.push(filter.eventId));
    const limit = Math.min(Math.max(1, Math.floor(filter.limit ?? 100)), 1000);
    const rows = await this.ctx.db.all<AccountEventRow>(
      `SELECT * FROM account_events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
      params,
    );
    return rows.map(toAccountEvent);
  }


  async deleteAccount(environmentId: string, id: string): Promise<boolean> {
    return (await this.ctx.db.run('DELETE FROM connected_accounts WHERE id = ? AND environment_id = ?', [id, environmentId])) > 0;
  }

  /**
   * One conditional UPDATE: it succeeds when the lease is free, expired, or already ours. Both databases serialize
   * writers to a row, so of several concurrent callers (in any process) exactly one sees a changed row.
   */
  async tryAcquireRefreshLease(accountId: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = Math.max(0, Math.floor(ttlMs));
    if (this.ctx.kind === 'postgres') {
      // Several service hosts share PostgreSQL: judge expiry by the database's clock, not each host's.
      const changed = await this.ctx.db.run(
        `UPDATE connected_accounts SET refresh_lease_owner = ?,
           refresh_lease_until = clock_timestamp() + (?::double precision * interval '1 millisecond')
         WHERE id = ? AND (refresh_lease_owner IS NULL OR refresh_lease_until < clock_timestamp() OR refresh_lease_owner = ?)`,
        [owner, ttl, accountId, owner],
      );
      return changed === 1;
    }
    // SQLite is one file on one machine, so every process shares this clock.
    const now = Date.now();
    const changed = await this.ctx.db.run(
      `UPDATE connected_accounts SET refresh_lease_owner = ?, refresh_lease_until = ?
       WHERE id = ? AND (refresh_lease_owner IS NULL OR refresh_lease_until < ? OR refresh_lease_owner = ?)`,
      [owner, new Date(now + ttl).toISOString(), accountId, new Date(now).toISOString(), owner],
    );
    return changed === 1;
  }

  async releaseRefreshLease(accountId: string, owner: string): Promise<void> {
    await this.ctx.db.run(
      'UPDATE connected_accounts SET refresh_lease_owner = NULL, refresh_lease_until = NULL WHERE id = ? AND refresh_lease_owner = ?',
      [accountId, owner],
    );
  }
}
