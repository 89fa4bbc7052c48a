/**
 * PostgreSQL's spelling of the store schema (`../schema-migrations.ts`): timestamptz and jsonb where PostgreSQL has
 * them.
 */
import { storeMigrations } from '../schema-migrations.js';
import type { Migration } from '../sql-driver.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = storeMigrations({ text: 'text', integer: 'integer', timestamp: 'timestamptz', json: 'jsonb' });
