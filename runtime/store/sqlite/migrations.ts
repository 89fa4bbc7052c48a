/**
 * SQLite's spelling of the store schema (`../schema-migrations.ts`): times are UTC ISO-8601 TEXT (`toISOString()`),
 * JSON is TEXT. Secret columns hold `SecretBox` sealed values.
 */
import { storeMigrations } from '../schema-migrations.js';
import type { Migration } from '../sql-driver.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = storeMigrations({ text: 'TEXT', integer: 'INTEGER', timestamp: 'TEXT', json: 'TEXT' });
