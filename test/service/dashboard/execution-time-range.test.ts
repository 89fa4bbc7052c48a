/**
 * The executions page filters by a time range, as `GET /api/v1/executions` does (`since`, `until`), so that "the call
 * that failed at about 10:05" is found from the page: From and To are date and time fields read as UTC (the page's
 * times are UTC), kept in the form, in a real headless Chromium at 390 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

function record(n: number, startedAt: string): ExecutionRecord {
  return {
    id: `0196a1b2-0000-7000-8000-00000000060${n}`, environmentId: suite.h.a.environmentId, startedAt, kind: 'tool',
    connectionId: null, connectionName: 'calendar', identifier: 'alice', operation: 'calendar_create_event', outcome: 'error',
    errorCode: 'upstream_error', errorMessage: null, upstreamStatus: 500, attempts: 1, durationMs: 3, input: null,
  };
}

const listed = (page: Page) => page.$$eval('tr[data-execution]', (trs) => trs.map((tr) => tr.getAttribute('data-execution')));

describe.runIf(BROWSER_TESTS)('dashboard executions by time', () => {
  it('lists only the executions between From and To, read as UTC, and keeps the range in the form', async () => {
    await suite.h.connector.store.recordExecutions([
      record(1, '2026-11-25T09:58:00.000Z'),
      record(2, '2026-11-25T10:05:12.000Z'),
      record(3, '2026-11-25T10:12:00.000Z'),
    ]);
    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.fill('#filter-identifier', 'alice');
    await page.fill('#filter-since', '2026-11-25T10:00');
    await page.fill('#filter-until', '2026-11-25T10:10');
    await page.click('form.filters button[type=submit]');
    expect(await listed(page)).toEqual([record(2, '').id]);
    expect(await page.inputValue('#filter-since')).toMatch(/^2026-11-25T10:00(:00)?$/);
    expect(await page.inputValue('#filter-until')).toMatch(/^2026-11-25T10:10(:00)?$/);

    // From alone: that one and the later one.
    await page.fill('#filter-until', '');
    await page.click('form.filters button[type=submit]');
    expect(await listed(page)).toEqual([record(3, '').id, record(2, '').id]);

    // A time the API refuses is the page's error, not a list without the filter.
    await page.goto(`${suite.h.url}/dashboard/executions?since=yesterday`);
    expect(await page.textContent('[role=alert]')).toContain('since');
    expect(await listed(page)).toEqual([]);
  }, 60_000);
});
