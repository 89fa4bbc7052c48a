/**
 * The dashboard in a real headless Chromium at 390 px: editing a connection's allowed redirect URLs and endpoint
 * overrides, a new authorization link offered on an EXPIRED account (and the account working again after it),
 * disconnecting after a confirmation, a real 404 page, and the sign-out button in the header.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { startHarness, type Harness } from '../harness.js';
import { BROWSER_TESTS, launchDashboardBrowser, signIn, type DashboardBrowser } from './browser.js';

let h: Harness;
let context: BrowserContext;
let browser: DashboardBrowser | undefined;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchDashboardBrowser();
  context = browser.context;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const fits = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

describe.runIf(BROWSER_TESTS)('dashboard connection editing and accounts in Chromium', () => {
  it('edits redirect URLs and overrides, re-links an EXPIRED account, disconnects after asking, 404s, signs out', async () => {
    const token = await h.token(h.a);
    const connection = await h.sandboxConnection(h.a, 'crm');
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm', identifier: 'edit-user' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'edit@example.com' })).status).toBe(200);

    const page = await context.newPage();
    await signIn(page, h);
    await page.goto(`${h.url}/dashboard/connections/${connection.id}`);
    expect(await page.inputValue('#override-api')).toBe(connection.overrides.apiBaseUrl);
    await page.fill('#allowed_redirect_urls', 'https://app.example.com/done\nhttps://app.example.com/other');
    await page.click('button:has-text("Save")');
    await page.waitForURL(/saved=1/);
    const saved = (await h.call('GET', `/api/v1/connections/${connection.id}`, { token })).body;
    expect(saved.allowed_redirect_urls).toEqual(['https://app.example.com/done', 'https://app.example.com/other']);
    expect(saved.overrides).toEqual(connection.overrides);
    // An override the policy refuses is an error on the form, and nothing changes.
    await page.fill('#override-api', 'http://169.254.169.254/latest');
    await page.click('button:has-text("Save")');
    expect(await page.textContent('[role=alert]')).toMatch(/apiBaseUrl/);
    expect((await h.call('GET', `/api/v1/connections/${connection.id}`, { token })).body.overrides).toEqual(connection.overrides);
    expect(await fits(page)).toBe(true);

    // The refresh token is revoked at the provider: the next call marks the account EXPIRED.
    h.sandbox.control.revokeRefreshTokens('hubspot', 'edit@example.com');
    h.sandbox.control.expireAccessTokens('hubspot', 'edit@example.com');
    const refused = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'edit-user', tool_input: {} } });
    expect(refused.body.error.code).toBe('reauthorization_required');
    await page.goto(`${h.url}/dashboard/connections/${connection.id}`);
    const row = page.locator('tr', { hasText: 'edit-user' });
    expect(await row.locator('[data-status]').textContent()).toBe('EXPIRED');
    await row.locator('[data-new-link]').click();
    const newLink = await page.getAttribute('#auth-link', 'href');
    expect(newLink).toMatch(/\/sso\/v1\/connect\//);
    expect((await consentThroughSandbox(newLink!, { user: 'edit@example.com' })).status).toBe(200);
    const works = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'edit-user', tool_input: {} } });
    expect(works.status).toBe(200);

    // Disconnect asks first; Cancel changes nothing.
    await page.goto(`${h.url}/dashboard/connections/${connection.id}`);
    await page.locator('tr', { hasText: 'edit-user' }).locator('[data-disconnect]').click();
    expect(await page.textContent('main')).toContain('revokes the account\'s tokens at the provider');
    expect(await fits(page)).toBe(true);
    await page.click('text=Cancel');
    expect(await page.locator('tr', { hasText: 'edit-user' }).locator('[data-status]').textContent()).toBe('ACTIVE');

    const missing = await page.goto(`${h.url}/dashboard/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Not found');
    expect(await page.textContent('main')).toContain('/dashboard/no-such-page');

    await page.goto(`${h.url}/dashboard`);
    expect(await page.isVisible('header >> text=Sign out')).toBe(true);
    await page.click('header >> text=Sign out');
    await page.waitForURL(`${h.url}/dashboard/login`);
    await page.goto(`${h.url}/dashboard/executions`);
    await page.waitForURL(`${h.url}/dashboard/login`);
  }, 60_000);
});
