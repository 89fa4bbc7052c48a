/**
 * "New authorization link" on an EXPIRED account, from the connected accounts of the dashboard's home page, opens the
 * connection's page at its Authorization link card, where the new link is: in view (at 390 px the card is far below
 * the connection's form) and where the keyboard goes on from, so the operator sees the link the click made. In a real
 * headless Chromium.
 */
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

describe.runIf(BROWSER_TESTS)('dashboard: a new authorization link in view', () => {
  it('shows the new link of an EXPIRED account in the viewport, made with the keyboard', async () => {
    const { token } = await crmUser(suite.h, 'relink-user', 'relink@example.com');
    suite.h.sandbox.control.revokeRefreshTokens('hubspot', 'relink@example.com');
    suite.h.sandbox.control.expireAccessTokens('hubspot', 'relink@example.com');
    const refused = await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'relink-user', tool_input: {} } });
    expect(refused.body.error.code).toBe('reauthorization_required');

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.selectOption('#accounts-status', 'EXPIRED');
    await page.click('#account-filters button');
    await page.focus('[data-new-link]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#auth-link');
    expect(page.url()).toContain('#authorization-link');
    const inView = await page.evaluate<boolean>(`(() => { const r = document.querySelector('#auth-link').getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })()`);
    expect(inView).toBe(true);
    // The keyboard goes on from the card: the next Tab reaches the link's form, not the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>(`document.activeElement.closest('#authorization-link') ? 'card' : document.activeElement.outerHTML`)).toBe('card');
    expect((await consentThroughSandbox((await page.getAttribute('#auth-link', 'href'))!, { user: 'relink@example.com' })).status).toBe(200);
  }, 60_000);
});
