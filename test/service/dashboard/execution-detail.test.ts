/**
 * One execution on the dashboard, in a real headless Chromium at 390 px (input capture on, `email` redacted): opened
 * from a row of the executions list and from the tool explorer's "Execution <id>" line, it shows every field and the
 * recorded input, and a failed call from the explorer's error card too, with the message its caller got; an id that is none of the environment's executions is a not-found page; what the record holds is
 * rendered as text, never as markup.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite({ executions: { captureInputs: true, redactFields: ['email'] } });

/** Waits until the record of `id` is written (just after the call's answer, in the background). */
async function recorded(id: string): Promise<void> {
  const token = await suite.h.token(suite.h.a);
  await expect.poll(async () => (await suite.h.call('GET', `/api/v1/executions/${id}`, { token })).status).toBe(200);
}

/** The detail table as `{header: cell text}`. */
async function fields(page: Page): Promise<Record<string, string>> {
  const rows = await page.$$eval('#execution-fields tr', (trs) =>
    trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? ''] as [string, string]),
  );
  return Object.fromEntries(rows.map(([th, td]) => [th.trim(), td.trim()]));
}

/** A page of the suite's browser, signed in afresh (the browser's pages share one cookie jar). */
async function signedInPage(): Promise<Page> {
  const page = await suite.newPage();
  await page.context().clearCookies();
  await signIn(page, suite.h);
  return page;
}

/** A signed-in page on the tool explorer, `tool` chosen, to run on the crm connection for `identifier`. */
async function explorer(tool: string, identifier: string): Promise<Page> {
  const page = await signedInPage();
  await page.click('header >> text=Tools');
  await page.selectOption('#pick-tool', tool);
  await page.click('#choose-tool');
  await page.selectOption('#run-connection', 'crm');
  await page.fill('#run-identifier', identifier);
  return page;
}

function record(over: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    id: '0196a1b2-0000-7000-8000-000000000001', environmentId: suite.h.a.environmentId, startedAt: new Date().toISOString(), kind: 'tool',
    connectionId: null, connectionName: null, identifier: null, operation: 'crm_contact_get', outcome: 'error', errorCode: 'invalid_input',
    errorMessage: null, upstreamStatus: null, attempts: 0, durationMs: 1, input: null, ...over,
  };
}

