/**
 * The dashboard's accessibility, in a real headless Chromium at 390 px. axe-core, the standard rule engine, checks
 * every page an operator uses against WCAG 2.1 A and AA (connections, a connection's detail and edit form, a new
 * connection, accounts, executions, the tool explorer, webhooks, sign-in, error pages, the forms with their errors
 * shown and sent again, and the lists long enough to page), and the end user's authorization pages beside them. On the
 * same pages, every pointer target is measured against WCAG 2.2's Target Size (Minimum), 2.5.8, level AA
 * (target-size.ts): at least 24 by 24 CSS px, or spaced as the criterion allows. Then the keyboard: a form filled and
 * sent with the keyboard alone, and every control Tab reaches showing that it has focus, in a colour that stands out
 * from the background behind it.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TESTS, connectSandboxUser, crmUser, dashboardSuite, signIn, suiteReceiver } from './browser.js';
import { targetSizes } from './target-size.js';

// Input capture on: an execution's page shows its recorded input.
const suite = dashboardSuite({ webhooks: { pollIntervalMs: 60_000 }, executions: { captureInputs: true } });
const receiver = suiteReceiver();

/**
 * The rules run: WCAG 2.1 levels A and AA, as axe tags them, and axe's best practices, where it keeps the rules on
 * landmarks, heading order, a page's one h1 and empty table headers (no WCAG criterion fails them alone, yet a screen
 * reader user navigates by them).
 */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Rules axe reports on these pages that are not ours to fix, by rule id, each with the reason. None today: a rule
 * goes here only with a reason the page cannot meet it, never to make the test pass.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

/**
 * Targets under 24 by 24 px that the measure excuses as inline (a link in a sentence, WCAG 2.5.8's Inline exception),
 * matched on the measure's line for them, each with the reason it is in running text. None today: every link is a box
 * at least 24 px high and wide (the layout's stylesheet), so no target on these pages needs the exception. A link that
 * does (one in a sentence, on a line close to another target) goes here with its reason, never to make the test pass.
 */
const INLINE_ALLOWED: readonly { match: RegExp; reason: string }[] = [];

/**
 * Pointer targets on the page now that fail WCAG 2.5.8 (at least 24 by 24 CSS px, or spaced so that 24 px circles
 * centred on them meet no other target), one line each (`element "text" W×H: why`), and targets excused as inline
 * that {@link INLINE_ALLOWED} does not name.
 */
async function undersizedTargets(page: Page): Promise<string[]> {
  const { failures, inline } = await targetSizes(page);
  return [...failures, ...inline.filter((line) => !INLINE_ALLOWED.some((a) => a.match.test(line))).map((line) => `inline, not allowed: ${line}`)];
}

/**
 * What axe finds on the page as it is now, one line per rule and element (`rule (impact): selector: why`). Its source
 * goes in by the DevTools protocol, not as a <script>: the dashboard's CSP allows no script, and the test must not
 * loosen it.
 */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const options = { runOnly: { type: 'tag', values: RULE_TAGS }, resultTypes: ['violations'] };
  const results = await page.evaluate<axe.AxeResults>(`axe.run(document, ${JSON.stringify(options)})`);
  return results.violations
    .filter((v) => !(v.id in ALLOWED))
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`));
}

/**
 * Checks the page the browser shows now, with axe and the target-size measure; `what` names it in a failure. Soft: one
 * test reports all its pages. At the suite's 390 px and again at a desktop's width: at 390 px the wide tables scroll in
 * their own box, and axe cannot tell the contrast of what is scrolled out of it; the header's links wrap at 390 px and
 * not at 1280, so the targets near each other differ.
 */
async function audit(page: Page, what: string): Promise<void> {
  expect.soft(await violations(page), `${what} at 390 px`).toEqual([]);
  expect.soft(await undersizedTargets(page), `${what} at 390 px: targets under 24 by 24 px (WCAG 2.5.8)`).toEqual([]);
  const narrow = page.viewportSize()!;
  await page.setViewportSize({ width: 1280, height: 900 });
  expect.soft(await violations(page), `${what} at 1280 px`).toEqual([]);
  expect.soft(await undersizedTargets(page), `${what} at 1280 px: targets under 24 by 24 px (WCAG 2.5.8)`).toEqual([]);
  await page.setViewportSize(narrow);
}

/**
 * The focused element (tag, id or name or text) and why it does not show its focus, or `ok`. Shown means an outline
 * at least 2 CSS px thick, in a colour with 3:1 contrast to the background around it: WCAG's measures for a focus
 * indicator (2.4.13's 2 px, 1.4.11's 3:1); a thin ring in the browser's own colour is easily lost on the dark
 * header. A string, evaluated in the page: the project's TypeScript has no DOM library.
 */
const FOCUS_SHOWN = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : el.getAttribute('name') ? '[name=' + el.getAttribute('name') + ']' : ' "' + (el.textContent || '').trim().slice(0, 30) + '"');
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let behind = [255, 255, 255];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const c = rgb(getComputedStyle(p).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) { behind = c.slice(0, 3); break; }
  }
  const style = getComputedStyle(el);
  const width = parseFloat(style.outlineWidth);
  const [l1, l2] = [luminance(rgb(style.outlineColor).slice(0, 3)), luminance(behind)];
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  if (style.outlineStyle === 'none' || width < 2) return what + ': outline ' + style.outlineStyle + ' ' + style.outlineWidth;
  if (ratio < 3) return what + ': outline contrast ' + ratio.toFixed(2) + ' (' + style.outlineColor + ' on rgb(' + behind.join(', ') + '))';
  return 'ok';
})()`;

