/**
 * The store contract on PostgreSQL, from `DATABASE_URL`. Each test gets its own schema, dropped afterwards, so test
 * files can run in parallel on one server. Without `DATABASE_URL` the file is skipped, unless
 * `AGENT_CONNECTOR_REQUIRE_POSTGRES=1` (CI), where a missing database is a failure.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import { storeContract } from './contract.js';
import { keyring1 } from './fixtures.js';
import { newPostgresDatabase } from './harness.js';

const databaseUrl = process.env.DATABASE_URL;
const required = process.env.AGENT_CONNECTOR_REQUIRE_POSTGRES === '1';

if (databaseUrl) {
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
} else if (required) {
  describe('PostgreSQL store', () => {
    it('runs: AGENT_CONNECTOR_REQUIRE_POSTGRES=1 needs DATABASE_URL', () => {
      expect.fail('AGENT_CONNECTOR_REQUIRE_POSTGRES=1 but DATABASE_URL is not set: the PostgreSQL store tests cannot run');
    });
  });
} else {
  describe.skip('PostgreSQL store (set DATABASE_URL to run)', () => {
    it('skipped', () => {});
  });
}
