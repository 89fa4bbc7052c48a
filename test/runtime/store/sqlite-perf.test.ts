/**
 * The executor looks the account up on every tool call, so the SQLite hot path must stay an index lookup at scale:
 * with 100,000 accounts stored, `findAccount` and `getConnectionByName` answer right and their queries are index
 * searches, never scans. How fast they are is a benchmark figure (`npm run bench -- --only=store`), not a test: a
 * timed assertion measures the machine's neighbours as much as the code.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox, secretAad } from '../../../runtime/crypto/secret-box.js';
import { openStore, SQLITE_FILE_NAME } from '../../../runtime/store/open-store.js';
import { keyring1, newConnection } from './fixtures.js';
import { newSqliteDatabase } from './harness.js';

const ACCOUNTS = 100_000;

describe('SQLite hot path', () => {
  it(`findAccount and getConnectionByName are index lookups with ${ACCOUNTS} accounts`, { timeout: 120_000 }, async () => {
    const db = await newSqliteDatabase();
    const store = await openStore({ ...db.options, keyring: keyring1 });
    try {
      await store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await store.createConnection(newConnection('env_a'));
      // Bulk seed in one transaction through a side connection; going through saveTokens would take minutes of fsyncs.
      const box = new SecretBox(keyring1);
      const raw = new Database(join(db.options.dataDir, SQLITE_FILE_NAME));
      const insert = raw.prepare(
        `INSERT INTO connected_accounts (id, environment_id, connection_id, identifier, status, access_token, refresh_token,
           token_type, expires_at, scopes, token_version, provider_info, created_at, updated_at)
         VALUES (?, 'env_a', ?, ?, 'ACTIVE', ?, ?, 'Bearer', ?, '["s"]', 1, '{}', ?, ?)`,
      );
      const now = new Date().toISOString();
      const expires = new Date(Date.now() + 3600_000).toISOString();
      raw.transaction(() => {
        for (let i = 0; i < ACCOUNTS; i++) {
          const id = `ca_perf${i}`;
          insert.run(
            id, conn.id, `user-${i}`,
            box.seal(`ya29.access-${i}-${'x'.repeat(120)}`, secretAad('connected_accounts', id, 'access_token')),
            box.seal(`1//refresh-${i}-${'y'.repeat(80)}`, secretAad('connected_accounts', id, 'refresh_token')),
            expires, now, now,
          );
        }
      })();
      // The plans of the two per-call queries, as the drivers send them: an index search each, no table scan.
      const plan = (sql: string, params: string[]) => (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
      const accountPlan = plan('SELECT * FROM connected_accounts WHERE connection_id = ? AND identifier = ? AND environment_id = ?', [conn.id, 'user-1', 'env_a']);
      const connectionPlan = plan('SELECT * FROM connections WHERE environment_id = ? AND name = ?', ['env_a', conn.name]);
      raw.close();
      for (const p of [accountPlan, connectionPlan]) {
        expect(p).toMatch(/SEARCH .* USING (COVERING )?INDEX/);
        expect(p).not.toMatch(/\bSCAN\b/);
      }

      // Lookups spread over all the accounts return each one's own tokens, decrypted.
      for (let i = 0; i < 2_000; i++) {
        const n = (i * 7919) % ACCOUNTS;
        const acc = await store.findAccount('env_a', conn.id, `user-${n}`);
        expect(acc?.tokens?.accessToken.startsWith(`ya29.access-${n}-`)).toBe(true);
      }
      expect(await store.findAccount('env_a', conn.id, `user-${ACCOUNTS}`)).toBeNull();
      expect((await store.getConnectionByName('env_a', conn.name))?.id).toBe(conn.id);
    } finally {
      await store.close();
      await db.destroy();
    }
  });
});
