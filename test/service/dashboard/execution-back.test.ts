/**
 * An operator going through a filtered execution history opens one execution and comes back with the page's own
 * "Back to executions" link: to the same filtered page, not the unfiltered first page. In a real headless Chromium.
 */
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

function record(n: number, over: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    id: `0196a1b2-0000-7000-8000-${String(n).padStart(12, '0')}`, environmentId: suite.h.a.environmentId, startedAt: new Date(Date.UTC(2026, 10, 25, 8, 0, n)).toISOString(),
    kind: 'tool', connectionId: null, connectionName: 'calendar', identifier: 'alice', operation: 'calendar_create_event', outcome: 'error', errorCode: 'invalid_input',
    errorMessage: `Invalid input for calendar_create_event: call ${n}`, upstreamStatus: null, attempts: 0, durationMs: 3, input: null, ...over,
  };
}

describe.runIf(BROWSER_TESTS)('dashboard execution: back to the list it was opened from', () => {
  it('keeps the filters and the page of the list in "Back to executions"', async () => {
    const records = [...Array.from({ length: 30 }, (_, n) => record(n, {})), ...Array.from({ length: 5 }, (_, n) => record(100 + n, { identifier: 'bob', outcome: 'success', errorCode: null, errorMessage: null }))];
    await suite.h.connector.store.recordExecutions(records);
    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.fill('#filter-identifier', 'alice');
    await page.selectOption('#filter-outcome', 'error');
    await page.click('text=Filter');
    await page.click('#executions-next');
    await page.waitForURL(/cursor=/);
    const listUrl = page.url();
    const rowsHere = await page.$$eval('#executions tbody tr', (trs) => trs.map((tr) => (tr as unknown as { dataset: { execution: string } }).dataset.execution));
    expect(rowsHere).toHaveLength(5);

    await page.click(`tr[data-execution="${rowsHere[2]}"] a`);
    await page.waitForURL(new RegExp(`/dashboard/executions/${rowsHere[2]}`));
    await page.click('text=Back to executions');
    await page.waitForLoadState();
    expect(new URL(page.url()).search).toBe(new URL(listUrl).search);
    expect(await page.inputValue('#filter-identifier')).toBe('alice');
    expect(await page.inputValue('#filter-outcome')).toBe('error');
    expect(await page.$$eval('#executions tbody tr', (trs) => trs.length)).toBe(5);

    // Opened from elsewhere (the tool explorer, an id pasted), it goes back to the whole history.
    await page.goto(`${suite.h.url}/dashboard/executions/${rowsHere[2]}`);
    expect(await page.getAttribute('text=Back to executions', 'href')).toBe('/dashboard/executions');
    // Only the list's own parameters go into the link, encoded: nothing else rides along.
    await page.goto(`${suite.h.url}/dashboard/executions/${rowsHere[2]}?identifier=a%22b&next=https://evil.example/`);
    expect(await page.getAttribute('text=Back to executions', 'href')).toBe('/dashboard/executions?identifier=a%22b');
  }, 60_000);
});
