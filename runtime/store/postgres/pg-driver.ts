/**
 * node-postgres (a `pg.Pool`) behind the `SqlDriver` interface.
 *
 * An optional `schema` puts every table in one PostgreSQL schema through `search_path` on each pooled connection;
 * tests use it to give each test file its own schema on a shared server.
 *
 * @see https://node-postgres.com/apis/pool
 * @see https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
 */
import pg from 'pg';
import type { Migration, SqlDriver, SqlQueries, SqlValue } from '../sql-driver.js';

const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
/** First half of the two-key advisory lock migrations take; the second half is derived from the schema name. */
const MIGRATION_LOCK_CLASS = 0x61_63_6d_67; // "acmg"

export interface PgDriverOptions {
  connectionString: string;
  /** Schema holding the tables (created by `migrate()` if missing). Default: the server's `search_path`. */
  schema?: string;
  /** Pool size. */
  max?: number;
}

export class PgDriver implements SqlDriver {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly schema: string | null;
  /** `?` placeholders numbered as `$n`, computed once per statement text. */
  readonly #numbered = new Map<string, string>();

  constructor(opts: PgDriverOptions) {
    if (opts.schema !== undefined && !SCHEMA_PATTERN.test(opts.schema)) {
      throw new Error(`invalid PostgreSQL schema name "${opts.schema}" (expected ${SCHEMA_PATTERN.source})`);
    }
    this.schema = opts.schema ?? null;
    this.pool = new pg.Pool({
      connectionString: opts.connectionString,
      max: opts.max ?? 10,
      ...(this.schema ? { options: `-c search_path=${this.schema}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the next query gets a fresh one.
    this.pool.on('error', () => {});
  }

  #sql(sql: string): string {
    let out = this.#numbered.get(sql);
    if (out === undefined) {
      let n = 0;
      out = sql.replace(/\?/g, () => `$${++n}`);
      this.#numbered.set(sql, out);
    }
    return out;
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    const res = await this.pool.query(this.#sql(sql), params as SqlValue[]);
    return res.rows[0] as T | undefined;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const res = await this.pool.query(this.#sql(sql), params as SqlValue[]);
    return res.rows as T[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    const res = await this.pool.query(this.#sql(sql), params as SqlValue[]);
    return res.rowCount ?? 0;
  }

  /** One pooled client for the whole transaction; statements elsewhere use other clients meanwhile. */
  async transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const params = (values: readonly SqlValue[] | undefined): SqlValue[] => (values ?? []) as SqlValue[];
    const tx: SqlQueries = {
      get: async <R>(sql: string, values?: readonly SqlValue[]) => (await client.query(this.#sql(sql), params(values))).rows[0] as R | undefined,
      all: async <R>(sql: string, values?: readonly SqlValue[]) => (await client.query(this.#sql(sql), params(values))).rows as R[],
      run: async (sql: string, values?: readonly SqlValue[]) => (await client.query(this.#sql(sql), params(values))).rowCount ?? 0,
    };
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn(tx);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw error;
    } finally {
      // A client whose ROLLBACK failed is in an unknown state: destroy it rather than hand it to the next caller.
      client.release(broken);
    }
  }

  /**
   * One transaction under a transaction-scoped advisory lock: concurrent callers (other processes, other service
   * instances) queue on the lock and then find the migrations recorded. The lock is taken before anything else,
   * because even `CREATE ... IF NOT EXISTS` races between sessions.
   */
  async migrate(migrations: readonly Migration[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, this.schema ?? '']);
      if (this.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(m.version)) continue;
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
