/**
 * A failed execution on the dashboard says whose side its error points to (the request, the user's authorization,
 * the provider), so an operator asked "why did my agent's call fail" can answer from the page alone, in a real
 * headless Chromium at 390 px.
 */
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
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

  it("puts a token refresh that refused the connection's OAuth client on the authorization side, the operator's to fix, not the request's", async () => {
    const { h } = suite;
    const token = await h.token(h.a);
    const connection = await h.sandboxConnection(h.a, 'calendar', 'cal-client');
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal-client', identifier: 'zoe' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'zoe@example.com' })).status).toBe(200);
    // The client's secret is changed at the provider and not on the connection; the user's access token has expired.
    h.sandbox.control.registerClient({ provider: 'google', clientId: connection.client_id, clientSecret: 'rotated-at-google', redirectUris: [connection.redirect_uri] });
    h.sandbox.control.expireAccessTokens('google', 'zoe@example.com');
    const refused = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_events', identifier: 'zoe', tool_input: { max_results: 1 } } });
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([502, 'upstream_error', { status: 401, error: 'invalid_client' }]);
    const id = refused.body.error.execution_id as string;
    for (let i = 0; i < 100 && (await h.call('GET', `/api/v1/executions/${id}`, { token })).status !== 200; i++) await new Promise((r) => setTimeout(r, 20));

    const page = await suite.newPage();
    await page.context().clearCookies();
    await signIn(page, h);
    await page.goto(`${h.url}/dashboard/executions/${id}`);
    // The record's upstream status is the 401 of the token endpoint: not a provider's judgement of the request.
    expect(await page.textContent('#execution-fields')).toContain('HTTP 401');
    const side = (await page.textContent('#execution-side'))?.trim() ?? '';
    expect(side).toMatch(/^The application's OAuth client on the connection cal-client: /);
    expect(side).toContain('operator');
    expect(side).not.toMatch(/^The request/);
    expect(side).not.toContain('Send the user a new authorization link');
  }, 60_000);
});
