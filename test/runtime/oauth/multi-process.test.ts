/**
 * Refresh across real processes: 3 `tsx` children on one store make concurrent calls on an expired token (exactly 1
 * token request), and a child killed in the middle of a refresh loses no usable token. Runs on SQLite (a shared file,
 * WAL) always, and on PostgreSQL from DATABASE_URL (`postgresSuite` in test/server-suites.ts says what happens without it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenStoreOptions } from '../../../runtime/store/open-store.js';
import { newPostgresDatabase, newSqliteDatabase, type NewTestDatabase, type TestDatabase } from '../store/harness.js';
import { postgresSuite } from '../../server-suites.js';
import { ENV, startHarness, type Harness } from '../connector-harness.js';

const CHILD = new URL('./refresh-child.ts', import.meta.url).pathname;

interface Child {
  proc: ChildProcess;
  ready: Promise<void>;
  result: Promise<Record<string, number>>;
}

function spawnChild(config: object): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: proc.stdout! });
  let onReady: () => void = () => {};
  let onResult: (r: Record<string, number>) => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const result = new Promise<Record<string, number>>((resolve, reject) => {
    onResult = resolve;
    proc.on('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before a result: ${stderr.slice(-2000)}`)));
  });
  lines.on('line', (line) => {
    if (line === 'ready') onReady();
    else if (line.startsWith('{')) onResult(JSON.parse(line));
  });
  return { proc, ready, result };
}

function refreshSuite(newDatabase: NewTestDatabase): void {
  let db: TestDatabase | undefined;
  let h: Harness | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of children) c.kill('SIGKILL');
    children.length = 0;
    await h?.close();
    await db?.destroy();
  });

  async function setUp(identifier: string) {
    db = await newDatabase();
    const storeOptions = db.options as Omit<OpenStoreOptions, 'keyring'>;
    h = await startHarness({ storeOptions });
    await h.connection('calendar');
    const account = await h.authorize('calendar', identifier);
    // Expire the stored token (the sandbox still honours it; what counts is that every process sees it expired).
    const row = await h.store.getAccount(ENV, account.id);
    await h.store.saveTokens(account.id, { ...row!.tokens!, expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const base = { storeOptions, connectionName: 'calendar', identifier, path: '/calendar/v3/users/me/calendarList' };
    return { harness: h, account, base };
  }

  it('3 processes x 300 concurrent calls on an expired token: exactly 1 token request', async () => {
    const { harness, account, base } = await setUp('multi');
    const start = harness.sandbox.control.tokenRequestCount('google', 'refresh_token');
    const kids = [0, 1, 2].map(() => spawnChild({ ...base, calls: 300 }));
    children.push(...kids.map((k) => k.proc));
    await Promise.all(kids.map((k) => k.ready));
    for (const k of kids) k.proc.stdin!.write('go\n');
    const results = await Promise.all(kids.map((k) => k.result));
    for (const r of results) {
      expect(r['401']).toBeUndefined();
      expect(Object.keys(r).every((status) => /^\d+$/.test(status))).toBe(true);
    }
    expect(harness.sandbox.control.tokenRequestCount('google', 'refresh_token')).toBe(start + 1);
    const row = await harness.store.getAccount(ENV, account.id);
    expect(row?.status).toBe('ACTIVE');
    expect(Date.parse(row!.tokens!.expiresAt!)).toBeGreaterThan(Date.now());
  }, 60_000);

  it('a process killed in the middle of a refresh loses no usable token', async () => {
    const { harness, account, base } = await setUp('killed');
    // The token endpoint answers slowly, so the child is surely inside its refresh when it dies.
    harness.sandbox.control.setFault('oauth:google', { latencyMs: 3_000 });
    const child = spawnChild({ ...base, calls: 1, leaseTtlMs: 1_000 });
    children.push(child.proc);
    child.result.catch(() => undefined);
    await child.ready;
    child.proc.stdin!.write('go\n');
    // The child holds the refresh lease once the probe cannot take it.
    for (;;) {
      if (!(await harness.store.tryAcquireRefreshLease(account.id, 'probe', 60_000))) break;
      await harness.store.releaseRefreshLease(account.id, 'probe');
      await new Promise((r) => setTimeout(r, 10));
    }
    child.proc.kill('SIGKILL');
    await new Promise((r) => child.proc.once('exit', r));
    harness.sandbox.control.clearFaults('oauth:google');

    const before = await harness.store.getAccount(ENV, account.id);
    expect(before?.status).toBe('ACTIVE');
    // A new process (here: the test's own runtime) takes over once the dead holder's lease lapses.
    const res = await harness.env.proxy({ connection_name: 'calendar', identifier: 'killed', method: 'GET', path: base.path });
    expect(res.status).not.toBe(401);
    const after = await harness.store.getAccount(ENV, account.id);
    expect(after?.status).toBe('ACTIVE');
    expect(after!.tokenVersion).toBeGreaterThan(before!.tokenVersion);
    expect(Date.parse(after!.tokens!.expiresAt!)).toBeGreaterThan(Date.now());
  }, 60_000);
}

describe('refresh across processes on SQLite', () => refreshSuite(newSqliteDatabase));
postgresSuite('refresh across processes on PostgreSQL', (databaseUrl) => refreshSuite(() => newPostgresDatabase(databaseUrl)));
