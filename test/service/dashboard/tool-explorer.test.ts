/**
 * The dashboard's tool explorer in a real headless Chromium at 390 px: pick a tool, a connection and a user, fill
 * the form built from the tool's input schema, run it, see the error with its violations (each also at its field), then the result; and the
 * form <-> input conversion for each kind of field; "any" connection, as the API's call without `connection_name`.
 */
import { describe, expect, it } from 'vitest';
import { formFields, inputFromForm } from '../../../runtime/service/dashboard/schema-form.js';
import { BROWSER_TESTS, connectSandboxUser, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

describe('schema form', () => {
  const schema = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, limit: { type: 'integer' }, archived: { type: 'boolean' }, status: { type: 'string', enum: ['NEW', 'OPEN'] }, tags: { type: 'array', items: { type: 'string' } } },
  };
  it('builds one field per parameter, of its kind', () => {
    expect(formFields(schema).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'text', true], ['limit', 'number', false], ['archived', 'checkbox', false], ['status', 'select', false], ['tags', 'json', false],
    ]);
  });
  it('reads a submitted form back as input, empty fields absent, unreadable ones reported with their pointer', () => {
    expect(inputFromForm(schema, { 'input.name': 'a', 'input.limit': '5', 'input.archived': 'on', 'input.status': 'OPEN', 'input.tags': '["x"]' })).toEqual({
      input: { name: 'a', limit: 5, archived: true, status: 'OPEN', tags: ['x'] },
      problems: [],
    });
    expect(inputFromForm(schema, { 'input.name': '', 'input.limit': 'five', 'input.tags': '[x' }).problems.map((p) => p.pointer)).toEqual(['/limit', '/tags']);
  });
  it('says what the service would say of a field it cannot read: an integer parameter must be an integer, not "a number"', () => {
    const numeric = { type: 'object', properties: { limit: { type: 'integer' }, ratio: { type: 'number' } } };
    expect(inputFromForm(numeric, { 'input.limit': 'five', 'input.ratio': 'half' }).problems).toEqual([
      { pointer: '/limit', message: 'limit must be an integer' },
      { pointer: '/ratio', message: 'ratio must be a number' },
    ]);
  });
});

