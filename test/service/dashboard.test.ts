/**
 * The dashboard in a real headless Chromium: sign in, create a connection (pointed at the sandbox), make an
 * authorization link, authorize a sandbox user on the provider's consent page, see the account ACTIVE, disconnect it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { BROWSER_TESTS, CHROMIUM } from './dashboard/browser.js';


let h: Harness;
let browser: Browser | undefined;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  h = await startHarness();
  profile = mkdtempSync(join(tmpdir(), 'ac-chromium-'));
  // A fresh user-data-dir per run: nothing leaks between runs (cookies, cache).
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  browser = context.browser() ?? undefined;
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await h?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe.runIf(BROWSER_TESTS)('dashboard in Chromium', () => {
  it('signs in, creates a connection, authorizes a sandbox user, shows ACTIVE, disconnects', async () => {
    const page = await context.newPage();
    await page.goto(`${h.url}/dashboard`);
    expect(page.url()).toBe(`${h.url}/dashboard/login`);

    await page.fill('#client_id', h.a.clientId);
    await page.fill('#client_secret', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('wrong secret');

    await page.fill('#client_secret', h.a.clientSecret);
    await page.click('button[type=submit]');
    await page.waitForURL(`${h.url}/dashboard`);
    expect(await page.textContent('main')).toContain(h.a.environmentId);
    const cookies = await context.cookies(`${h.url}/dashboard/`);
    const session = cookies.find((c) => c.name === 'ac_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');

    await page.click('text=New connection');
    await page.fill('#name', 'team-calendar');
    await page.selectOption('#connector', 'calendar');
    await page.fill('#client_id', 'dash-client');
    await page.fill('#client_secret', 'dash-secret-value');
    await page.check('#use_sandbox');
    await page.click('text=Create connection');
    await page.waitForURL(/\/dashboard\/connections\/conn_/);
    const redirectUri = (await page.textContent('#redirect-uri')) ?? '';
    expect(redirectUri).toMatch(new RegExp(`^${h.url}/sso/v1/oauth/conn_[a-z0-9]+/callback$`));
    expect(await page.content()).not.toContain('dash-secret-value');
    // On the sandbox there is nothing to register: the page does not ask for it.
    expect(await page.textContent('[role=status]')).toContain('local sandbox, which has its client and redirect URI already');
    expect(await page.textContent('[role=status]')).not.toContain('Register');

    await page.fill('#identifier', 'dash-user');
    await page.click('text=Create link');
    const link = await page.getAttribute('#auth-link', 'href');
    expect(link).toMatch(/\/sso\/v1\/connect\//);

    // The user's side: open the link, consent on the sandbox provider's page, land on the success page.
    await page.goto(link as string);
    // The link's Continue page: nothing is bound until the person presses Continue.
    await page.click('button:has-text("Continue")');
    expect(await page.textContent('#client')).toBe('dash-client');
    await page.fill('input[name=user]', 'dash@example.com');
    await page.click('button[value=allow]');
    await page.waitForURL(/\/sso\/v1\/oauth\/.*\/callback/);
    expect(await page.textContent('h1')).toBe('Connected');

    await page.goto(`${h.url}/dashboard`);
    const row = page.locator('tr', { hasText: 'dash-user' });
    expect(await row.locator('[data-status]').textContent()).toBe('ACTIVE');
    // At phone width the connections and accounts tables scroll inside their cards: the page itself fits.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    // Disconnecting asks first, on a page that says what it does.
    await row.locator('text=Disconnect…').click();
    await page.waitForURL(/\/dashboard\/accounts\/.*\/disconnect/);
    expect(await page.textContent('main')).toContain('asks the provider to revoke them');
    await page.click('#confirm-disconnect');
    await page.waitForURL(/\/dashboard\/connections\//);
    expect(await page.locator('tr', { hasText: 'dash-user' }).locator('[data-status]').textContent()).toBe('DISCONNECTED');
  }, 60_000);

  it('refuses a form posted without the session CSRF value', async () => {
    const cookies = await context.cookies(`${h.url}/dashboard/`);
    const session = cookies.find((c) => c.name === 'ac_session');
    expect(session).toBeDefined();
    const res = await fetch(`${h.url}/dashboard/connections`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ac_session=${session?.value}` },
      body: new URLSearchParams({ name: 'csrf', connector: 'crm', client_id: 'x', client_secret: 'y' }).toString(),
    });
    expect(res.status).toBe(401);
    const list = await h.call('GET', '/api/v1/connections', { token: await h.token(h.a) });
    expect(list.body.connections.map((c: { name: string }) => c.name)).not.toContain('csrf');
  });
});