/**
 * Tabs through the whole page from its top, and answers each control that got focus without showing it (empty: every
 * one showed it). Stops when focus leaves the page or comes back to a control it had.
 */
async function focusNotShown(page: Page): Promise<string[]> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < 200; stop++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate<string>(`(() => { const el = document.activeElement; return el && el !== document.body ? [...document.querySelectorAll('*')].indexOf(el) + '' : ''; })()`);
    if (at === '' || seen.has(at)) return missing;
    seen.add(at);
    const shown = await page.evaluate<string>(FOCUS_SHOWN);
    if (shown !== 'ok') missing.push(shown);
  }
  throw new Error('Tab never left the page');
}

/** Presses Tab until the control `selector` has focus, as a keyboard user would reach it. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let stop = 0; stop < 60; stop++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`document.activeElement.matches(${JSON.stringify(selector)})`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** A page of the suite's browser, signed in afresh (the browser's pages share one cookie jar). */
async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.context().clearCookies();
  await signIn(page, suite.h);
  return page;
}

/** What the suite's pages show: a crm connection with an ACTIVE, an EXPIRED and a PENDING_AUTH account, executions, a webhook endpoint with a delivery. */
const fixture = { connectionId: '', executionId: '', failedExecutionId: '', endpointId: '', deliveryId: '', pendingLink: '' };

beforeAll(async () => {
  const h = suite.h;
  const token = await h.token(h.a);
  const endpoint = await h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: receiver.url } });
  fixture.endpointId = endpoint.body.id;
  const { connection } = await crmUser(h, 'a11y-user', 'a11y@example.com');
  fixture.connectionId = connection.id;
  await connectSandboxUser(h, { connection: 'crm', identifier: 'a11y-expired', user: 'expired@example.com' });
  h.sandbox.control.revokeRefreshTokens('hubspot', 'expired@example.com');
  h.sandbox.control.expireAccessTokens('hubspot', 'expired@example.com');
  const refused = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'a11y-expired', tool_input: {} } });
  if (refused.body.error?.code !== 'reauthorization_required') throw new Error(`a11y-expired did not expire: ${JSON.stringify(refused.body)}`);
  fixture.failedExecutionId = refused.body.error.execution_id;
  const pending = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm', identifier: 'a11y-pending' } });
  fixture.pendingLink = pending.body.link;
  const created = await h.call('POST', '/api/v1/execute_tool', {
    token,
    body: { tool_name: 'crm_contact_create', identifier: 'a11y-user', tool_input: { email: 'ada@example.com', firstname: 'Ada' } },
  });
  fixture.executionId = created.body.execution_id;
  // The history is written in the background (batched): wait for the records.
  for (const id of [fixture.executionId, fixture.failedExecutionId]) {
    await vi.waitFor(async () => expect((await h.call('GET', `/api/v1/executions/${id}`, { token })).status).toBe(200), { timeout: 10_000 });
  }
  await h.app.webhookDispatcher!.runOnce();
  const deliveries = await h.call('GET', '/api/v1/webhook_deliveries', { token });
  fixture.deliveryId = deliveries.body.webhook_deliveries[0].id;
}, 60_000);

