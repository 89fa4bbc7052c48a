/**
 * An operator going through the delivery log filtered (the pending ones, say) opens a delivery, may send it again,
 * and comes back with the page's own "Back to webhooks" link: to the same filtered log, not the unfiltered one. In a
 * real headless Chromium; the dispatcher is run by hand.
 */
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { BROWSER_TESTS, dashboardSuite, signIn, suiteReceiver } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });
const receiver = suiteReceiver();

describe.runIf(BROWSER_TESTS)('dashboard webhook delivery: back to the log it was opened from', () => {
  it('keeps the log\'s filter in "Back to webhooks", after sending the delivery again too', async () => {
    const token = await suite.h.token(suite.h.a);
    expect((await suite.h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } })).status).toBe(201);
    await suite.h.sandboxConnection(suite.h.a, 'calendar', 'hooked');
    receiver.status = 500;
    for (const [identifier, user] of [['first', 'first@example.com'], ['second', 'second@example.com']]) {
      const link = await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'hooked', identifier } });
      expect((await consentThroughSandbox(link.body.link, { user })).status).toBe(200);
    }
    await suite.h.app.webhookDispatcher!.runOnce();

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.selectOption('#filter-status', 'pending');
    await page.click('text=Filter');
    await page.waitForURL(/status=pending/);
    const listSearch = new URL(page.url()).searchParams;
    await page.click('#webhook-deliveries tbody a');
    await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/whdl_/);
    const back = async () => new URL((await page.getAttribute('text=Back to webhooks', 'href'))!, suite.h.url);
    expect((await back()).searchParams.get('status')).toBe(listSearch.get('status'));

    // Sent again: the page it comes back to still leads back to the filtered log.
    await page.click('#delivery-retry');
    await page.waitForURL(/retried=1/);
    expect(await page.textContent('#delivery-retried')).toContain('Sent again');
    expect((await back()).searchParams.get('status')).toBe('pending');
    await page.click('text=Back to webhooks');
    await page.waitForURL(/\/dashboard\/webhooks\?/);
    expect(await page.inputValue('#filter-status')).toBe('pending');

    // Opened from elsewhere, it goes back to the whole log; only the log's own parameters ride along.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    const href = (await page.getAttribute('#webhook-deliveries tbody a', 'href'))!;
    await page.goto(`${suite.h.url}${href.split('?')[0]}?status=failed&next=https://evil.example/`);
    expect(await page.getAttribute('text=Back to webhooks', 'href')).toBe('/dashboard/webhooks?status=failed');
    await page.goto(`${suite.h.url}${href.split('?')[0]}`);
    expect(await page.getAttribute('text=Back to webhooks', 'href')).toBe('/dashboard/webhooks');
  }, 60_000);
});
