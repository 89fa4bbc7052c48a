/**
 * The little a store needs from a database: one row, all rows, a write's affected-row count, migrations and close.
 * Statements are written once with `?` placeholders; the PostgreSQL driver numbers them. Keeping one implementation of
 * the store over two drivers is what keeps SQLite and PostgreSQL behaving the same.
 */
export type SqlValue = string | number | null;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Statements: on the driver itself (each one on its own), or inside a transaction. */
export interface SqlQueries {
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a write; returns the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDriver extends SqlQueries {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. `fn` must send its
   * statements through `tx` only (the driver's own methods wait until the transaction ends) and must not wait on
   * anything but them: a write lock is held meanwhile. An account's state change and the events it causes are
   * written this way, so a process killed at any point leaves both or neither.
   */
  transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /** Applies the migrations not yet recorded, each in a transaction, serialized across processes. */
  migrate(migrations: readonly Migration[]): Promise<void>;
  close(): Promise<void>;
}

/** True for a UNIQUE / PRIMARY KEY violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a FOREIGN KEY violation on either database. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
