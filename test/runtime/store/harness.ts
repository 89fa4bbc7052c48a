/**
 * What the store contract suite needs from a backend: a fresh, empty database, the `openStore` options that reach it
 * (plain JSON, so a child process can open the same database), and raw access that bypasses the store.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { OpenStoreOptions } from '../../../runtime/store/open-store.js';
import { SQLITE_FILE_NAME } from '../../../runtime/store/open-store.js';
import type { SqlValue } from '../../../runtime/store/sql-driver.js';

export type StoreOpenOptions = Omit<OpenStoreOptions, 'keyring'>;

export interface TestDatabase {
  readonly kind: 'sqlite' | 'postgres';
  /** `openStore` options (without the keyring) for this database. */
  readonly options: StoreOpenOptions;
  /** SQL straight to the database, bypassing the store; `?` placeholders. */
  query(sql: string, params?: SqlValue[]): Promise<Record<string, unknown>[]>;
  /** Names of the store's tables. */
  tables(): Promise<string[]>;
  /** Every row of every table with every column as text. */
  dumpText(): Promise<string>;
  /** The bytes at rest: SQLite's database file and WAL after a checkpoint; `pg_dump` output for PostgreSQL. */
  dumpBytes(): Promise<Buffer>;
  /** Drops the database (schema or file). */
  destroy(): Promise<void>;
}

export type NewTestDatabase = () => Promise<TestDatabase>;

export async function newSqliteDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-store-'));
  const file = join(dataDir, SQLITE_FILE_NAME);
  let raw: Database.Database | null = null;
  const conn = (): Database.Database => {
    if (!raw) {
      raw = new Database(file);
      raw.pragma('busy_timeout = 5000');
    }
    return raw;
  };
  const query = async (sql: string, params: SqlValue[] = []) => {
    const stmt = conn().prepare(sql);
    if (stmt.reader) return stmt.all(...params) as Record<string, unknown>[];
    stmt.run(...params);
    return [];
  };
  const tables = async () =>
    ((await query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) as { name: string }[]).map(
      (r) => r.name,
    );
  return {
    kind: 'sqlite',
    options: { dataDir },
    query,
    tables,
    async dumpText() {
      const out: string[] = [];
      for (const t of await tables()) for (const row of await query(`SELECT * FROM "${t}"`)) out.push(`${t}: ${Object.values(row).map(String).join(' | ')}`);
      return out.join('\n');
    },
    async dumpBytes() {
      conn().pragma('wal_checkpoint(TRUNCATE)');
      const parts = [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f));
      return Buffer.concat(parts);
    },
    async destroy() {
      (raw as Database.Database | null)?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL database for one test: its own schema on the shared server, dropped afterwards. */
export async function newPostgresDatabase(databaseUrl: string): Promise<TestDatabase> {
  const schema = `ac_test_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-store-pg-'));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  const query = async (sql: string, params: SqlValue[] = []) => {
    let n = 0;
    return (await pool.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[];
  };
  const tables = async () =>
    ((await query('SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name', [schema])) as { table_name: string }[]).map(
      (r) => r.table_name,
    );
  return {
    kind: 'postgres',
    options: { databaseUrl, dataDir, pgSchema: schema, pgPoolSize: 4 },
    query,
    tables,
    async dumpText() {
      const out: string[] = [];
      for (const t of await tables()) for (const row of await query(`SELECT t::text AS row FROM "${t}" t`)) out.push(`${t}: ${String(row.row)}`);
      return out.join('\n');
    },
    async dumpBytes() {
      const { stdout } = await promisify(execFile)('pg_dump', ['--no-owner', `--schema=${schema}`, databaseUrl], {
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    },
    async destroy() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
