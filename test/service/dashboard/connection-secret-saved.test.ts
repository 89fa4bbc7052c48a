/**
 * Rotating a connection's OAuth client secret on its dashboard page says that the new secret was saved (the field is
 * empty again after any save, so "Saved." alone does not tell a rotation from an edit that kept the old secret), and
 * the secret appears nowhere in the page. In a real headless Chromium at 390 px.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

describe.runIf(BROWSER_TESTS)('dashboard: a connection client secret rotated', () => {
  it('says whether the client secret was replaced, and never shows it', async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'crm');
    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.fill('#client_secret', 'rotated-crm-secret-4711');
    await page.click('button:has-text("Save")');
    await page.waitForURL(/saved=/);
    expect(await page.textContent('[role=status]')).toContain('with the new client secret');
    expect(await page.inputValue('#client_secret')).toBe('');
    expect(await page.content()).not.toContain('rotated-crm-secret-4711');

    await page.click('button:has-text("Save")');
    await page.waitForURL(/saved=/);
    expect(await page.textContent('[role=status]')).toContain('The client secret is unchanged');
  }, 60_000);
});
