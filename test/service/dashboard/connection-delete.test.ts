/**
 * The connection delete confirmation, in a real headless Chromium: it says how many accounts it disconnects (those
 * holding tokens: ACTIVE and EXPIRED) and how many account records go with the connection, from one count per
 * status the store answers in one query, not a count per figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import type { AccountStatus, Store } from '../../../runtime/store/types.js';
import { keyring1 } from '../../runtime/store/fixtures.js';
import { startHarness, type Harness } from '../harness.js';
import { BROWSER_TESTS, launchDashboardBrowser, signIn, type DashboardBrowser } from './browser.js';

let dir: string;
let store: Store;
let h: Harness;
let browser: DashboardBrowser;
/** The store's count reads, by method name, in the order they were made. */
const counts: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ac-delete-'));
  store = await openStore({ dataDir: dir, keyring: keyring1 });
  // The service's store, with its count reads noted.
  const noted = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof prop === 'string' && prop.startsWith('count')) counts.push(prop);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  h = await startHarness({ store: noted });
  browser = await launchDashboardBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(BROWSER_TESTS)('connection delete confirmation in Chromium', () => {
  it('says how many accounts it disconnects and how many records it deletes, counted in one query', async () => {
    const connection = await h.sandboxConnection(h.a, 'crm', 'doomed');
    const states: AccountStatus[] = ['PENDING_AUTH', 'PENDING_AUTH', 'ACTIVE', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'];
    for (const [i, status] of states.entries()) {
      const account = await store.ensureAccount(h.a.environmentId, connection.id, `doomed-${i}`);
      if (status !== 'PENDING_AUTH') await store.setAccountStatus(account.id, status);
    }
    // Another connection's accounts are not counted.
    const other = await h.sandboxConnection(h.a, 'crm', 'spared');
    await store.setAccountStatus((await store.ensureAccount(h.a.environmentId, other.id, 'doomed-0')).id, 'ACTIVE');

    const page = await browser.context.newPage();
    await signIn(page, h);
    counts.length = 0;
    await page.goto(`${h.url}/dashboard/connections/${connection.id}/delete`);
    expect(await page.textContent('#delete-impact')).toContain('3 connected accounts');
    expect(await page.textContent('main')).toContain(`All ${states.length} of its account records are deleted`);
    expect(counts).toEqual(['countAccountsByStatus']);
  }, 60_000);
});