describe.runIf(BROWSER_TESTS)('dashboard accessibility (axe-core, WCAG 2.1 AA; WCAG 2.2 target size) in Chromium', () => {
  it('sign-in: the form, a refused sign-in, a session that ended', async () => {
    const page = await suite.newPage();
    await page.context().clearCookies();
    await page.goto(`${suite.h.url}/dashboard/login`);
    await audit(page, 'sign-in');
    await page.fill('#client_id', suite.h.a.clientId);
    await page.fill('#client_secret', 'wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('wrong secret');
    await audit(page, 'refused sign-in');
    await page.goto(`${suite.h.url}/dashboard/login?ended=form`);
    await audit(page, 'session ended');
  }, 60_000);

  it('connections and connected accounts, filtered and not', async () => {
    const page = await signedInPage();
    expect(await page.locator('[data-new-link]').count()).toBe(1);
    // Each row's actions say whom they are for to a screen reader, not only the row around them.
    expect(await page.getByRole('link', { name: 'Disconnect… a11y-user', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'New authorization link for a11y-expired', exact: true }).count()).toBe(1);
    await audit(page, 'connections');
    await page.goto(`${suite.h.url}/dashboard?identifier=nobody`);
    await audit(page, 'accounts filtered to none');
  }, 60_000);

  it("a connection's detail and edit form, its errors, a link made and refused; new connection with its errors", async () => {
    const page = await signedInPage();
    const url = `${suite.h.url}/dashboard/connections/${fixture.connectionId}`;
    await page.goto(`${url}?created=1`);
    await audit(page, 'connection');
    await page.fill('#name', 'not a valid name');
    await page.fill('#override-token', 'ftp://tokens.example.com/token');
    await page.click('button:has-text("Save")');
    expect(await page.getAttribute('#name', 'aria-invalid')).toBe('true');
    await audit(page, 'connection edit refused');
    await page.goto(url);
    await page.fill('#identifier', 'a11y-new');
    await page.click('button:has-text("Create link")');
    await page.waitForSelector('#auth-link');
    await audit(page, 'authorization link made');
    // A reload sends the form again: the page says the link was already made.
    await page.reload();
    await page.waitForSelector('#link-sent-again');
    await audit(page, 'authorization link sent again');
    await page.goto(url);
    await page.fill('#identifier', 'u'.repeat(300));
    await page.click('button:has-text("Create link")');
    await page.waitForSelector('#link-error');
    await audit(page, 'authorization link refused');

    await page.goto(`${suite.h.url}/dashboard/connections/new`);
    await audit(page, 'new connection');
    await page.fill('#name', 'not a valid name');
    await page.fill('#client_id', 'the-client');
    await page.fill('#client_secret', 'the-secret');
    await page.fill('#scopes', 'one "two"');
    await page.click('button:has-text("Create connection")');
    expect(await page.getAttribute('#scopes', 'aria-invalid')).toBe('true');
    await audit(page, 'new connection refused');
  }, 60_000);

  it('the confirmations: disconnect an account, delete a connection', async () => {
    const page = await signedInPage();
    await page.locator('tr', { hasText: 'a11y-user' }).locator('[data-disconnect]').click();
    await page.waitForURL(/\/disconnect$/);
    await audit(page, 'disconnect account');
    await page.goto(`${suite.h.url}/dashboard/connections/${fixture.connectionId}/delete`);
    await audit(page, 'delete connection');
  }, 60_000);

  it('executions: the list, filtered, one succeeded and one failed, one not found', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/executions`);
    await audit(page, 'executions');
    await page.goto(`${suite.h.url}/dashboard/executions?outcome=error&identifier=nobody`);
    await audit(page, 'executions filtered to none');
    await page.goto(`${suite.h.url}/dashboard/executions/${fixture.executionId}`);
    expect(await page.textContent('pre#execution-input')).toContain('ada@example.com');
    await audit(page, 'execution');
    await page.goto(`${suite.h.url}/dashboard/executions/${fixture.failedExecutionId}`);
    expect(await page.textContent('#execution-outcome')).toBe('error');
    await audit(page, 'failed execution');
    await page.goto(`${suite.h.url}/dashboard/executions/0196a1b2-0000-7000-8000-00000000dead`);
    await audit(page, 'execution not found');
  }, 60_000);

  it('the tool explorer: the picker, forms of every kind of field, their violations, a result', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/tools`);
    await audit(page, 'tool picker');
    // Text, select (an enum) fields; then a refused input, each violation at its field.
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contact_create`);
    await audit(page, 'tool form');
    await page.selectOption('#run-connection', 'crm');
    await page.fill('#run-identifier', 'a11y-user');
    await page.fill('#field-email', 'not-an-email');
    await page.click('#run-tool');
    expect(await page.getAttribute('#field-email', 'aria-invalid')).toBe('true');
    await audit(page, 'tool input refused');
    // Number, checkbox and JSON fields; a field the form cannot read; then a result.
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contacts_search`);
    await page.fill('#run-identifier', 'a11y-user');
    await page.fill('#field-limit', 'ten');
    await page.fill('#field-filterGroups', '[{"x": 1}]');
    await page.click('#run-tool');
    expect(await page.getAttribute('#field-limit', 'aria-invalid')).toBe('true');
    await audit(page, 'tool fields unreadable');
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contacts_list`);
    await page.fill('#run-identifier', 'a11y-user');
    await page.check('#field-archived');
    await page.click('#run-tool');
    await page.waitForSelector('#tool-result');
    await audit(page, 'tool result');
    await page.reload();
    await page.waitForSelector('#tool-sent-again');
    await audit(page, 'tool run sent again');
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_no_such_tool`);
    await audit(page, 'unknown tool');
  }, 60_000);

  it('webhooks: endpoints and deliveries, a refused endpoint, a secret shown, rotate and delete, one delivery', async () => {
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/webhooks`);
    expect(await page.locator('#webhook-deliveries tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: `Rotate secret… of ${receiver.url}`, exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: `Delete… ${receiver.url}`, exact: true }).count()).toBe(1);
    await audit(page, 'webhooks');
    await page.fill('#url', 'http://169.254.169.254/hook');
    await page.click('text=Create endpoint');
    await page.waitForSelector('#create-error');
    await audit(page, 'webhook endpoint refused');
    await page.fill('#url', 'https://app.example.com/hooks/a11y');
    await page.click('text=Create endpoint');
    await page.waitForSelector('#webhook-secret');
    await audit(page, 'webhook secret shown');
    await page.reload();
    await page.waitForSelector('#sent-again');
    await audit(page, 'webhook endpoint sent again');
    await page.goto(`${suite.h.url}/dashboard/webhooks/${fixture.endpointId}/rotate`);
    await audit(page, 'rotate secret');
    await page.click('#confirm-rotate');
    await page.waitForSelector('#webhook-secret');
    await audit(page, 'secret rotated');
    await page.reload();
    await page.waitForSelector('#sent-again');
    await audit(page, 'rotation sent again');
    await page.goto(`${suite.h.url}/dashboard/webhooks/${fixture.endpointId}/delete`);
    await audit(page, 'delete endpoint');
    await page.goto(`${suite.h.url}/dashboard/webhooks/deliveries/${fixture.deliveryId}`);
    await audit(page, 'delivery');
  }, 60_000);

  it('error pages: a page the dashboard does not have, a record that does not exist', async () => {
    const page = await signedInPage();
    expect((await page.goto(`${suite.h.url}/dashboard/no-such-page`))?.status()).toBe(404);
    await audit(page, 'not found');
    expect((await page.goto(`${suite.h.url}/dashboard/connections/conn_doesnotexist`))?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Not found');
    await audit(page, 'error page');
  }, 60_000);

  it("the end user's pages: an authorization link's Continue page, a link that is no good", async () => {
    const page = await suite.newPage();
    await page.goto(fixture.pendingLink);
    await audit(page, 'continue');
    await page.goto(`${suite.h.url}/sso/v1/connect/not-a-link`);
    await audit(page, 'link refused');
  }, 60_000);

  it('signs in and creates a connection with the keyboard alone', async () => {
    const page = await suite.newPage();
    await page.context().clearCookies();
    await page.goto(`${suite.h.url}/dashboard/login`);
    await tabTo(page, '#client_id');
    await page.keyboard.type(suite.h.a.clientId);
    await page.keyboard.press('Tab');
    await page.keyboard.type(suite.h.a.clientSecret);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.h.url}/dashboard`);
    // The first Tab stop skips the header's links (WCAG 2.4.1), and the header's links are a named navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('main');
    expect(await page.locator('nav[aria-label="Dashboard"] a').count()).toBe(4);

    await tabTo(page, 'a[href="/dashboard/connections/new"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.h.url}/dashboard/connections/new`);
    await tabTo(page, '#name');
    await page.keyboard.type('keyboard-sheets');
    await page.keyboard.press('Tab');
    // A closed select takes the first letters of an option.
    await page.keyboard.type('sh');
    expect(await page.inputValue('#connector')).toBe('sheets');
    await tabTo(page, '#client_id');
    await page.keyboard.type('keyboard-client');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard-secret');
    await tabTo(page, '#use_sandbox');
    await page.keyboard.press('Space');
    await tabTo(page, 'button[type=submit]:not(header button)');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/connections\/conn_[^/]+\?created=sandbox$/);
    expect(await page.textContent('h1')).toContain('keyboard-sheets');
    expect(await page.textContent('[role=status]')).toContain('local sandbox');
  }, 60_000);

  it('shows which control has focus, on every control Tab reaches', async () => {
    const page = await suite.newPage();
    await page.context().clearCookies();
    await page.goto(`${suite.h.url}/dashboard/login`);
    expect.soft(await focusNotShown(page), 'sign-in').toEqual([]);
    await signIn(page, suite.h);
    for (const path of ['/dashboard', `/dashboard/connections/${fixture.connectionId}`, '/dashboard/connections/new', '/dashboard/tools?tool=crm_contacts_list', '/dashboard/executions', '/dashboard/webhooks']) {
      await page.goto(`${suite.h.url}${path}`);
      expect.soft(await focusNotShown(page), path).toEqual([]);
    }
  }, 60_000);

  // Last: it adds accounts, calls and events that the tests above do not expect.
  it('lists longer than a page: accounts, a connection\'s accounts, executions and deliveries, with their pager links', async () => {
    const h = suite.h;
    const token = await h.token(h.a);
    // One page is 25 rows in each list: 26 more accounts, 51 more calls and events make two or three pages.
    for (let i = 0; i < 26; i++) {
      await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'crm', identifier: `a11y-paged-${String(i).padStart(2, '0')}` } });
    }
    for (let i = 0; i < 51; i++) {
      await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'a11y-user', tool_input: {} } });
    }
    const account = await h.connector.store.ensureAccount(h.a.environmentId, fixture.connectionId, 'a11y-events');
    for (let i = 0; i < 51; i++) await h.connector.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: `t${i}` } });
    await vi.waitFor(async () => expect((await h.call('GET', '/api/v1/executions?limit=200&identifier=a11y-user', { token })).body.executions.length).toBeGreaterThan(51), { timeout: 10_000 });

    const page = await signedInPage();
    expect(await page.locator('#accounts-next').count()).toBe(1);
    await audit(page, 'accounts, first page');
    await page.click('#accounts-next');
    await page.waitForSelector('#accounts-previous');
    await audit(page, 'accounts, second page');
    await page.goto(`${h.url}/dashboard/connections/${fixture.connectionId}`);
    expect(await page.locator('#connection-accounts-all').count()).toBe(1);
    await audit(page, 'connection with more accounts than a page');

    for (const list of [
      { path: '/dashboard/executions', older: '#executions-next', newer: '#executions-newer', newest: '#executions-newest', name: 'executions' },
      { path: '/dashboard/webhooks', older: '#next-page', newer: '#newer-page', newest: '#newest-page', name: 'deliveries' },
    ]) {
      await page.goto(`${h.url}${list.path}`);
      expect(await page.locator(list.older).count()).toBe(1);
      await audit(page, `${list.name}, first page`);
      await page.click(list.older);
      await page.waitForSelector(list.newer);
      await audit(page, `${list.name}, second page`);
      await page.click(list.older);
      await page.waitForSelector(list.newest);
      await audit(page, `${list.name}, third page`);
    }
  }, 120_000);
});
