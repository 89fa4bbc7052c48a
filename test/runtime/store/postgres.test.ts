/**
 * The store contract on PostgreSQL, from `DATABASE_URL`. Each test gets its own schema, dropped afterwards, so test
 * files can run in parallel on one server. `postgresSuite` (test/server-suites.ts) says what happens without `DATABASE_URL`.
 */
import { describe, expect, it, vi } from 'vitest';
import { PgDriver } from '../../../runtime/store/postgres/pg-driver.js';
import { openStore } from '../../../runtime/store/open-store.js';
import { storeContract } from './contract.js';
import { keyring1, newConnection } from './fixtures.js';
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

    it('reads the lookups of a turn through an index even before the table is analyzed', async () => {
      // Just after a bulk load PostgreSQL has no statistics, and planned `identifier IN (...)` as a scan of every
      // account of the connection. The statement used must find each identifier through an index regardless.
      const db = await newPostgresDatabase(databaseUrl);
      const reads = vi.spyOn(PgDriver.prototype, 'all');
      try {
        const store = await openStore({ ...db.options, keyring: keyring1 });
        await store.createEnvironment({ id: 'env_a', name: 'A' });
        const conn = await store.createConnection(newConnection('env_a'));
        await db.query(
          `INSERT INTO connected_accounts (id, environment_id, connection_id, identifier, status, created_at, updated_at)
           SELECT 'ca_' || g, 'env_a', ?, 'user-' || g, 'PENDING_AUTH', now(), now() FROM generate_series(1, 5000) g`,
          [conn.id],
        );
        const found = await Promise.all(['user-7', 'user-4999', 'nobody'].map((identifier) => store.findAccount('env_a', conn.id, identifier)));
        expect(found.map((a) => a?.id ?? null)).toEqual(['ca_7', 'ca_4999', null]);
        const lookup = reads.mock.calls.find(([sql]) => String(sql).includes('FROM connected_accounts'));
        expect(lookup).toBeDefined();
        const text = JSON.stringify(await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${String(lookup![0])}`, [...(lookup![1] as string[])]));
        expect(text).toContain('Index Scan');
        expect(text).not.toMatch(/Seq Scan|Bitmap Heap Scan/);
        await store.close();
      } finally {
        reads.mockRestore();
        await db.destroy();
      }
    });
  });
});
