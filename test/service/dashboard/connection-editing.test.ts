/**
 * The dashboard in a real headless Chromium at 390 px: editing a connection's allowed redirect URLs and endpoint
 * overrides, a new authorization link offered on an EXPIRED account (and the account working again after it),
 * disconnecting after a confirmation, a real 404 page, and the sign-out button in the header.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

const fits = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

describe.runIf(BROWSER_TESTS)('dashboard connection editing and accounts in Chromium', () => {
  it('edits redirect URLs and overrides, re-links an EXPIRED account, disconnects after asking, 404s, signs out', async () => {
    const { token, connection } = await crmUser(suite.h, 'edit-user', 'edit@example.com');

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    expect(await page.inputValue('#override-api')).toBe(connection.overrides.apiBaseUrl);
    await page.fill('#allowed_redirect_urls', 'https://app.example.com/done\nhttps://app.example.com/other');
    await page.click('button:has-text("Save")');
    await page.waitForURL(/saved=1/);
    const saved = (await suite.h.call('GET', `/api/v1/connections/${connection.id}`, { token })).body;
    expect(saved.allowed_redirect_urls).toEqual(['https://app.example.com/done', 'https://app.example.com/other']);
    expect(saved.overrides).toEqual(connection.overrides);
    // An override the policy refuses is an error on the form, and nothing changes.
    await page.fill('#override-api', 'http://169.254.169.254/latest');
    await page.click('button:has-text("Save")');
    expect(await page.textContent('[role=alert]')).toMatch(/apiBaseUrl/);
    expect((await suite.h.call('GET', `/api/v1/connections/${connection.id}`, { token })).body.overrides).toEqual(connection.overrides);
    expect(await fits(page)).toBe(true);

    // A new client for this sandbox connection, with its secret: the sandbox learns it, so a new link still consents.
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.fill('#client_id', 'edited-crm-client');
    await page.fill('#client_secret', 'edited-crm-secret-value');
    await page.click('button:has-text("Save")');
    await page.waitForURL(/saved=secret/);
    expect((await suite.h.call('GET', `/api/v1/connections/${connection.id}`, { token })).body.client_id).toBe('edited-crm-client');
    const relink = await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection.name, identifier: 'edit-user' } });
    expect((await consentThroughSandbox(relink.body.link, { user: 'edit@example.com' })).status).toBe(200);

    // The refresh token is revoked at the provider: the next call marks the account EXPIRED.
    suite.h.sandbox.control.revokeRefreshTokens('hubspot', 'edit@example.com');
    suite.h.sandbox.control.expireAccessTokens('hubspot', 'edit@example.com');
    const refused = await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'edit-user', tool_input: {} } });
    expect(refused.body.error.code).toBe('reauthorization_required');
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    const row = page.locator('tr', { hasText: 'edit-user' });
    expect(await row.locator('[data-status]').textContent()).toBe('EXPIRED');
    await row.locator('[data-new-link]').click();
    const newLink = await page.getAttribute('#auth-link', 'href');
    expect(newLink).toMatch(/\/sso\/v1\/connect\//);
    // The link, one long word, wraps: the page still fits 390 px.
    expect(await fits(page)).toBe(true);
    expect((await consentThroughSandbox(newLink!, { user: 'edit@example.com' })).status).toBe(200);
    const works = await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'edit-user', tool_input: {} } });
    expect(works.status).toBe(200);

    // Disconnect asks first; Cancel changes nothing.
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.locator('tr', { hasText: 'edit-user' }).locator('[data-disconnect]').click();
    expect(await page.textContent('main')).toContain('asks the provider to revoke them');
    expect(await fits(page)).toBe(true);
    await page.click('text=Cancel');
    expect(await page.locator('tr', { hasText: 'edit-user' }).locator('[data-status]').textContent()).toBe('ACTIVE');

    const missing = await page.goto(`${suite.h.url}/dashboard/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Not found');
    expect(await page.textContent('main')).toContain('/dashboard/no-such-page');

    await page.goto(`${suite.h.url}/dashboard`);
    expect(await page.isVisible('header >> text=Sign out')).toBe(true);
    await page.click('header >> text=Sign out');
    await page.waitForURL(`${suite.h.url}/dashboard/login`);
    await page.goto(`${suite.h.url}/dashboard/executions`);
    await page.waitForURL(`${suite.h.url}/dashboard/login`);
  }, 60_000);
});
