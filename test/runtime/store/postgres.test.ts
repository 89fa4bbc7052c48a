/**
 * The store contract on PostgreSQL, from `DATABASE_URL`. Each test gets its own schema, dropped afterwards, so test
 * files can run in parallel on one server. `postgresSuite` (test/server-suites.ts) says what happens without `DATABASE_URL`.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import { storeContract } from './contract.js';
import { keyring1 } from './fixtures.js';
import { newPostgresDatabase } from './harness.js';
import { postgresSuite } from '../../server-suites.js';

postgresSuite('PostgreSQL store', (databaseUrl) => {
  storeContract('PostgreSQL', () => newPostgresDatabase(databaseUrl));

  describe('PostgreSQL specifics', () => {
    it('keeps the tables in the configured schema', async () => {
      const db = await newPostgresDatabase(databaseUrl);
      try {
        const store = await openStore({ ...db.options, keyring: keyring1 });
        expect(store.kind).toBe('postgres');
        const rows = await db.query('SELECT current_schema() AS s');
        expect(rows[0]!.s).toBe(db.options.pgSchema);
        expect(await db.tables()).toContain('connected_accounts');
        await store.close();
      } finally {
        await db.destroy();
      }
    });
  });
});
