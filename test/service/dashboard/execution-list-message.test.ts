/**
 * The execution history's list shows a failed call's error message in its row, so an operator scanning failures sees
 * what went wrong without opening each one: clipped at a word break, and as stored (the `[redacted]` values stay so),
 * in a real headless Chromium at 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

function record(n: number, over: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    id: `0196a1b2-0000-7000-8000-00000000060${n}`, environmentId: suite.h.a.environmentId, startedAt: new Date(Date.UTC(2026, 10, 25, 9, n)).toISOString(), kind: 'tool',
    connectionId: null, connectionName: 'calendar', identifier: 'alice', operation: 'calendar_create_event', outcome: 'error', errorCode: 'invalid_input',
    errorMessage: null, upstreamStatus: null, attempts: 0, durationMs: 3, input: null, ...over,
  };
}

describe.runIf(BROWSER_TESTS)('dashboard executions: the list shows what went wrong', () => {
  it('shows each failed call\'s message in its row, clipped, redacted as stored; none for a success', async () => {
    const short = 'Invalid input for calendar_create_event: attendees_emails[0] must be an e-mail address ([redacted])';
    const long = `The upstream API answered 400 to POST /calendar/v3/calendars/primary/events: ${'Bad request detail '.repeat(40)}END-OF-MESSAGE`;
    await suite.h.connector.store.recordExecutions([
      record(1, { errorMessage: short }),
      record(2, { errorCode: 'upstream_error', upstreamStatus: 400, attempts: 1, errorMessage: long }),
      record(3, { outcome: 'success', errorCode: null, upstreamStatus: 200, attempts: 1 }),
    ]);
    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/executions?identifier=alice`);
    const message = async (n: number) => (await page.$(`tr[data-execution="${record(n, {}).id}"] .execution-message`))?.textContent();
    expect((await message(1))?.trim()).toBe(short);
    const clippedText = (await message(2))?.trim() ?? '';
    expect(clippedText.startsWith('The upstream API answered 400 to POST /calendar/v3/calendars/primary/events: Bad request detail')).toBe(true);
    expect(clippedText.endsWith('…')).toBe(true);
    expect(clippedText).not.toContain('END-OF-MESSAGE');
    expect(clippedText.length).toBeLessThan(300);
    expect(await page.$(`tr[data-execution="${record(3, {}).id}"] .execution-message`)).toBeNull();
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  }, 60_000);
});
