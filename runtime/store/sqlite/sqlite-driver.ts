/**
 * better-sqlite3 behind the `SqlDriver` interface. Statements are prepared once and cached by their SQL text: the
 * executor looks an account up on every tool call, and preparing is most of a lookup's cost. Rows are better-sqlite3's
 * own objects, named by the columns SQLite reports for each row, so a schema changed by another process is read under
 * its new names.
 *
 * @see https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md
 * @see https://www.sqlite.org/wal.html
 */
import { chmodSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Migration, SqlDriver, SqlQueries, SqlValue } from '../sql-driver.js';

export interface SqliteDriverOptions {
  /** File path, or `:memory:`. */
  filename: string;
  /** How long a writer waits for another process's write lock before failing (ms). */
  busyTimeoutMs?: number;
  /**
   * SQLite's page cache per connection, in KiB (default 32 MiB; SQLite's own default is 2 MiB). Random lookups over
   * a large accounts table (about 50 MB at 100,000 accounts) touch index and table pages all over the file.
   */
  cacheSizeKiB?: number;
  /**
   * How much of the file SQLite reads through a memory map instead of `read()` (default 256 MiB; 0 disables). The
   * mapping is address space backed by the OS page cache, not private memory: it costs resident memory only for
   * the pages actually touched, and the OS can drop them under pressure.
   * @see https://www.sqlite.org/mmap.html
   */
  mmapSizeBytes?: number;
}

/** Defaults of `cacheSizeKiB` and `mmapSizeBytes`. */
export const SQLITE_DEFAULT_CACHE_KIB = 32 * 1024;
export const SQLITE_DEFAULT_MMAP_BYTES = 256 * 2 ** 20;

export class SqliteDriver implements SqlDriver {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /**
   * Settles when the open transaction ends; null when none is open. The process has one SQLite connection, so a
   * statement from elsewhere sent while a transaction is open would become part of it: statements wait instead.
   */
  #transaction: Promise<void> | null = null;
  readonly #tx: SqlQueries = {
    get: async <T>(sql: string, params: readonly SqlValue[] = []) => this.#prepare(sql).get(...params) as T | undefined,
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => this.#prepare(sql).all(...params) as T[],
    run: async (sql: string, params: readonly SqlValue[] = []) => this.#prepare(sql).run(...params).changes,
  };

  constructor(opts: SqliteDriverOptions) {
    this.db = new Database(opts.filename);
    // The file holds only ciphertexts of secrets, but its metadata (ids, identifiers) is still nobody else's business.
    if (opts.filename !== ':memory:' && opts.filename !== '') chmodSync(opts.filename, 0o600);
    // WAL lets readers run while one process writes; busy_timeout makes concurrent writers from several processes
    // queue instead of failing with SQLITE_BUSY. synchronous=FULL because a lost write here can be a rotated refresh
    // token the provider has already invalidated.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    // Lookups on a large accounts table are random access: a bigger page cache and memory-mapped reads keep them off
    // the read() syscall path (see the options).
    this.db.pragma(`cache_size = ${-Math.max(0, Math.floor(opts.cacheSizeKiB ?? SQLITE_DEFAULT_CACHE_KIB))}`);
    this.db.pragma(`mmap_size = ${Math.max(0, Math.floor(opts.mmapSizeBytes ?? SQLITE_DEFAULT_MMAP_BYTES))}`);
  }

  #prepare(sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    while (this.#transaction !== null) await this.#transaction;
    return this.#prepare(sql).get(...params) as T | undefined;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    while (this.#transaction !== null) await this.#transaction;
    return this.#prepare(sql).all(...params) as T[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    while (this.#transaction !== null) await this.#transaction;
    return this.#prepare(sql).run(...params).changes;
  }

  /** `BEGIN IMMEDIATE` takes the write lock up front, so a transaction never fails half-way for want of it. */
  async transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T> {
    while (this.#transaction !== null) await this.#transaction;
    let end!: () => void;
    this.#transaction = new Promise<void>((resolve) => (end = resolve));
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(this.#tx);
        this.db.exec('COMMIT');
        return out;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.#transaction = null;
      end();
    }
  }

  /**
   * `BEGIN IMMEDIATE` takes SQLite's single write lock before reading the applied versions, so a second process
   * waits (busy_timeout) and then sees the first one's work instead of applying the same migration twice.
   */
  async migrate(migrations: readonly Migration[]): Promise<void> {
    const apply = this.db.transaction(() => {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const applied = new Set(
        (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
      );
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(m.version)) continue;
        this.db.exec(m.sql);
        this.db
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(m.version, m.name, new Date().toISOString());
      }
    });
    apply.immediate();
    // Prepared statements may predate a schema change.
    this.#statements.clear();
  }

  async close(): Promise<void> {
    this.#statements.clear();
    if (this.db.open) this.db.close();
  }
}
