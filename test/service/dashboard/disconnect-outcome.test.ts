/**
 * After Disconnect (an account) and Delete (a connection), in a real headless Chromium, the dashboard says what the
 * provider did with the revocation: revoked, refused (with its HTTP status), or could not be reached, and where the
 * user revokes by hand when it did not. It used to say "deleted (and revoked at the provider)" whatever happened.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { freePort } from '../../../runtime/service/free-port.js';
import { BROWSER_TESTS, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite({ rateLimit: false });

async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.goto(`${suite.h.url}/dashboard`);
  if (page.url().startsWith(`${suite.h.url}/dashboard/login`)) await signIn(page, suite.h);
  return page;
}

async function authorize(connection: string, identifier: string): Promise<void> {
  const token = await suite.h.token(suite.h.a);
  const link = await suite.h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection, identifier } });
  expect((await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` })).status).toBe(200);
}

/** Disconnects `identifier` through the confirmation page and answers the flash. */
async function disconnect(page: Page, identifier: string): Promise<string> {
  await page.goto(`${suite.h.url}/dashboard?${new URLSearchParams({ identifier })}`);
  await page.click('[data-disconnect]');
  await page.click('#confirm-disconnect');
  await page.waitForURL(/\/dashboard\/connections\/[^/?]+\?disconnected=ca_/);
  return (await page.textContent('[role=status]')) ?? '';
}

describe.runIf(BROWSER_TESTS)('what a disconnect did at the provider, in Chromium', () => {
  it('says revoked, refused (HTTP 401) or unreachable for an account, and counts them for a connection', async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'crm', 'outcomes');
    for (const who of ['out-ok', 'out-refused', 'out-down']) await authorize('outcomes', who);
    const page = await signedInPage();

    expect(await disconnect(page, 'out-ok')).toContain('out-ok disconnected: its tokens are deleted here and the provider revoked them.');

    suite.h.sandbox.control.setFault('oauth:hubspot', { failNext: { count: 1, status: 401 } });
    const refused = await disconnect(page, 'out-refused');
    suite.h.sandbox.control.clearFaults('oauth:hubspot');
    expect(refused).toContain(
      "out-refused disconnected: its tokens are deleted here; the provider refused to revoke them (HTTP 401): revoke this app's access in HubSpot's settings (Integrations > Connected Apps).",
    );
    expect(refused).not.toContain('the provider revoked them');

    const token = await suite.h.token(suite.h.a);
    const closed = await freePort();
    expect((await suite.h.call('PATCH', `/api/v1/connections/${connection.id}`, { token, body: { overrides: { ...connection.overrides, revocationUrl: `http://127.0.0.1:${closed}/revoke` } } })).status).toBe(200);
    expect(await disconnect(page, 'out-down')).toContain('out-down disconnected: its tokens are deleted here; the provider could not be reached to revoke them');
    for (const who of ['out-ok', 'out-refused', 'out-down']) {
      expect(await page.locator('tr', { hasText: who }).locator('[data-status]').textContent()).toBe('DISCONNECTED');
    }

    // A whole connection: one revocation refused, one accepted, counted on the page it lands on.
    const doomed = await suite.h.sandboxConnection(suite.h.a, 'calendar', 'outcomes-all');
    await authorize('outcomes-all', 'all-1');
    await authorize('outcomes-all', 'all-2');
    await page.goto(`${suite.h.url}/dashboard/connections/${doomed.id}/delete`);
    expect(await page.textContent('#delete-impact')).toContain('the provider is asked to revoke them');
    suite.h.sandbox.control.setFault('oauth:google', { failNext: { count: 1, status: 400 } });
    await page.click('button:has-text("Delete connection and disconnect accounts")');
    await page.waitForURL(/\/dashboard\?deleted=/);
    suite.h.sandbox.control.clearFaults('oauth:google');
    const flash = (await page.textContent('[role=status]')) ?? '';
    expect(flash).toContain('Connection outcomes-all deleted; 2 connected account(s) disconnected.');
    expect(flash).toContain('at the provider: 1 revoked by the provider, 1 refused by the provider.');
    expect(flash).toContain("revoke this app's access in the Google Account's security settings");
  }, 90_000);
});
