/** Contract, part 2: compare-and-set, refresh leases and migrations, across store instances and processes. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../../runtime/store/sqlite/migrations.js';
import type { ContractContext } from './contract.js';
import { KEY_1, keyring1, newConnection, tokens } from './fixtures.js';
import type { StoreOpenOptions } from './harness.js';

const CHILD = fileURLToPath(new URL('./migrate-child.ts', import.meta.url));

/** Runs `migrate-child.ts` in a separate Node process (a real second process, not another connection). */
async function child(options: StoreOpenOptions, ...args: string[]): Promise<{ ok: boolean; result: unknown }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options), ...args], {
    env: { ...process.env, TEST_KEYRING: KEY_1 },
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

export function concurrencyContract(ctx: ContractContext): void {
  async function account() {
    await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
    const conn = await ctx.store.createConnection(newConnection('env_a'));
    return ctx.store.ensureAccount('env_a', conn.id, 'user-1');
  }

  describe('saveTokens compare-and-set', () => {
    it('writes only when the version still matches, across two store instances', async () => {
      const acc = await account();
      const other = await ctx.open();
      const first = await ctx.store.saveTokens(acc.id, tokens(), { expectedVersion: 0 });
      expect(first?.tokenVersion).toBe(1);
      // The other "process" read version 0 before and now loses the race.
      const stale = tokens();
      expect(await other.saveTokens(acc.id, stale, { expectedVersion: 0 })).toBeNull();
      expect((await other.getAccount('env_a', acc.id))!.tokens).toEqual(first!.tokens);
      const racers = await Promise.all([
        ctx.store.saveTokens(acc.id, tokens(), { expectedVersion: 1 }),
        other.saveTokens(acc.id, tokens(), { expectedVersion: 1 }),
        other.saveTokens(acc.id, tokens(), { expectedVersion: 1 }),
      ]);
      expect(racers.filter((r) => r !== null)).toHaveLength(1);
      expect((await ctx.store.getAccount('env_a', acc.id))!.tokenVersion).toBe(2);
    });
  });

  describe('refresh lease', () => {
    it('is exclusive across store instances until released', async () => {
      const acc = await account();
      const other = await ctx.open();
      const attempts = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : ctx.store).tryAcquireRefreshLease(acc.id, `owner-${i}`, 30_000)),
      );
      expect(attempts.filter(Boolean)).toHaveLength(1);
      const winner = `owner-${attempts.indexOf(true)}`;
      // Re-entrant for the holder; others still refused.
      expect(await other.tryAcquireRefreshLease(acc.id, winner, 30_000)).toBe(true);
      expect(await other.tryAcquireRefreshLease(acc.id, 'intruder', 30_000)).toBe(false);
      // Only the owner can release.
      await other.releaseRefreshLease(acc.id, 'intruder');
      expect(await ctx.store.tryAcquireRefreshLease(acc.id, 'intruder', 30_000)).toBe(false);
      await ctx.store.releaseRefreshLease(acc.id, winner);
      expect(await other.tryAcquireRefreshLease(acc.id, 'next', 30_000)).toBe(true);
      expect(await ctx.store.tryAcquireRefreshLease('ca_missing', 'x', 1000)).toBe(false);
    });

    it('expires, so a crashed holder cannot block refresh forever', async () => {
      const acc = await account();
      const other = await ctx.open();
      expect(await ctx.store.tryAcquireRefreshLease(acc.id, 'crashed', 150)).toBe(true);
      expect(await other.tryAcquireRefreshLease(acc.id, 'waiting', 10_000)).toBe(false);
      await new Promise((r) => setTimeout(r, 250));
      expect(await other.tryAcquireRefreshLease(acc.id, 'waiting', 10_000)).toBe(true);
      expect(await ctx.store.tryAcquireRefreshLease(acc.id, 'crashed', 150)).toBe(false);
    });

    it('is exclusive across separate processes', async () => {
      const acc = await account();
      const settled = await Promise.allSettled([1, 2, 3].map(() => child(ctx.db.options, 'lease', acc.id)));
      const results = settled.map((r) => (r.status === 'fulfilled' ? r.value : { ok: false, result: String(r.reason) }));
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(results.filter((r) => r.result === true)).toHaveLength(1);
    });
  });

  describe('migrations', () => {
    it('are recorded once and idempotent', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.migrate();
      await ctx.store.migrate();
      const again = await ctx.open(keyring1);
      await again.migrate();
      const rows = await ctx.db.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => Number(r.version))).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
      expect(await again.getEnvironment('env_a')).toMatchObject({ name: 'A' });
    });

    it('are safe when several processes start on an empty database at once', async () => {
      // A second, never-migrated database: the default store's beforeEach already migrated ctx.db.
      const { db } = ctx;
      await db.query('DROP TABLE IF EXISTS oauth_states');
      for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'account_events']) await db.query(`DROP TABLE IF EXISTS ${t}`);
      for (const t of ['dashboard_form_sends', 'executions', 'revoked_tokens', 'mcp_sessions', 'auth_links', 'connected_accounts', 'connections', 'app_clients', 'environments', 'schema_migrations']) {
        await db.query(`DROP TABLE IF EXISTS ${t}`);
      }
      expect(await db.tables()).toEqual([]);
      // Separate store instances (separate connections) race in-process, where start-up jitter cannot keep them
      // apart; the child processes race too, as the real multi-process case.
      const instances = await Promise.all([1, 2, 3, 4, 5].map(() => ctx.open(keyring1, { migrate: false })));
      // allSettled: a failure must not end the test while a child is still migrating (it would recreate the schema).
      const results = await Promise.allSettled([
        ...[1, 2].map(() => child(db.options, 'migrate')),
        ...instances.map(async (s) => (await s.migrate(), { ok: true, result: null })),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const rows = await db.query('SELECT version FROM schema_migrations');
      expect(rows.map((r) => Number(r.version))).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
      const fresh = await ctx.open(keyring1);
      await fresh.createEnvironment({ id: 'env_after', name: 'after' });
      expect(await fresh.listEnvironments()).toHaveLength(1);
    });
  });
}
