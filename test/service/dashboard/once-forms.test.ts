/**
 * Reloading the page a form answered sends the form again; in a real headless Chromium, the dashboard's forms that
 * make something (a webhook endpoint, a secret rotation, an authorization link, a tool run) do it once: the reload answers a page
 * saying it was already done, with the endpoint or the link it made, never the secret. A new page's form is a new
 * send. A form without its token is refused, and a send whose work failed may be sent again. With two instances on one
 * PostgreSQL (from `DATABASE_URL`), a form sent again to the other instance is answered as sent again there too.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_DELAY_MS } from '../../../runtime/executions/execution-tracker.js';
import { openStore } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { keyring1 } from '../../runtime/store/fixtures.js';
import { newPostgresDatabase, type TestDatabase } from '../../runtime/store/harness.js';
import { postgresSuite } from '../../server-suites.js';
import { startHarness, type Harness } from '../harness.js';
import { BROWSER_TESTS, crmUser, dashboardSuite, launchDashboardBrowser, signIn, type DashboardBrowser } from './browser.js';

const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 } });

/** A page of the suite's browser, signed in (its profile keeps the session of an earlier test). */
async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.goto(`${suite.h.url}/dashboard`);
  if (page.url().endsWith('/dashboard/login')) await signIn(page, suite.h);
  return page;
}

describe.runIf(BROWSER_TESTS)('dashboard one-time forms in Chromium', () => {
  it('a reload after creating an endpoint or rotating its secret does neither again, and shows no secret', async () => {
    const token = await suite.h.token(suite.h.a);
    const endpoints = async () => (await suite.h.call('GET', '/api/v1/webhook_endpoints', { token })).body.webhook_endpoints as { id: string; url: string; previous_secret_expires_at: string | null }[];
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.fill('#url', 'https://hooks.example.com/once');
    await page.click('text=Create endpoint');
    const secret = (await page.textContent('#webhook-secret')) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await endpoints()).toHaveLength(1);

    // The browser sends the same POST again.
    await page.reload();
    expect(await page.textContent('h1')).toBe('Webhook endpoint already created');
    const again = (await page.textContent('#sent-again')) ?? '';
    expect(again).toContain('no second endpoint was created');
    expect(await page.textContent('main')).toContain('https://hooks.example.com/once');
    expect(await page.textContent('main')).toContain((await endpoints())[0]!.id);
    expect(await page.$('#webhook-secret')).toBeNull();
    expect(await page.content()).not.toContain(secret);
    expect(await endpoints()).toHaveLength(1);

    // The form on a new page is a new send.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    await page.fill('#url', 'https://hooks.example.com/once');
    await page.click('text=Create endpoint');
    expect(await page.textContent('#webhook-secret')).toMatch(/^whsec_/);
    expect(await endpoints()).toHaveLength(2);

    // Rotate, then reload: rotated once; the overlap it began stands.
    const [first] = await endpoints();
    await page.goto(`${suite.h.url}/dashboard/webhooks/${first!.id}/rotate`);
    await page.click('#confirm-rotate');
    const rotated = (await page.textContent('#webhook-secret')) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    const overlap = (await endpoints()).find((e) => e.id === first!.id)!.previous_secret_expires_at;
    expect(overlap).not.toBeNull();
    await page.waitForTimeout(20);
    await page.reload();
    expect(await page.textContent('h1')).toBe('Secret already rotated');
    expect(await page.textContent('#sent-again')).toContain('the secret was not rotated again');
    expect(await page.textContent('main')).toContain(overlap!);
    expect(await page.content()).not.toContain(rotated);
    expect((await endpoints()).find((e) => e.id === first!.id)!.previous_secret_expires_at).toBe(overlap);
  }, 60_000);

  it('a reload after making an authorization link shows that link again and makes no second one', async () => {
    const connection = await suite.h.sandboxConnection(suite.h.a, 'crm', 'once-crm');
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/connections/${connection.id}`);
    await page.fill('#identifier', 'once-user');
    await page.click('text=Create link');
    const link = await page.getAttribute('#auth-link', 'href');
    expect(link).toMatch(/\/sso\/v1\/connect\//);
    expect(await page.$('#link-sent-again')).toBeNull();

    await page.reload();
    expect(await page.textContent('#link-sent-again')).toContain('no second link was made');
    expect(await page.getAttribute('#auth-link', 'href')).toBe(link);

    // The page's own form makes a new link.
    await page.click('text=Create link');
    const next = await page.getAttribute('#auth-link', 'href');
    expect(next).toMatch(/\/sso\/v1\/connect\//);
    expect(next).not.toBe(link);
    expect(await page.$('#link-sent-again')).toBeNull();
  }, 60_000);

  it('a reload after running a tool in the explorer does not run it again (a second contact)', async () => {
    const { token } = await crmUser(suite.h, 'once-runner', 'once-runner@example.com');
    const runs = async () => (await suite.h.call('GET', '/api/v1/executions?tool=crm_contact_create', { token })).body.executions as { id: string }[];
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contact_create`);
    await page.fill('#run-identifier', 'once-runner');
    await page.fill('#field-email', 'once-contact@example.com');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-result')).toContain('once-contact@example.com');
    // The history is written in the background (batched), so the record may land a moment after the answer.
    await expect.poll(runs).toHaveLength(1);
    const [run] = await runs();

    await page.reload();
    expect(await page.textContent('#tool-sent-again')).toContain('It was not run again');
    expect(await page.getAttribute('#tool-sent-again a', 'href')).toBe(`/dashboard/executions/${run!.id}`);
    expect(await page.$('#tool-result')).toBeNull();
    // A second run would be recorded within the history's batch delay: wait past it before counting.
    await new Promise((resolve) => setTimeout(resolve, BATCH_DELAY_MS * 4));
    expect(await runs()).toHaveLength(1);
    // Run on the page is a new send.
    await page.fill('#field-email', 'once-contact-2@example.com');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-result')).toContain('once-contact-2@example.com');
    await expect.poll(runs).toHaveLength(2);
  }, 60_000);

  it('refuses a form without its token, and lets a form whose send failed be sent again', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    const before = (await suite.h.call('GET', '/api/v1/webhook_endpoints', { token: await suite.h.token(suite.h.a) })).body.webhook_endpoints.length;
    // A page from before the token (or a form put together elsewhere): refused, nothing made.
    await page.evaluate('document.querySelector("input[name=_once]").remove()');
    await page.fill('#url', 'https://hooks.example.com/untokened');
    await page.click('text=Create endpoint');
    expect(await page.textContent('[role=alert]')).toContain('reload the page');
    expect((await suite.h.call('GET', '/api/v1/webhook_endpoints', { token: await suite.h.token(suite.h.a) })).body.webhook_endpoints).toHaveLength(before);

    // Refused by the URL policy, then the very same form corrected: the failed send held nothing back.
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    const formToken = await page.getAttribute('input[name=_once]', 'value');
    await page.fill('#url', 'http://169.254.169.254/latest/meta-data');
    await page.click('text=Create endpoint');
    expect(await page.textContent('[role=alert]')).toContain('link-local');
    await page.evaluate(`document.querySelector("input[name=_once]").value = ${JSON.stringify(formToken)}`);
    await page.fill('#url', 'http://169.254.169.254/latest/meta-data');
    await page.click('text=Create endpoint');
    expect(await page.textContent('[role=alert]')).toContain('link-local');
    await page.evaluate(`document.querySelector("input[name=_once]").value = ${JSON.stringify(formToken)}`);
    await page.fill('#url', 'https://hooks.example.com/corrected');
    await page.click('text=Create endpoint');
    expect(await page.textContent('#webhook-secret')).toMatch(/^whsec_/);
  }, 60_000);
});

