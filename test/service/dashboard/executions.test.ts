/**
 * The dashboard's execution history in a real headless Chromium at 390 px: the calls made through the API are
 * listed newest first with their outcome and error code, the filters narrow the list, and older pages follow.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

async function rows(page: Page): Promise<string[]> {
  return page.$$eval('#executions tbody tr', (trs) => trs.map((tr) => (tr as { textContent: string | null }).textContent ?? ''));
}

describe.runIf(BROWSER_TESTS)('dashboard executions in Chromium', () => {
  it('lists calls with outcome and code, filters them, pages back, and fits 390 px', async () => {
    const { token } = await crmUser(suite.h, 'dash-user', 'dash@example.com');
    for (let i = 0; i < 26; i++) {
      await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'dash-user', tool_input: {} } });
    }
    const failed = await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', identifier: 'dash-user', tool_input: {} } });
    expect(failed.status).toBe(400);
    // Records are written in the background, in batches.
    for (let i = 0; i < 100; i++) {
      const listed = await suite.h.call('GET', '/api/v1/executions?limit=200', { token });
      if (listed.body.executions.length >= 27) break;
      await new Promise((r) => setTimeout(r, 20));
    }

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.click('header >> text=Executions');
    await page.waitForURL(`${suite.h.url}/dashboard/executions`);
    const first = await rows(page);
    expect(first).toHaveLength(25);
    expect(first[0]).toContain('crm_contact_get');
    expect(first[0]).toContain('invalid_input');
    expect(first[1]).toContain('crm_contacts_list');
    expect(first[1]).toContain('HTTP 200');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    await page.click('#executions-next');
    expect(await rows(page)).toHaveLength(2);
    expect(await page.$('#executions-next')).toBeNull();

    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.selectOption('#filter-outcome', 'error');
    await page.click('text=Filter');
    const errors = await rows(page);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('invalid_input');

    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.fill('#filter-identifier', 'someone-else');
    await page.click('text=Filter');
    expect(await page.textContent('main')).toContain('No executions match these filters.');
  });
});
