/**
 * The dashboard's connected accounts in a real headless Chromium at 390 px: filtered by identifier, connection and
 * status, 25 to a page with Next and Previous that keep the filter, each page read from the store alone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectSandboxUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

const identifiers = (page: Page) => page.$$eval('tr[data-account-id] td:first-child', (tds) => tds.map((td) => (td as { textContent: string | null }).textContent ?? ''));

describe.runIf(BROWSER_TESTS)('dashboard accounts in Chromium', () => {
  it('filters and pages the connected accounts', async () => {
    const token = await suite.h.token(suite.h.a);
    await suite.h.sandboxConnection(suite.h.a, 'crm');
    await suite.h.sandboxConnection(suite.h.a, 'calendar');
    // 26 accounts waiting for authorization on crm, one ACTIVE on calendar.
    for (let i = 0; i < 26; i++) {
      await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm', identifier: `user-${String(i).padStart(2, '0')}` } });
    }
    await connectSandboxUser(suite.h, { connection: 'calendar', identifier: 'active-one', user: 'active@example.com' });

    // The store reads one page at a time: record the page of every account list the dashboard asks it for.
    const store = suite.h.connector.store;
    const listAccounts = store.listAccounts;
    const pagesRead: unknown[] = [];
    store.listAccounts = (environmentId, filter, page) => (pagesRead.push(page), listAccounts.call(store, environmentId, filter, page));

    const page = await suite.newPage();
    await signIn(page, suite.h);
    expect(await identifiers(page)).toHaveLength(25);
    expect(await page.textContent('main')).toContain('1–25 of 27');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.click('#accounts-next');
    expect(await identifiers(page)).toHaveLength(2);
    expect(await page.textContent('main')).toContain('26–27 of 27');
    await page.click('#accounts-previous');
    expect(await identifiers(page)).toHaveLength(25);
    expect(pagesRead).toEqual([{ limit: 25, offset: 0 }, { limit: 25, offset: 25 }, { limit: 25, offset: 0 }]);
    store.listAccounts = listAccounts;

    await page.selectOption('#accounts-status', 'ACTIVE');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toEqual(['active-one']);

    await page.goto(`${suite.h.url}/dashboard`);
    await page.selectOption('#accounts-connection', 'crm');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toHaveLength(25);
    await page.click('#accounts-next');
    // The next page keeps the filter.
    expect(page.url()).toContain('connection_name=crm');
    expect(await identifiers(page)).toHaveLength(1);

    await page.goto(`${suite.h.url}/dashboard`);
    await page.fill('#accounts-identifier', 'user-07');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toEqual(['user-07']);
  }, 60_000);

  it('refuses a page number that is none, as a bad filter, and shows the last page for one past it', async () => {
    // The 27 accounts of the test above: two pages. The browser is still signed in.
    const page = await suite.newPage();
    for (const [asked, message] of [
      ['abc', 'page must be an integer'],
      ['1.5', 'page must be an integer'],
      ['0', 'page must be >= 1'],
      ['-1', 'page must be >= 1'],
      ['2&page=2', 'page must be an integer'],
    ] as const) {
      await page.goto(`${suite.h.url}/dashboard?status=PENDING_AUTH&page=${asked}`);
      const alert = (await page.textContent('[role=alert]')) ?? '';
      expect(alert, asked).toContain(message);
      expect(await page.$$('tr[data-account-id]'), asked).toHaveLength(0);
      expect(await page.textContent('main')).not.toContain('No connected accounts');
      // The filter form as asked.
      expect(await page.inputValue('#accounts-status')).toBe('PENDING_AUTH');
    }
    // An empty page number (a form's empty field) is none: the first page.
    await page.goto(`${suite.h.url}/dashboard?page=`);
    expect(await page.$('[role=alert]')).toBeNull();
    expect(await page.textContent('main')).toContain('1–25 of 27');
    // Past the last page: the last page, saying which rows it holds, with Previous and no Next.
    for (const past of ['3', '99999999999999999999']) {
      await page.goto(`${suite.h.url}/dashboard?page=${past}`);
      expect(await page.$('[role=alert]')).toBeNull();
      expect(await identifiers(page)).toHaveLength(2);
      expect(await page.textContent('main')).toContain('26–27 of 27');
      expect(await page.getAttribute('#accounts-previous', 'href')).toBe('/dashboard?page=1');
      expect(await page.$('#accounts-next')).toBeNull();
    }
  }, 60_000);

  it('shows a connection\'s first page of accounts and links the rest; its delete page counts them in the store', async () => {
    // The crm connection of the test above holds 26 accounts, none with tokens.
    const crm = (await suite.h.connector.environment(suite.h.a.environmentId).listConnections()).find((c) => c.name === 'crm')!;
    const store = suite.h.connector.store;
    const listAccounts = store.listAccounts;
    const pagesRead: unknown[] = [];
    store.listAccounts = (environmentId, filter, page) => (pagesRead.push(page), listAccounts.call(store, environmentId, filter, page));
    try {
      // The browser is still signed in from the test above.
      const page = await suite.newPage();
      await page.goto(`${suite.h.url}/dashboard/connections/${crm.id}`);
      expect(await identifiers(page)).toHaveLength(25);
      expect(await page.textContent('main')).toContain('1–25 of 26');
      await page.click('#connection-accounts-all');
      expect(page.url()).toBe(`${suite.h.url}/dashboard?connection_name=crm`);
      expect(await page.textContent('main')).toContain('1–25 of 26');

      await page.goto(`${suite.h.url}/dashboard/connections/${crm.id}/delete`);
      expect(await page.textContent('#delete-impact')).toContain('No account of this connection holds tokens');
      expect(await page.textContent('main')).toContain('All 26 of its account records are deleted');
      // Every read was a bounded page: no list of all the connection's accounts.
      expect(pagesRead.length).toBeGreaterThan(0);
      for (const read of pagesRead) expect(read).toMatchObject({ limit: expect.any(Number) });
      expect(pagesRead.every((read) => (read as { limit: number }).limit <= 25)).toBe(true);
    } finally {
      store.listAccounts = listAccounts;
    }
  }, 60_000);
});
