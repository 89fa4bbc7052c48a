/**
 * The executor looks the account up on every tool call, so the SQLite hot path must stay an index lookup at scale:
 * with 100,000 accounts stored, `findAccount` and `getConnectionByName` answer right and their queries are index
 * searches, never scans. So are the dashboard's page of accounts and its count, the page read in index order (no
 * sort of the environment's every account), and the API's keyset page, whose search starts at the cursor's key; so
 * is a deep page of the execution history, with 100,000 executions of one instant, and of the webhook delivery log,
 * with 50,000 deliveries of one instant. How fast they are is a benchmark figure (`npm run bench -- --only=store`), not
 * a test: a timed assertion measures the machine's neighbours as much as the code.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox, secretAad } from '../../../runtime/crypto/secret-box.js';
import { openStore, SQLITE_FILE_NAME } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { keyring1, newConnection } from './fixtures.js';
import { newSqliteDatabase, type StoreOpenOptions } from './harness.js';

const ACCOUNTS = 100_000;
const EXECUTIONS = 100_000;
const DELIVERIES = 50_000;

/**
 * The statements `lookups` really prepare, caught on a fresh store (statements are prepared once per store, so a
 * store that already ran them would prepare nothing).
 */
async function preparedBy(options: StoreOpenOptions, lookups: ((store: Store) => Promise<unknown>)[]): Promise<string[]> {
  const prepared: string[] = [];
  const seen: string[] = [];
  const prepare = Database.prototype.prepare;
  const spy = function (this: Database.Database, sql: string) {
    prepared.push(sql);
    return prepare.call(this, sql);
  } as typeof prepare;
  Database.prototype.prepare = spy;
  const fresh = await openStore({ ...options, keyring: keyring1 });
  try {
    for (const lookup of lookups) {
      prepared.length = 0;
      await lookup(fresh);
      seen.push(...prepared);
    }
  } finally {
    Database.prototype.prepare = prepare;
    await fresh.close();
  }
  return seen;
}

