/**
 * A failed execution on the dashboard says whose side its error points to (the request, the user's authorization,
 * the provider), so an operator asked "why did my agent's call fail" can answer from the page alone, in a real
 * headless Chromium at 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

function record(n: number, over: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    id: `0196a1b2-0000-7000-8000-00000000050${n}`, environmentId: suite.h.a.environmentId, startedAt: new Date().toISOString(), kind: 'tool',
    connectionId: null, connectionName: 'calendar', identifier: 'alice', operation: 'calendar_create_event', outcome: 'error', errorCode: null,
    errorMessage: null, upstreamStatus: null, attempts: 1, durationMs: 3, input: null, ...over,
  };
}

describe.runIf(BROWSER_TESTS)('dashboard execution: whose side the error is on', () => {
  it('names the request, the authorization, the provider or the service from the catalogue, by error code and upstream status', async () => {
    const cases: [Partial<ExecutionRecord>, RegExp][] = [
      [{ errorCode: 'invalid_input', attempts: 0 }, /^The request: .*nothing was sent to the provider/],
      [{ errorCode: 'reauthorization_required', upstreamStatus: 401 }, /^The user's authorization: .*new authorization link/],
      [{ errorCode: 'upstream_error', upstreamStatus: 500 }, /^The provider: it failed/],
      [{ errorCode: 'upstream_error', upstreamStatus: 404 }, /^The request, as the provider judged it: it answered HTTP 404/],
      [{ errorCode: 'insufficient_scope', upstreamStatus: 403 }, /^The user's authorization: .*scope/],
      [{ errorCode: 'upstream_timeout' }, /^The provider: .*did not answer in time/],
      // A calendar event read that the call's filters refuse (runtime/helpers/calendar-event-filter.ts): the catalogue
      // puts not_found on the request's side, where the old table's default had put it on the service's.
      [{ errorCode: 'not_found', upstreamStatus: 200 }, /^The request, as the provider judged it: it answered HTTP 200/],
      [{ errorCode: 'internal' }, /^The service \(see the logs/],
      // A stored code the catalogue does not have (a record kept from another version).
      [{ errorCode: 'retired_code' }, /^The service \(see the logs/],
    ];
    await suite.h.connector.store.recordExecutions(cases.map(([over], n) => record(n, over)));
    const page = await suite.newPage();
    await signIn(page, suite.h);
    for (const [n, [over, side]] of cases.entries()) {
      await page.goto(`${suite.h.url}/dashboard/executions/${record(n, {}).id}`);
      expect((await page.textContent('#execution-side'))?.trim(), over.errorCode!).toMatch(side);
      expect(await page.textContent('main')).toContain('The message is the one the caller got in its error body');
    }
    // A success has no such line.
    await suite.h.connector.store.recordExecutions([record(9, { outcome: 'success', upstreamStatus: 200 })]);
    await page.goto(`${suite.h.url}/dashboard/executions/${record(9, {}).id}`);
    expect(await page.$('#execution-side')).toBeNull();
  }, 60_000);
});