postgresSuite('dashboard one-time forms across two instances on one PostgreSQL, in Chromium', (databaseUrl) => {
  let db: TestDatabase | undefined;
  const stores: Store[] = [];
  const harnesses: Harness[] = [];
  let browser: DashboardBrowser | undefined;

  beforeAll(async () => {
    db = await newPostgresDatabase(databaseUrl);
    // Two services on one database with one signing key: a session made on one is good on the other.
    const signingKey = new Uint8Array(randomBytes(32));
    for (let i = 0; i < 2; i++) {
      stores.push(await openStore({ ...db.options, keyring: keyring1 }));
      harnesses.push(await startHarness({ store: stores[i]!, signingKey }));
    }
    browser = await launchDashboardBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const h of harnesses) await h.close();
    for (const s of stores) await s.close();
    await db?.destroy();
  });

  it.runIf(BROWSER_TESTS)('the form sent again to the other instance finds the first send there', async () => {
    const [one, other] = harnesses as [Harness, Harness];
    const page = await browser!.context.newPage();
    await signIn(page, one);
    await page.goto(`${one.url}/dashboard/webhooks`);
    const formToken = await page.getAttribute('input[name=_once]', 'value');
    await page.fill('#url', 'https://hooks.example.com/two-instances');
    await page.click('text=Create endpoint');
    expect(await page.textContent('#webhook-secret')).toMatch(/^whsec_/);

    // The same form, as a load balancer would send it again, to the other instance (the cookie is the host's).
    await page.goto(`${other.url}/dashboard/webhooks`);
    await page.evaluate(`document.querySelector("input[name=_once]").value = ${JSON.stringify(formToken)}`);
    await page.fill('#url', 'https://hooks.example.com/two-instances');
    await page.click('text=Create endpoint');
    expect(await page.textContent('h1')).toBe('Webhook endpoint already created');
    expect(await page.$('#webhook-secret')).toBeNull();
    expect((await one.call('GET', '/api/v1/webhook_endpoints', { token: await one.token(one.a) })).body.webhook_endpoints).toHaveLength(1);
  }, 60_000);
});