/** SQLite's plan for `sql` (every parameter bound to text), its steps joined by `; `. */
function queryPlan(options: StoreOpenOptions, sql: string): string {
  const planner = new Database(join(options.dataDir, SQLITE_FILE_NAME), { readonly: true });
  try {
    const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x');
    return (planner.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
  } finally {
    planner.close();
  }
}

/** An index search in index order: no table scan, no sort of what it found. */
function expectIndexSearch(plan: string, sql: string): void {
  expect(plan, sql).toMatch(/SEARCH .* USING (COVERING )?INDEX/);
  expect(plan, sql).not.toMatch(/\bSCAN\b/);
  expect(plan, sql).not.toMatch(/TEMP B-TREE/);
}

describe('SQLite hot path', () => {
  it(`findAccount, getConnectionByName and an account page are index lookups with ${ACCOUNTS} accounts`, { timeout: 120_000 }, async () => {
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
      raw.close();

      // The statements the per-call lookups and the account pages really prepare, and their plans: an index search
      // each, never a table scan.
      const lookups = await preparedBy(db.options, [
        (fresh) => fresh.findAccount('env_a', conn.id, 'user-1'),
        (fresh) => fresh.getConnectionByName('env_a', conn.name),
        (fresh) => fresh.listAccounts('env_a', {}, { limit: 25, offset: ACCOUNTS / 2 }),
        (fresh) => fresh.listAccounts('env_a', {}, { limit: 25, after: { createdAt: now, id: 'ca_perf5' } }),
        (fresh) => fresh.countAccounts('env_a'),
      ]);
      expect(lookups.length).toBeGreaterThanOrEqual(5);
      for (const sql of lookups) {
        const plan = queryPlan(db.options, sql);
        expectIndexSearch(plan, sql);
        // The keyset page's search starts at the key rather than at the environment's first account.
        if (sql.includes('(created_at, id) >')) expect(plan, sql).toMatch(/\(created_at,id\)>\(\?,\?\)/);
      }

      // Lookups spread over all the accounts return each one's own tokens, decrypted.
      for (let i = 0; i < 2_000; i++) {
        const n = (i * 7919) % ACCOUNTS;
        const acc = await store.findAccount('env_a', conn.id, `user-${n}`);
        expect(acc?.tokens?.accessToken.startsWith(`ya29.access-${n}-`)).toBe(true);
      }
      expect(await store.findAccount('env_a', conn.id, `user-${ACCOUNTS}`)).toBeNull();
      expect((await store.getConnectionByName('env_a', conn.name))?.id).toBe(conn.id);
      // The page is the list's own slice: rows are ordered by (created_at, id), and the seed's ids sort as text.
      const ids = Array.from({ length: ACCOUNTS }, (_, i) => `ca_perf${i}`).sort();
      expect((await store.listAccounts('env_a', {}, { limit: 25, offset: 70_000 })).map((a) => a.id)).toEqual(ids.slice(70_000, 70_025));
      // The keyset page after the 70,000th account (all share one created_at: the id alone orders them) is the same slice.
      expect((await store.listAccounts('env_a', {}, { limit: 25, after: { createdAt: now, id: ids[69_999]! } })).map((a) => a.id)).toEqual(ids.slice(70_000, 70_025));
      expect(await store.countAccounts('env_a')).toBe(ACCOUNTS);
    } finally {
      await store.close();
      await db.destroy();
    }
  });

  it(`a deep page of the execution history searches from the cursor's key, with ${EXECUTIONS} executions of one instant`, { timeout: 120_000 }, async () => {
    const db = await newSqliteDatabase();
    const store = await openStore({ ...db.options, keyring: keyring1 });
    try {
      // Bulk seed through a side connection, as above: one transaction, every row of one millisecond, so the id
      // alone orders them and a search that starts at the environment's newest row would read past all of them.
      const raw = new Database(join(db.options.dataDir, SQLITE_FILE_NAME));
      const insert = raw.prepare(
        `INSERT INTO executions (id, environment_id, started_at, kind, connection_id, connection_name, identifier, operation, outcome,
           error_code, upstream_status, attempts, duration_ms, input)
         VALUES (?, 'env_a', ?, 'tool', 'conn_1', 'calendar', ?, 'calendar_list_events', 'success', NULL, 200, 1, 12, NULL)`,
      );
      const now = new Date().toISOString();
      raw.transaction(() => {
        for (let i = 0; i < EXECUTIONS; i++) insert.run(`exe_perf${i}`, now, `user-${i % 100}`);
      })();
      raw.close();

      // Newest first: (started_at, id) descending; the seed's ids sort as text.
      const ids = Array.from({ length: EXECUTIONS }, (_, i) => `exe_perf${i}`).sort().reverse();
      const deep = { startedAt: now, id: ids[69_999]! };
      const pages = await preparedBy(db.options, [
        (fresh) => fresh.listExecutions('env_a', {}, { limit: 25, before: deep }),
        (fresh) => fresh.listExecutions('env_a', { identifier: 'user-7' }, { limit: 25, before: deep }),
      ]);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      for (const sql of pages) {
        const plan = queryPlan(db.options, sql);
        expectIndexSearch(plan, sql);
        // The search starts at the cursor's key (the index read backwards from it), not at the environment's newest row.
        expect(plan, sql).toMatch(/USING INDEX executions_env_started \(environment_id=\? AND \(started_at,id\)<\(\?,\?\)\)/);
      }

      // The page after the 70,000th newest is the list's own slice, and its last row's key leads on to the next one.
      const page = await store.listExecutions('env_a', {}, { limit: 25, before: deep });
      expect(page.map((e) => e.id)).toEqual(ids.slice(70_000, 70_025));
      const next = await store.listExecutions('env_a', {}, { limit: 25, before: { startedAt: page[24]!.startedAt, id: page[24]!.id } });
      expect(next.map((e) => e.id)).toEqual(ids.slice(70_025, 70_050));
      // Filtered, the same key: the filter's rows past it, in order.
      const filtered = await store.listExecutions('env_a', { identifier: 'user-7' }, { limit: 25, before: deep });
      expect(filtered.map((e) => e.id)).toEqual(ids.slice(70_000).filter((id) => Number(id.slice('exe_perf'.length)) % 100 === 7).slice(0, 25));
      // Near the end: the rows that are left, fewer than the limit.
      const last = await store.listExecutions('env_a', {}, { limit: 25, before: { startedAt: now, id: ids[EXECUTIONS - 11]! } });
      expect(last.map((e) => e.id)).toEqual(ids.slice(EXECUTIONS - 10));
    } finally {
      await store.close();
      await db.destroy();
    }
  });

  it(`a deep page of the webhook delivery log searches from the cursor's key, with ${DELIVERIES} deliveries of one instant`, { timeout: 120_000 }, async () => {
    const db = await newSqliteDatabase();
    const store = await openStore({ ...db.options, keyring: keyring1 });
    try {
      await store.createEnvironment({ id: 'env_a', name: 'A' });
      const endpoint = await store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: null, secret: `whsec_${'a'.repeat(32)}` });
      // Bulk seed through a side connection, as above: one event per delivery, every row of one millisecond.
      const raw = new Database(join(db.options.dataDir, SQLITE_FILE_NAME));
      const event = raw.prepare(`INSERT INTO account_events (id, environment_id, account_id, type, payload, created_at) VALUES (?, 'env_a', 'ca_x', 'account.expired', '{}', ?)`);
      const delivery = raw.prepare(
        `INSERT INTO webhook_deliveries (id, environment_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?, 'env_a', ?, ?, ?, 0, ?, ?, ?)`,
      );
      const now = new Date().toISOString();
      raw.transaction(() => {
        for (let i = 0; i < DELIVERIES; i++) {
          event.run(`evt_perf${i}`, now);
          delivery.run(`whdl_perf${i}`, endpoint.id, `evt_perf${i}`, i % 10 === 0 ? 'failed' : 'delivered', now, now, now);
        }
      })();
      raw.close();

      // Newest first: (created_at, id) descending; the seed's ids sort as text.
      const ids = Array.from({ length: DELIVERIES }, (_, i) => `whdl_perf${i}`).sort().reverse();
      const before = { createdAt: now, id: ids[29_999]! };
      const pages = await preparedBy(db.options, [
        (fresh) => fresh.listWebhookDeliveries('env_a', { limit: 26, before }),
        (fresh) => fresh.listWebhookDeliveries('env_a', { status: 'failed', limit: 26, before }),
      ]);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      for (const sql of pages) {
        const plan = queryPlan(db.options, sql);
        expectIndexSearch(plan, sql);
        // The search starts at the cursor's key (the index read backwards from it), then each row's event by its key.
        expect(plan, sql).toMatch(/USING INDEX webhook_deliveries_env_created_id \(environment_id=\? AND \(created_at,id\)<\(\?,\?\)\)/);
      }

      // The page after the 30,000th newest is the list's own slice; filtered, the filter's rows past the same key.
      expect((await store.listWebhookDeliveries('env_a', { limit: 25, before })).map((d) => d.id)).toEqual(ids.slice(30_000, 30_025));
      const failed = ids.slice(30_000).filter((id) => Number(id.slice('whdl_perf'.length)) % 10 === 0);
      expect((await store.listWebhookDeliveries('env_a', { status: 'failed', limit: 25, before })).map((d) => d.id)).toEqual(failed.slice(0, 25));
    } finally {
      await store.close();
      await db.destroy();
    }
  });
});
