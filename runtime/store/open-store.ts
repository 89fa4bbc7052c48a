/**
 * Opens the token store: PostgreSQL when a database URL is given, otherwise a SQLite file in the data directory.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Keyring } from '../crypto/keyring.js';
import { POSTGRES_MIGRATIONS } from './postgres/migrations.js';
import { PgDriver } from './postgres/pg-driver.js';
import { SQLITE_MIGRATIONS } from './sqlite/migrations.js';
import { SqliteDriver } from './sqlite/sqlite-driver.js';
import { SqlStore } from './sql-store.js';
import type { Store } from './types.js';

export const SQLITE_FILE_NAME = 'agent-connector.db';

export interface OpenStoreOptions {
  /** `postgres://...` selects PostgreSQL (usually `DATABASE_URL`). */
  databaseUrl?: string | undefined;
  /** Directory for the SQLite file (`<dataDir>/agent-connector.db`); created if missing. */
  dataDir: string;
  keyring: Keyring;
  /** Run pending migrations before returning (default true). */
  migrate?: boolean;
  /** PostgreSQL only: keep the tables in this schema (tests use one per file). */
  pgSchema?: string;
  /** PostgreSQL only: pool size (default 10). */
  pgPoolSize?: number;
  /** SQLite only: a file path or `:memory:` instead of `<dataDir>/agent-connector.db`. */
  sqliteFile?: string;
}

/**
 * The SQLite store is not there: a command that only reads or changes an existing store (`environments
 * rotate-secret`, `delete`, `list`, `mcp --local`) was run where no service keeps its data. Nothing was created.
 */
export class StoreMissingError extends Error {
  override name = 'StoreMissingError';
}

/**
 * Throws {@link StoreMissingError} when the SQLite store in `dataDir` (`<dataDir>/agent-connector.db`) does not
 * exist, creating nothing; PostgreSQL (a database URL) is never checked here, and its URL never named. `dataDirNote`
 * says where the directory came from (e.g. which variable, or that a default was resolved against the working
 * directory). The one place that decides whether a command may go on without creating a store: call it before
 * anything that writes to the data directory (the development key file).
 */
export function requireExistingStore(opts: { databaseUrl?: string | undefined; dataDir: string; dataDirNote?: string }): void {
  if (opts.databaseUrl) return;
  const file = join(opts.dataDir, SQLITE_FILE_NAME);
  const note = opts.dataDirNote ? ` (${opts.dataDirNote})` : '';
  const missing = !existsSync(opts.dataDir) ? `the data directory ${opts.dataDir}${note} does not exist` : !existsSync(file) ? `there is no database ${file}${note}` : undefined;
  if (missing === undefined) return;
  throw new StoreMissingError(
    `no store to open: ${missing}. Run this command with the service's AGENT_CONNECTOR_DATA_DIR (or its DATABASE_URL); ` +
      'only start creates a store, and nothing was created.',
  );
}

/**
 * Opens (and by default migrates) the store.
 *
 * @example
 * const { keyring } = loadKeyring({ encryptionKeys: process.env.AGENT_CONNECTOR_ENCRYPTION_KEY, dataDir, production });
 * const store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir, keyring });
 */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  let store: SqlStore;
  let where: string;
  if (opts.databaseUrl) {
    where = `the PostgreSQL database ${databaseShown(opts.databaseUrl)}`;
    const driver = new PgDriver({
      connectionString: opts.databaseUrl,
      ...(opts.pgSchema !== undefined ? { schema: opts.pgSchema } : {}),
      ...(opts.pgPoolSize !== undefined ? { max: opts.pgPoolSize } : {}),
    });
    store = new SqlStore(driver, opts.keyring, POSTGRES_MIGRATIONS);
  } else {
    const filename = opts.sqliteFile ?? join(opts.dataDir, SQLITE_FILE_NAME);
    where = `the SQLite database ${filename}`;
    try {
      if (opts.sqliteFile === undefined) mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
      store = new SqlStore(new SqliteDriver({ filename }), opts.keyring, SQLITE_MIGRATIONS);
    } catch (err) {
      throw new StoreOpenError(where, err);
    }
  }
  if (opts.migrate ?? true) {
    try {
      await store.migrate();
    } catch (err) {
      await store.close().catch(() => {});
      throw new StoreOpenError(where, err);
    }
  }
  return store;
}

/**
 * The store could not be opened or migrated: the message says which database (a PostgreSQL URL without its user,
 * password or query) before the driver's reason, which names neither (`connect ECONNREFUSED ...`, `database "x" does
 * not exist`). The driver's error is the `cause`.
 */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(where: string, cause: unknown) {
    super(`could not open ${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** `postgres://host:port/database`: what names the database, without credentials or parameters. */
function databaseShown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}
