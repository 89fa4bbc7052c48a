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

export interface SqlDriver {
  readonly kind: 'sqlite' | 'postgres';
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a write; returns the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
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