describe.runIf(BROWSER_TESTS)('dashboard execution detail in Chromium', () => {
  it('opens from the list: every field and the redacted input; fits 390 px', async () => {
    const { token } = await crmUser(suite.h, 'detail-user', 'detail@example.com');
    const created = await suite.h.call('POST', '/api/v1/execute_tool', {
      token,
      body: { tool_name: 'crm_contact_create', identifier: 'detail-user', tool_input: { email: 'kim@example.com', firstname: 'Kim' } },
    });
    expect(created.status).toBe(200);
    const id = created.body.execution_id as string;
    await recorded(id);

    const page = await signedInPage();
    await page.click('header >> text=Executions');
    await page.click(`#executions tr[data-execution="${id}"] a`);
    await page.waitForURL(`${suite.h.url}/dashboard/executions/${id}`);
    expect(await page.textContent('#execution-id')).toBe(id);
    const shown = await fields(page);
    expect(shown).toMatchObject({
      Kind: 'tool', Operation: 'crm_contact_create', Outcome: 'success', 'Error code': 'none', Identifier: 'detail-user', Upstream: 'HTTP 201',
      Attempts: '1',
    });
    expect(shown.Connection).toContain('crm');
    const view = (await suite.h.call('GET', `/api/v1/executions/${id}`, { token })).body;
    expect(shown.Started).toBe(view.started_at);
    expect(shown.Connection).toContain(view.connection_id);
    expect(shown.Duration).toBe(`${view.duration_ms} ms`);
    expect(JSON.parse((await page.textContent('#execution-input')) ?? '')).toEqual({ email: '[redacted]', firstname: 'Kim' });
    expect(await page.textContent('main')).not.toContain('kim@example.com');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.click('text=Back to executions');
    await page.waitForURL(`${suite.h.url}/dashboard/executions`);
  });

  it("answers an unknown id, another environment's and a malformed one with a not-found page, signed in", async () => {
    await suite.h.connector.store.recordExecutions([record({ id: '0196a1b2-0000-7000-8000-0000000000bb', environmentId: suite.h.b.environmentId })]);
    const page = await signedInPage();
    for (const id of ['0196a1b2-0000-7000-8000-000000000000', '0196a1b2-0000-7000-8000-0000000000bb', 'not-an-execution']) {
      const res = await page.goto(`${suite.h.url}/dashboard/executions/${id}`);
      expect(res?.status(), id).toBe(404);
      expect(await page.textContent('h1')).toBe('Execution not found');
      expect(await page.textContent('#execution-missing')).toBe(`No execution ${JSON.stringify(id)} in this environment.`);
      // The signed-in header is there, the other environment's record is not.
      expect(await page.$('header >> text=Executions')).not.toBeNull();
      expect(await page.$('#execution-fields')).toBeNull();
    }
    // A record of this environment without an input (capture was off when it was written) says so; its message is shown.
    const message = 'Invalid input for crm_contact_get: contact_id is required (The contact\'s id)';
    await suite.h.connector.store.recordExecutions([record({ id: '0196a1b2-0000-7000-8000-0000000000aa', errorMessage: message })]);
    expect((await page.goto(`${suite.h.url}/dashboard/executions/0196a1b2-0000-7000-8000-0000000000aa`))?.status()).toBe(200);
    expect(await fields(page)).toMatchObject({ Outcome: 'error', 'Error code': 'invalid_input', Message: message, Upstream: 'no answer', Attempts: '0' });
    expect(await page.textContent('main')).not.toContain('are not kept: the caller got them');
    // A failed record without a message (a bug's, or one written before messages were kept) says none is kept.
    await suite.h.connector.store.recordExecutions([record({ id: '0196a1b2-0000-7000-8000-0000000000ab', errorCode: 'internal' })]);
    await page.goto(`${suite.h.url}/dashboard/executions/0196a1b2-0000-7000-8000-0000000000ab`);
    expect((await fields(page)).Message).toMatch(/^none kept/);
    expect(await page.textContent('#execution-input')).toContain('Not recorded');
    // Signed out, the page is the sign-in's.
    await page.context().clearCookies();
    await page.goto(`${suite.h.url}/dashboard/executions/0196a1b2-0000-7000-8000-0000000000aa`);
    expect(page.url()).toBe(`${suite.h.url}/dashboard/login`);
  });

  it('renders what the record holds as text, never as markup', async () => {
    const hostile = '<script>document.title="owned"</script><b id="injected">x</b>';
    await suite.h.connector.store.recordExecutions([
      record({ id: '0196a1b2-0000-7000-8000-0000000000cc', identifier: hostile, connectionName: `"><b id="injected">`, operation: `GET /x/<b id="injected">`, errorMessage: `</pre>${hostile}`, input: { note: `</pre>${hostile}` } }),
    ]);
    const page = await signedInPage();
    await page.goto(`${suite.h.url}/dashboard/executions/0196a1b2-0000-7000-8000-0000000000cc`);
    expect(await page.$('#injected')).toBeNull();
    expect(await page.$$('script')).toHaveLength(0);
    expect(await page.title()).not.toBe('owned');
    expect((await fields(page)).Identifier).toBe(hostile);
    expect((await fields(page)).Message).toBe(`</pre>${hostile}`);
    expect(JSON.parse((await page.textContent('#execution-input')) ?? '')).toEqual({ note: `</pre>${hostile}` });
    // And in the list row that links to it.
    await page.goto(`${suite.h.url}/dashboard/executions`);
    expect(await page.$('#injected')).toBeNull();
    expect(await page.textContent('#executions tr[data-execution="0196a1b2-0000-7000-8000-0000000000cc"]')).toContain(hostile);
  });

  it("opens from the tool explorer's Execution line", async () => {
    const page = await explorer('crm_contacts_list', 'detail-user');
    await page.click('#run-tool');
    const id = ((await page.textContent('#tool-execution')) ?? '').trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const sent = JSON.parse((await page.textContent('#tool-result small > code')) ?? '');
    await recorded(id);
    await page.click('#tool-execution');
    await page.waitForURL(`${suite.h.url}/dashboard/executions/${id}`);
    expect(await fields(page)).toMatchObject({ Operation: 'crm_contacts_list', Outcome: 'success', Identifier: 'detail-user', Upstream: 'HTTP 200' });
    expect(JSON.parse((await page.textContent('#execution-input')) ?? '')).toEqual(sent);
  }, 60_000);

  it("opens a failed call from the tool explorer's error card", async () => {
    const page = await explorer('crm_contact_create', 'detail-user');
    await page.fill('#field-email', 'not-an-email');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-error')).toContain('invalid_input');
    const id = ((await page.textContent('#tool-error-execution')) ?? '').trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await recorded(id);
    await page.click('#tool-error-execution');
    await page.waitForURL(`${suite.h.url}/dashboard/executions/${id}`);
    expect(await fields(page)).toMatchObject({ Operation: 'crm_contact_create', Outcome: 'error', 'Error code': 'invalid_input', Identifier: 'detail-user', Upstream: 'no answer' });
    // The message the explorer showed, naming the field and what it must be.
    expect((await fields(page)).Message).toBe('Invalid input for crm_contact_create: email must be an e-mail address');
  }, 60_000);
});