describe.runIf(BROWSER_TESTS)('dashboard tool explorer in Chromium', () => {
  it('runs a tool from a form built from its schema, showing violations, then the result', async () => {
    const { token } = await crmUser(suite.h, 'explorer-user', 'explorer@example.com');

    const page = await suite.newPage();
    await signIn(page, suite.h);
    await page.click('header >> text=Tools');
    await page.selectOption('#pick-tool', 'crm_contact_create');
    await page.click('#choose-tool');
    expect(await page.textContent('label[for=field-email]')).toContain('email *');
    expect(await page.$('#field-hs_lead_status >> option[value=NEW]')).not.toBeNull();
    await page.selectOption('#run-connection', 'crm');
    await page.fill('#run-identifier', 'explorer-user');
    await page.fill('#field-email', 'not-an-email');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-error')).toContain('invalid_input');
    expect(await page.textContent('#tool-violations')).toContain('/email');
    // The form keeps what was typed, and the field the violation names says it.
    expect(await page.inputValue('#field-email')).toBe('not-an-email');
    expect(await page.getAttribute('#field-email', 'aria-invalid')).toBe('true');
    // The error is read first, then the parameter's description; a field without an error is described by its help.
    const [errorId, helpId] = ((await page.getAttribute('#field-email', 'aria-describedby')) ?? '').split(' ');
    expect(await page.textContent(`#${errorId}`)).toContain('email');
    expect(helpId).toBe('field-email-help');
    expect((await page.textContent('#field-email-help'))?.trim()).not.toBe('');
    expect(await page.getAttribute('#field-firstname', 'aria-invalid')).toBeNull();
    expect(await page.getAttribute('#field-firstname', 'aria-describedby')).toBe('field-firstname-help');
    expect((await page.textContent('#field-firstname-help'))?.trim()).not.toBe('');
    expect(await page.getAttribute('#run-identifier', 'aria-invalid')).toBeNull();

    // A field the form cannot read, and a nested violation, each at its parameter's field.
    await page.selectOption('#pick-tool', 'crm_contacts_search');
    await page.click('#choose-tool');
    await page.selectOption('#run-connection', 'crm');
    await page.fill('#run-identifier', 'explorer-user');
    await page.fill('#field-limit', 'ten');
    await page.click('#run-tool');
    expect(await page.textContent('#field-limit-error')).toContain('limit must be a number');
    await page.fill('#field-limit', '1000');
    await page.fill('#field-filterGroups', '[{"x": 1}]');
    await page.click('#run-tool');
    expect(await page.textContent('#field-limit-error')).toContain('limit must be <= 100');
    expect(await page.textContent('#field-filterGroups-error')).toContain('filterGroups[0].filters is required');
    expect(await page.getAttribute('#field-filterGroups', 'aria-describedby')).toBe('field-filterGroups-error field-filterGroups-help');

    // A user without an account on the connection: the call's identifier field says so, not an input field.
    await page.fill('#field-limit', '');
    await page.fill('#field-filterGroups', '');
    await page.fill('#run-identifier', 'nobody-here');
    await page.click('#run-tool');
    expect(await page.getAttribute('#run-identifier', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#run-identifier-error')).toContain('has no connected account');

    await page.selectOption('#pick-tool', 'crm_contact_create');
    await page.click('#choose-tool');
    await page.selectOption('#run-connection', 'crm');
    await page.fill('#run-identifier', 'explorer-user');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    await page.fill('#field-email', 'explorer-contact@example.com');
    await page.fill('#field-firstname', 'Ex');
    await page.click('#run-tool');
    const result = await page.textContent('#tool-result');
    expect(result).toContain('explorer-contact@example.com');
    expect(result).toContain('"id"');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  }, 60_000);

  it('runs on any connection, as the API does without connection_name: the user\'s one connection of the tool\'s system', async () => {
    const token = await suite.h.token(suite.h.a);
    const [first, second] = [await suite.h.sandboxConnection(suite.h.a, 'crm', 'crm-first'), await suite.h.sandboxConnection(suite.h.a, 'crm', 'crm-second')];
    const authorize = (connection: string, identifier: string, user: string) => connectSandboxUser(suite.h, { connection, identifier, user });
    await authorize(second.name, 'any-one', 'any-one@example.com');
    await authorize(first.name, 'any-two', 'any-two@example.com');
    await authorize(second.name, 'any-two', 'any-two@example.com');

    const page = await suite.newPage();
    await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contacts_list`);
    if (page.url().endsWith('/dashboard/login')) {
      await signIn(page, suite.h);
      await page.goto(`${suite.h.url}/dashboard/tools?tool=crm_contacts_list`);
    }
    // "any" is offered first, beside each crm connection, and is what a new form sends.
    expect(await page.$eval('#run-connection', (s) => (s as unknown as { value: string }).value)).toBe('');
    expect(await page.textContent('#run-connection >> option[value=""]')).toContain('any');
    await page.fill('#run-identifier', 'any-one');
    await page.fill('#field-limit', '1');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-result')).toContain('"results"');
    const executionId = (await page.textContent('#tool-execution'))?.trim();
    // The history is written in the background (batched): wait for the record, then read it.
    await expect.poll(async () => (await suite.h.call('GET', `/api/v1/executions/${executionId}`, { token })).status).toBe(200);
    const execution = await suite.h.call('GET', `/api/v1/executions/${executionId}`, { token });
    expect(execution.body.connection_name).toBe(second.name);
    // The form keeps "any".
    expect(await page.$eval('#run-connection', (s) => (s as unknown as { value: string }).value)).toBe('');

    // A user with accounts on both: the API's ambiguous_connection, said at the connection field too.
    await page.fill('#run-identifier', 'any-two');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-error')).toContain('ambiguous_connection');
    expect(await page.getAttribute('#run-connection', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#run-connection-error')).toContain('crm-first, crm-second');
    await page.selectOption('#run-connection', 'crm-first');
    await page.click('#run-tool');
    expect(await page.textContent('#tool-result')).toContain('"results"');
  }, 60_000);
});
