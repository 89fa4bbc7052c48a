/**
 * The dashboard's webhook pages and the connection deletion confirmation, in a real headless Chromium: create an
 * endpoint (its secret shown once, and that secret verifies the deliveries a local receiver gets), see the delivery
 * log and one delivery's attempts and payload (a delivery log cursor the list refuses is the page's error), rotate the
 * secret after a confirmation (which warns when a rotation is under way), delete a connection after a page that says how many accounts it disconnects, delete the endpoint after a
 * confirmation.
 */
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectSandboxUser, dashboardSuite, signIn, suiteReceiver } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });
const receiver = suiteReceiver();

/** The page fits a 390 px wide screen: nothing wider than the viewport but what scrolls in its own box. */
async function fitsNarrowScreen(page: Page): Promise<boolean> {
  // A string, evaluated in the page: the project's TypeScript has no DOM library.
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
}

describe.runIf(BROWSER_TESTS)('dashboard webhooks in Chromium', () => {
  it('creates an endpoint, shows its secret once, logs deliveries, rotates, deletes after confirmation; deleting a connection says what it disconnects', async () => {
    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.click('header >> text=Webhooks');
    await page.waitForURL(`${suite.h.url}/dashboard/webhooks`);
    expect(await page.textContent('main')).toContain('No webhook endpoints yet');

    // A URL the policy refuses is an error on the form, not an endpoint.
    await page.fill('#url', 'http://169.254.169.254/latest/meta-data');
    await page.click('text=Create endpoint');
    expect(await page.textContent('[role=alert]')).toContain('link-local');

    await page.fill('#url', receiver.url);
    await page.check('input[value="account.connected"]');
    await page.check('input[value="account.disconnected"]');
    await page.click('text=Create endpoint');
    const secret = (await page.textContent('#webhook-secret')) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await page.textContent('main')).toContain('only now');
    expect(await fitsNarrowScreen(page)).toBe(true);

    // Listed, without the secret.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    expect(await page.textContent('#webhook-endpoints')).toContain(receiver.url);
    expect(await page.content()).not.toContain(secret);
    expect(await fitsNarrowScreen(page)).toBe(true);

    // An account connects through the sandbox: the delivery reaches the receiver, verifiable with the shown secret.
    await connectSandboxUser(suite.h, { connector: 'calendar', connection: 'hooked', identifier: 'web-user' });
    await suite.h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect(new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers)).toMatchObject({ type: 'account.connected' });

    await page.reload();
    expect(await page.textContent('#webhook-deliveries')).toContain('account.connected');
    expect(await page.textContent('#webhook-deliveries')).toContain('delivered');
    await page.click('#webhook-deliveries >> text=account.connected');
    await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/whdl_/);
    expect(await page.textContent('#delivery-status')).toBe('delivered');
    expect(await page.textContent('#delivery-attempts')).toContain('HTTP 204');
    expect(JSON.parse((await page.textContent('#delivery-payload')) ?? '{}')).toMatchObject({ type: 'account.connected', data: { identifier: 'web-user', status: 'ACTIVE' } });
    expect(await fitsNarrowScreen(page)).toBe(true);

    // A cursor the delivery log did not write (edited by hand) is the page's error; the endpoints are still shown.
    await page.goto(`${suite.h.url}/dashboard/webhooks?cursor=forged`);
    expect(await page.textContent('[role=alert]')).toContain('cursor');
    expect(await page.textContent('#webhook-endpoints')).toContain(receiver.url);

    // Filtering by status: nothing failed.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.selectOption('#filter-status', 'failed');
    await page.click('text=Filter');
    await page.waitForURL(/status=failed/);
    expect(await page.textContent('main')).toContain('No deliveries match the filter');
    // Clear, as on the execution history, goes back to every delivery.
    await page.click('#clear-filter');
    await page.waitForURL(`${suite.h.url}/dashboard/webhooks`);
    expect(await page.inputValue('#filter-status')).toBe('');
    expect(await page.textContent('#webhook-deliveries')).toContain('account.connected');
    expect(await page.$('#clear-filter')).toBeNull();

    // Rotate asks first, and asking rotates nothing; confirmed: a new secret, shown once; the old one still verifies
    // during the overlap.
    const endpointNow = async () => (await suite.h.call('GET', '/api/v1/webhook_endpoints', { token: await suite.h.token(suite.h.a) })).body.webhook_endpoints[0];
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.click('text=Rotate secret…');
    await page.waitForURL(/\/dashboard\/webhooks\/whep_\w+\/rotate$/);
    expect(await page.textContent('main')).toContain('shown once');
    expect(await page.$('#rotation-under-way')).toBeNull();
    expect((await endpointNow()).previous_secret_expires_at).toBeNull();
    await page.click('#confirm-rotate');
    const rotated = (await page.textContent('#webhook-secret')) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await page.textContent('main')).toContain('keeps signing');
    // Asked again during the overlap, the page says that rotating once more ends it; Cancel changes nothing.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.click('text=Rotate secret…');
    expect(await page.textContent('#rotation-under-way')).toContain('stops it now');
    await page.click('text=Cancel');
    await page.waitForURL(`${suite.h.url}/dashboard/webhooks`);
    expect((await endpointNow()).previous_secret_expires_at).not.toBeNull();

    // Deleting the connection asks first and says how many accounts it disconnects.
    await page.goto(`${suite.h.url}/dashboard`);
    await page.click('text=hooked');
    await page.click('#delete-connection');
    expect(await page.textContent('#delete-impact')).toContain('1 connected account');
    expect(await page.textContent('#delete-impact')).toContain('the provider is asked to revoke them');
    await page.click('text=Delete connection and disconnect accounts');
    await page.waitForURL(/\/dashboard\?deleted=hooked/);
    expect(await page.textContent('[role=status]')).toContain('1 connected account(s) disconnected');
    // The receiver refuses this one: the log's "Last answer" is the refusal, said once.
    receiver.status = 500;
    await suite.h.app.webhookDispatcher!.runOnce();
    receiver.status = 204;
    const disconnected = receiver.received[1]!;
    for (const s of [secret, rotated]) expect(new Webhook(s).verify(disconnected.body, disconnected.headers)).toMatchObject({ type: 'account.disconnected', data: { status_reason: 'connection_deleted' } });
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    const refused = page.locator('#webhook-deliveries tr', { hasText: 'account.disconnected' });
    expect(await refused.locator('td').nth(4).textContent()).toBe('HTTP 500: receiver says no');

    // Deleting the endpoint asks first.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.click('text=Delete…');
    expect(await page.textContent('main')).toContain('will receive no more events');
    await page.click('text=Delete endpoint');
    await page.waitForURL(/\/dashboard\/webhooks\?deleted=1/);
    expect(await page.textContent('[role=status]')).toContain('deleted');
    expect(await page.textContent('main')).toContain('No webhook endpoints yet');
  });
});
