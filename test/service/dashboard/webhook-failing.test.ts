/**
 * An operator asked "which webhook deliveries failed?" while a receiver is down: a delivery whose attempts failed is
 * `pending` (retried for 24 hours) and `failed` only once given up, so the log must say which pending ones are failing,
 * and the status filter what each status means, rather than answer "No deliveries match" to "failed" while every
 * delivery is failing. In a real headless Chromium at 390 px; the dispatcher is run by hand.
 */
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { BROWSER_TESTS, dashboardSuite, signIn, suiteReceiver } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });
const receiver = suiteReceiver();

describe.runIf(BROWSER_TESTS)('dashboard: failing webhook deliveries', () => {
  it('marks a pending delivery whose last attempt failed, and says where failing deliveries are when none is given up', async () => {
    const token = await suite.h.token(suite.h.a);
    expect((await suite.h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } })).status).toBe(201);
    await suite.h.sandboxConnection(suite.h.a, 'calendar', 'hooked');
    const link = await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'hooked', identifier: 'down-user' } });
    receiver.status = 500;
    expect((await consentThroughSandbox(link.body.link)).status).toBe(200);
    const link2 = await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'hooked', identifier: 'later-user' } });
    await suite.h.app.webhookDispatcher!.runOnce();
    // A second event, not attempted yet: pending, and not failing.
    expect((await consentThroughSandbox(link2.body.link, { user: 'later@example.com' })).status).toBe(200);

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    const rows = await page.$$eval('#webhook-deliveries tbody tr', (trs) => trs.map((tr) => (tr as { textContent: string | null }).textContent ?? ''));
    expect(rows).toHaveLength(2);
    const failing = rows.filter((r) => /last attempt failed/.test(r));
    expect(failing).toHaveLength(1);
    expect(failing[0]).toContain('HTTP 500');

    // The filter says what each status is; "failed" is a delivery given up.
    expect(await page.textContent('#filter-status option[value=failed]')).toMatch(/given up/);
    await page.selectOption('#filter-status', 'failed');
    await page.click('text=Filter');
    await page.waitForURL(/status=failed/);
    expect(await page.textContent('main')).toContain('No deliveries match the filter');
    // ... and points to where the failing ones are.
    await page.click('#failing-pending');
    await page.waitForURL(/status=pending/);
    expect(await page.inputValue('#filter-status')).toBe('pending');
    expect(await page.textContent('#webhook-deliveries')).toContain('last attempt failed');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  }, 60_000);
});
