import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { newPostgresDatabase } from '../../test/runtime/store/harness.js';
import { startHarness, ENV, type Harness } from '../../test/runtime/connector-harness.js';
import type { OpenStoreOptions } from '../../runtime/store/open-store.js';
import { figure, type Figure } from '../lib/report.js';

const CHILD = fileURLToPath(new URL('../../test/runtime/oauth/refresh-child.ts', import.meta.url));
const PATH = '/calendar/v3/users/me/calendarList';

async function expiredAccount(h: Harness, identifier: string): Promise<void> {
  await h.connection('calendar');
  const account = await h.authorize('calendar', identifier);
  const row = await h.store.getAccount(ENV, account.id);
  await h.store.saveTokens(account.id, { ...row!.tokens!, expiresAt: new Date(Date.now() - 1_000).toISOString() });
}

/** Figure 3: 1,000 concurrent calls on an expired token must cause exactly one token request. */
export async function refreshStormFigures(quick: boolean): Promise<Figure[]> {
  const figures: Figure[] = [];
  const h = await startHarness({ runtime: { http: {} } });
  try {
    await expiredAccount(h, 'storm');
    const before = h.sandbox.control.tokenRequestCount('google', 'refresh_token');
    await Promise.all(
      Array.from({ length: 1_000 }, () => h.env.executeTool({ tool_name: 'calendar_list_calendars', identifier: 'storm', tool_input: {} })),
    );
    figures.push(figure('refresh_storm_token_requests', h.sandbox.control.tokenRequestCount('google', 'refresh_token') - before, { op: '==', target: 1 }, '1,000 concurrent calls, one process'));
  } finally {
    await h.close();
  }

  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    figures.push(figure('refresh_storm_token_requests_multi', null, { op: '==', target: 1 }, 'needs DATABASE_URL (PostgreSQL)'));
    return figures;
  }
  const db = await newPostgresDatabase(databaseUrl);
  const storeOptions = db.options as Omit<OpenStoreOptions, 'keyring'>;
  const hp = await startHarness({ storeOptions, runtime: { http: {} } });
  const kids: ReturnType<typeof spawn>[] = [];
  try {
    await expiredAccount(hp, 'storm-multi');
    const before = hp.sandbox.control.tokenRequestCount('google', 'refresh_token');
    const calls = quick ? 200 : 334;
    const config = JSON.stringify({ storeOptions, connectionName: 'calendar', identifier: 'storm-multi', path: PATH, calls });
    const results = [0, 1, 2].map(() => {
      const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, config], { stdio: ['pipe', 'pipe', 'inherit'] });
      kids.push(proc);
      const lines = createInterface({ input: proc.stdout! });
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      const done = new Promise<Record<string, number>>((resolve, reject) => {
        lines.on('line', (l) => (l === 'ready' ? ready() : l.startsWith('{') ? resolve(JSON.parse(l)) : undefined));
        proc.on('exit', (code) => reject(new Error(`refresh child exited ${code}`)));
      });
      return { proc, isReady, done };
    });
    await Promise.all(results.map((r) => r.isReady));
    for (const r of results) r.proc.stdin!.write('go\n');
    await Promise.all(results.map((r) => r.done));
    figures.push(figure('refresh_storm_token_requests_multi', hp.sandbox.control.tokenRequestCount('google', 'refresh_token') - before, { op: '==', target: 1 }, `3 processes x ${calls} calls, PostgreSQL`));
  } finally {
    for (const k of kids) k.kill('SIGKILL');
    await hp.close();
    await db.destroy();
  }
  return figures;
}
