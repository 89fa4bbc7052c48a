/**
 * What the dashboard shows when something goes wrong, in a real headless Chromium at 390 px: a failed form keeps what
 * the user typed and checked, and its error is said once, beside the form it is about, and again at each field it
 * names (aria-invalid, aria-describedby); an empty filtered list says it
 * is filtered; a done disconnect says so; an error page keeps the signed-in header; a tool named in the address that
 * does not exist is named; a session that ended sends the user to sign-in saying so.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectSandboxUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

/** A page of the suite's browser, signed in (the browser keeps the session between tests; a test may end it). */
async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.goto(`${suite.h.url}/dashboard`);
  if (page.url().startsWith(`${suite.h.url}/dashboard/login`)) await signIn(page, suite.h);
  return page;
}

/** How many times `part` occurs in `text`. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.runIf(BROWSER_TESTS)('dashboard form errors and notices in Chromium', () => {
  it("keeps a failed connection edit's input and says each problem once", async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'calendar', 'kept');
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.fill('#name', 'not a valid name');
    await page.fill('#scopes', 'scope.one scope.two');
    await page.fill('#allowed_redirect_urls', 'https://app.example.com/done');
    await page.click('button:has-text("Save")');
    const alert = (await page.textContent('[role=alert]')) ?? '';
    expect(alert).toContain('name must be');
    expect(occurrences(alert, 'name must be')).toBe(1);
    expect(await page.inputValue('#name')).toBe('not a valid name');
    expect(await page.inputValue('#scopes')).toBe('scope.one scope.two');
    expect(await page.inputValue('#allowed_redirect_urls')).toBe('https://app.example.com/done');
    expect(await page.inputValue('#override-api')).toBe(connection.overrides.apiBaseUrl);
    // Nothing was saved.
    const stored = (await suite.h.call('GET', `/api/v1/connections/${connection.id}`, { token: await suite.h.token(suite.h.a) })).body;
    expect(stored.name).toBe('kept');
    expect(stored.allowed_redirect_urls).toEqual([]);
  }, 60_000);

  it('says each refused field of a new connection at that field, with the summary above the form', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/connections/new`);
    await page.fill('#name', 'not a valid name');
    await page.fill('#client_id', 'the-client');
    await page.fill('#client_secret', 'the-secret');
    await page.fill('#scopes', 'one "two"');
    await page.click('button:has-text("Create connection")');
    const summary = (await page.textContent('[role=alert]')) ?? '';
    expect(summary).toContain('name must be');
    expect(summary).toContain('scopes must be');
    for (const [field, says] of [['name', 'name must be'], ['scopes', 'scopes must be']] as const) {
      expect(await page.getAttribute(`#${field}`, 'aria-invalid')).toBe('true');
      const described = await page.getAttribute(`#${field}`, 'aria-describedby');
      expect(described).toBe(`${field}-error`);
      const message = (await page.textContent(`#${described}`)) ?? '';
      expect(message).toContain(says);
      expect(summary).toContain(message);
    }
    // The fields that were fine are not marked, and say nothing.
    for (const field of ['client_id', 'client_secret', 'connector']) {
      expect(await page.getAttribute(`#${field}`, 'aria-invalid')).toBeNull();
      expect(await page.$(`#${field}-error`)).toBeNull();
    }
    expect(await page.textContent('#name-error')).not.toContain('scopes');

    // A name another connection has: the service's conflict, at the name.
    await suite.h.sandboxConnection(suite.h.a, 'sheets', 'taken');
    await page.fill('#name', 'taken');
    await page.fill('#scopes', '');
    await page.fill('#client_secret', 'the-secret');
    await page.click('button:has-text("Create connection")');
    expect(await page.textContent('#name-error')).toContain('already used');
    expect(await page.getAttribute('#scopes', 'aria-invalid')).toBeNull();

    // A system that is none of the five (a form from an older version): the service's message, at the select.
    await page.fill('#name', 'fresh');
    await page.fill('#client_secret', 'the-secret');
    await page.evaluate("const s = document.querySelector('#connector'); s.add(new Option('mail', 'mail')); s.value = 'mail';");
    await page.click('button:has-text("Create connection")');
    expect(await page.textContent('#connector-error')).toContain('connector must be one of');
    expect(await page.getAttribute('#connector', 'aria-invalid')).toBe('true');
  }, 60_000);

  it("says a refused endpoint override of a connection's edit at that override", async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'crm', 'overridden');
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.fill('#override-token', 'ftp://tokens.example.com/token');
    await page.fill('#allowed_redirect_urls', 'not-a-url');
    await page.click('button:has-text("Save")');
    expect(await page.textContent('[role=alert]')).toContain('overrides.tokenUrl');
    expect(await page.getAttribute('#override-token', 'aria-invalid')).toBe('true');
    expect(await page.textContent(`#${await page.getAttribute('#override-token', 'aria-describedby')}`)).toContain('overrides.tokenUrl must be');
    expect(await page.textContent(`#${await page.getAttribute('#allowed_redirect_urls', 'aria-describedby')}`)).toContain('allowed_redirect_urls must be');
    expect(await page.getAttribute('#override-api', 'aria-invalid')).toBeNull();
    expect(await page.getAttribute('#name', 'aria-invalid')).toBeNull();
  }, 60_000);

  it("shows a refused authorization link's error in the link's card, with the identifier kept", async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'crm', 'linked');
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    const tooLong = 'u'.repeat(300);
    await page.fill('#identifier', tooLong);
    await page.click('button:has-text("Create link")');
    const error = (await page.textContent('#link-error')) ?? '';
    expect(error).toContain('identifier must be');
    expect(occurrences(error, 'identifier must be')).toBe(1);
    expect(await page.getAttribute('#identifier', 'aria-describedby')).toBe('link-error');
    expect(await page.inputValue('#identifier')).toBe(tooLong);
    // One alert on the page: the link card's, not one above the connection's edit form too.
    expect(await page.locator('[role=alert]').count()).toBe(1);
  }, 60_000);

  it('keeps the URL and the checked events of a refused webhook endpoint, with the error in its form', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.fill('#url', 'http://169.254.169.254/hook');
    await page.check('input[value="account.expired"]');
    await page.click('text=Create endpoint');
    const error = (await page.textContent('#create-error')) ?? '';
    expect(error).toContain('link-local');
    expect(occurrences(error, 'link-local')).toBe(1);
    expect(await page.inputValue('#url')).toBe('http://169.254.169.254/hook');
    expect(await page.isChecked('input[value="account.expired"]')).toBe(true);
    expect(await page.isChecked('input[value="account.connected"]')).toBe(false);
    expect((await suite.h.call('GET', '/api/v1/webhook_endpoints', { token: await suite.h.token(suite.h.a) })).body.webhook_endpoints).toEqual([]);
  }, 60_000);

  it('says a filter matched nothing, and confirms a disconnect', async () => {
    const { connection } = await connectSandboxUser(suite.h, { connector: 'docs', connection: 'notices', identifier: 'leaving-user', user: 'leaving@example.com' });
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard?identifier=nobody-by-this-name`);
    expect(await page.textContent('main')).toContain('No connected accounts match these filters.');

    await page.goto(`${suite.h.url}/dashboard?identifier=leaving-user`);
    await page.click('[data-disconnect]');
    await page.click('#confirm-disconnect');
    await page.waitForURL(new RegExp(`/dashboard/connections/${connection.id}\\?disconnected=ca_`));
    expect(await page.textContent('[role=status]')).toContain('leaving-user disconnected');
    expect(page.url()).not.toContain('leaving-user');
    expect(await page.locator('tr', { hasText: 'leaving-user' }).locator('[data-status]').textContent()).toBe('DISCONNECTED');
  }, 60_000);

  it('keeps the header on an error page, and names a tool that does not exist', async () => {
    const page = await signedInPage();
    const missing = await page.goto(`${suite.h.url}/dashboard/connections/conn_doesnotexist`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('[role=alert]')).toContain('conn_doesnotexist');
    expect(await page.isVisible('header >> text=Sign out')).toBe(true);
    expect(await page.isVisible('header >> text=Executions')).toBe(true);

    await page.goto(`${suite.h.url}/dashboard/tools?tool=calendar_no_such_tool`);
    expect(await page.textContent('[role=alert]')).toContain('No tool "calendar_no_such_tool"');
  }, 60_000);

  it('says the session ended when it did, and that a form sent after it was not saved', async () => {
    const page = await signedInPage();
    const context = page.context();
    const cookies = await context.cookies();
    await page.click('header >> text=Sign out');
    await page.waitForURL(`${suite.h.url}/dashboard/login`);
    expect(await page.locator('[role=status]').count()).toBe(0);

    // The old cookie, signed out: a page asks for sign-in again and says why.
    await context.addCookies(cookies);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.waitForURL(`${suite.h.url}/dashboard/login?ended=1`);
    expect(await page.textContent('[role=status]')).toContain('Your session has ended');

    // A form open when the session ends (the browser dropped the cookie): sent, it is not saved, and the page says so.
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await context.clearCookies();
    await page.fill('#url', 'https://app.example.com/hook');
    await page.click('text=Create endpoint');
    await page.waitForURL(`${suite.h.url}/dashboard/login?ended=form`);
    expect(await page.textContent('[role=status]')).toContain('The form you sent was not saved');
    expect((await suite.h.call('GET', '/api/v1/webhook_endpoints', { token: await suite.h.token(suite.h.a) })).body.webhook_endpoints).toEqual([]);
  }, 60_000);
});
