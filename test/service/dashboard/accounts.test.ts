/**
 * The dashboard's connected accounts in a real headless Chromium at 390 px: filtered by identifier, connection and
 * status, 25 to a page with Next and Previous that keep the filter.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { startHarness, type Harness } from '../harness.js';

const CHROMIUM = '/usr/bin/chromium';
let h: Harness;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  h = await startHarness();
  profile = mkdtempSync(join(tmpdir(), 'ac-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 390, height: 844 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await h?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${h.url}/dashboard/login`);
  await page.fill('#client_id', h.a.clientId);
  await page.fill('#client_secret', h.a.clientSecret);
  await page.click('button[type=submit]');
  await page.waitForURL(`${h.url}/dashboard`);
}

const identifiers = (page: Page) => page.$$eval('tr[data-account-id] td:first-child', (tds) => tds.map((td) => (td as { textContent: string | null }).textContent ?? ''));

describe.runIf(existsSync(CHROMIUM))('dashboard accounts in Chromium', () => {
  it('filters and pages the connected accounts', async () => {
    const token = await h.token(h.a);
    await h.sandboxConnection(h.a, 'crm');
    await h.sandboxConnection(h.a, 'calendar');
    // 26 accounts waiting for authorization on crm, one ACTIVE on calendar.
    for (let i = 0; i < 26; i++) {
      await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm', identifier: `user-${String(i).padStart(2, '0')}` } });
    }
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'calendar', identifier: 'active-one' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'active@example.com' })).status).toBe(200);

    const page = await context.newPage();
    await signIn(page);
    expect(await identifiers(page)).toHaveLength(25);
    expect(await page.textContent('main')).toContain('1–25 of 27');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.click('#accounts-next');
    expect(await identifiers(page)).toHaveLength(2);
    expect(await page.textContent('main')).toContain('26–27 of 27');
    await page.click('#accounts-previous');
    expect(await identifiers(page)).toHaveLength(25);

    await page.selectOption('#accounts-status', 'ACTIVE');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toEqual(['active-one']);

    await page.goto(`${h.url}/dashboard`);
    await page.selectOption('#accounts-connection', 'crm');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toHaveLength(25);
    await page.click('#accounts-next');
    // The next page keeps the filter.
    expect(page.url()).toContain('connection_name=crm');
    expect(await identifiers(page)).toHaveLength(1);

    await page.goto(`${h.url}/dashboard`);
    await page.fill('#accounts-identifier', 'user-07');
    await page.click('#account-filters button');
    expect(await identifiers(page)).toEqual(['user-07']);
  }, 60_000);
});
