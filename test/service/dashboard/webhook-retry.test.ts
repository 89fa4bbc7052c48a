/**
 * A webhook delivery that failed is sent again from its page ("Send again now") once the receiver is fixed, rather
 * than at the next retry (hours apart) or, past its 24 hours, never; a delivered one offers nothing to send. In a
 * real headless Chromium at 390 px; the dispatcher is run by hand, so each attempt is the test's.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectSandboxUser, dashboardSuite, signIn, suiteReceiver } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });
const receiver = suiteReceiver();

describe.runIf(BROWSER_TESTS)('dashboard: send a webhook delivery again', () => {
  it('sends a failed delivery again now, once the receiver answers, and then shows it delivered', async () => {
    const token = await suite.h.token(suite.h.a);
    expect((await suite.h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } })).status).toBe(201);
    receiver.status = 500;
    await connectSandboxUser(suite.h, { connector: 'calendar', connection: 'hooked', identifier: 'web-user' });
    await suite.h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(1);

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.click('#webhook-deliveries >> text=account.connected');
    await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/whdl_/);
    expect(await page.textContent('#delivery-status')).toBe('pending');
    expect(await page.textContent('#delivery-attempts')).toContain('HTTP 500');

    // Its next retry is seconds away; the dispatcher, run now, has nothing due.
    await suite.h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(1);

    // The receiver is fixed; sent again from the page, the delivery is due at once.
    receiver.status = 204;
    await page.click('#delivery-retry');
    await page.waitForURL(/\?retried=1$/);
    expect(await page.textContent('#delivery-retried')).toContain('Sent again');
    await suite.h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(2);
    await page.reload();
    expect(await page.textContent('#delivery-status')).toBe('delivered');
    expect(await page.textContent('#delivery-attempts')).toContain('HTTP 204');
    expect(await page.$('#delivery-retry')).toBeNull();
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  }, 60_000);
});
