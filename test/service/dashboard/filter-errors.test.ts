/**
 * The dashboard's list pages refuse a filter their address gets wrong, in the API's words, in a real headless
 * Chromium: `?outcome=bad` on the execution history (and `?status=bad` on the delivery log and the accounts) was
 * silently dropped and every row shown, a list that was not the one asked for. Now the page says which filter is
 * refused and what it may be, as `GET /api/v1/...` does for the same query, lists nothing, and the form keeps what
 * was asked.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn, suiteReceiver } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });
const receiver = suiteReceiver();

describe.runIf(BROWSER_TESTS)('dashboard list pages with a bad filter in their address', () => {
  it('say which filter is refused and list nothing', async () => {
    const token = await suite.h.token(suite.h.a);
    // An endpoint before the account connects: its account.connected delivery is in the log.
    expect((await suite.h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } })).status).toBe(201);
    await crmUser(suite.h, 'filter-user', 'filter@example.com');
    await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'filter-user', tool_input: {} } });
    for (let i = 0; i < 100; i++) {
      if ((await suite.h.call('GET', '/api/v1/executions', { token })).body.executions.length >= 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const api = await suite.h.call('GET', '/api/v1/executions?outcome=bad', { token });
    expect(api.status).toBe(400);

    const page = await suite.newPage();
    await signIn(page, suite.h);
    // The unfiltered pages list rows, so an empty list below is the refusal's doing.
    await page.goto(`${suite.h.url}/dashboard/executions`);
    expect(await page.$$('#executions tbody tr')).toHaveLength(1);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    expect(await page.$$('#webhook-deliveries tbody tr')).toHaveLength(1);
    expect(await page.$$('tr[data-account-id]')).toHaveLength(0);
    await page.goto(`${suite.h.url}/dashboard`);
    expect(await page.$$('tr[data-account-id]')).toHaveLength(1);

    await page.goto(`${suite.h.url}/dashboard/executions?outcome=bad&identifier=filter-user`);
    expect(await page.$$('#executions tbody tr')).toHaveLength(0);
    const alert = (await page.textContent('[role=alert]')) ?? '';
    expect(alert).toContain('outcome must be one of: success, error');
    // The API's own words for the same query.
    expect(alert).toContain(api.body.error.message);
    expect(await page.$$('#executions tbody tr')).toHaveLength(0);
    expect(await page.textContent('main')).not.toContain('No executions');
    // The form as asked: correcting the one filter is enough.
    expect(await page.inputValue('#filter-identifier')).toBe('filter-user');
    expect(await page.inputValue('#filter-outcome')).toBe('bad');
    await page.selectOption('#filter-outcome', 'success');
    await page.click('text=Filter');
    await page.waitForURL(/outcome=success/);
    expect(await page.$('[role=alert]')).toBeNull();
    expect(await page.$$('#executions tbody tr')).toHaveLength(1);

    // A misspelt filter is refused by name too, not ignored.
    await page.goto(`${suite.h.url}/dashboard/executions?outcomes=error`);
    expect(await page.textContent('[role=alert]')).toContain("unknown parameter 'outcomes'");
    expect(await page.$$('#executions tbody tr')).toHaveLength(0);

    await page.goto(`${suite.h.url}/dashboard/webhooks?status=bad`);
    expect(await page.$$('#webhook-deliveries tbody tr')).toHaveLength(0);
    expect(await page.textContent('[role=alert]')).toContain('status must be one of: pending, delivered, failed');
    expect(await page.$$('#webhook-deliveries tbody tr')).toHaveLength(0);
    expect(await page.textContent('main')).not.toContain('No deliveries');
    expect(await page.inputValue('#filter-status')).toBe('bad');

    await page.goto(`${suite.h.url}/dashboard?status=bad`);
    expect(await page.$$('tr[data-account-id]')).toHaveLength(0);
    expect(await page.textContent('[role=alert]')).toContain('status must be one of');
    expect(await page.$$('tr[data-account-id]')).toHaveLength(0);
    expect(await page.textContent('main')).not.toContain('No connected accounts');
  });
});
