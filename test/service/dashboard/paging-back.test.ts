/**
 * Paging back through the execution history and the webhook delivery log in a real headless Chromium: Older leads
 * page by page to the end, Newer retraces the same pages (the same rows, the filter kept), and Newest lands on the
 * first page, all with the API's forward-only cursors. The webhook dispatcher is off: deliveries stay pending.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite({ webhooks: false });
/** The dashboard's page size for both lists. */
const PER_PAGE = 25;

/** The row keys of the page's table: execution ids, or delivery links. */
async function keys(page: Page, rows: string): Promise<string[]> {
  return page.$$eval(rows, (els) => els.map((el) => (el as { getAttribute(n: string): string | null }).getAttribute('data-execution') ?? (el as { getAttribute(n: string): string | null }).getAttribute('href') ?? ''));
}

/**
 * Follows Older from the page open to the last page, then Newer back to the first page: the pages each way, in the
 * order read, and whether Newest and Newer are offered where they should be.
 */
async function walk(page: Page, rows: string, ids: { older: string; newer: string; newest: string }): Promise<{ forward: string[][]; backward: string[][] }> {
  const forward = [await keys(page, rows)];
  expect(await page.$(`#${ids.newer}`)).toBeNull();
  expect(await page.$(`#${ids.newest}`)).toBeNull();
  while (await page.$(`#${ids.older}`)) {
    await page.click(`#${ids.older}`);
    forward.push(await keys(page, rows));
    // Newest only from the third page on: on the second, Newer is the first page.
    expect((await page.$(`#${ids.newest}`)) !== null).toBe(forward.length > 2);
  }
  const backward = [await keys(page, rows)];
  while (await page.$(`#${ids.newer}`)) {
    await page.click(`#${ids.newer}`);
    backward.push(await keys(page, rows));
  }
  return { forward, backward: backward.reverse() };
}

/** A page of the suite's browser, signed in (the browser keeps the session between tests). */
async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.goto(`${suite.h.url}/dashboard`);
  if (page.url().startsWith(`${suite.h.url}/dashboard/login`)) await signIn(page, suite.h);
  return page;
}

describe.runIf(BROWSER_TESTS)('dashboard lists paged back in Chromium', () => {
  it('executions: Newer retraces the pages Older went through, filter kept, and Newest is the first page', async () => {
    const { token } = await crmUser(suite.h, 'pager', 'pager@example.com');
    const calls = 2 * PER_PAGE + 3;
    for (let i = 0; i < calls; i++) {
      await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'pager', tool_input: {} } });
    }
    // Records are written in the background, in batches.
    for (let i = 0; i < 200; i++) {
      if ((await suite.h.call('GET', '/api/v1/executions?limit=200&identifier=pager', { token })).body.executions.length >= calls) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.fill('#filter-identifier', 'pager');
    await page.click('text=Filter');
    await page.waitForURL(/identifier=pager/);

    const ids = { older: 'executions-next', newer: 'executions-newer', newest: 'executions-newest' };
    const { forward, backward } = await walk(page, '#executions tbody tr', ids);
    expect(forward.map((p) => p.length)).toEqual([PER_PAGE, PER_PAGE, 3]);
    expect(new Set(forward.flat()).size).toBe(calls);
    expect(backward).toEqual(forward);
    // Every page kept the filter.
    expect(new URL(page.url()).searchParams.get('identifier')).toBe('pager');

    // From the last page, Newest is the first page, with the filter.
    while (await page.$('#executions-next')) await page.click('#executions-next');
    await page.click('#executions-newest');
    expect(await keys(page, '#executions tbody tr')).toEqual(forward[0]);
    expect(new URL(page.url()).searchParams.get('identifier')).toBe('pager');
    expect(new URL(page.url()).searchParams.has('cursor')).toBe(false);
  }, 120_000);

  it('webhook deliveries: Newer retraces the pages Older went through, and Newest is the first page', async () => {
    const token = await suite.h.token(suite.h.a);
    const endpoint = await suite.h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(endpoint.status).toBe(201);
    const connection = await suite.h.sandboxConnection(suite.h.a, 'calendar', 'paged-hooks');
    const account = await suite.h.connector.store.ensureAccount(suite.h.a.environmentId, connection.id, 'hooked-user');
    const events = 2 * PER_PAGE + 4;
    for (let i = 0; i < events; i++) await suite.h.connector.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: `t${i}` } });

    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/webhooks?status=pending`);
    const ids = { older: 'next-page', newer: 'newer-page', newest: 'newest-page' };
    const { forward, backward } = await walk(page, '#webhook-deliveries tbody a', ids);
    expect(forward.map((p) => p.length)).toEqual([PER_PAGE, PER_PAGE, 4]);
    expect(new Set(forward.flat()).size).toBe(events);
    expect(backward).toEqual(forward);
    expect(new URL(page.url()).searchParams.get('status')).toBe('pending');

    while (await page.$('#next-page')) await page.click('#next-page');
    await page.click('#newest-page');
    expect(await keys(page, '#webhook-deliveries tbody a')).toEqual(forward[0]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
  }, 120_000);
});
