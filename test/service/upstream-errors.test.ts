/**
 * Provider refusals through the HTTP service, against the sandbox answering in each provider's own shape: a 4xx keeps
 * its status (`upstream_error`), a missing scope or capability is `insufficient_scope` (403) naming what is missing,
 * a 5xx stays 502, and the typed HTTP client reports the same code and status as the in-process runtime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, ServiceError } from '../../runtime/client/index.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import type { ConnectionView } from '../../runtime/api.js';
import type { NotionCapability } from '../../sandbox/types.js';
import type { ConnectorName } from '../../runtime/types.js';
import { conformanceProblems } from './openapi-conformance.js';
import { startWithToken, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => ({ h, token } = await startWithToken()));
afterAll(async () => h?.close());

/** A connection with the given scopes (default: the connector's), registered at the sandbox, and one ACTIVE account. */
async function connect(connector: ConnectorName, name: string, user: string, options: { scopes?: string[]; capabilities?: NotionCapability[] } = {}): Promise<ConnectionView> {
  const secret = `secret-${name}`;
  const res = await h.call('POST', '/api/v1/connections', {
    token,
    body: { name, connector, client_id: `client-${name}`, client_secret: secret, overrides: h.sandbox.endpoints(connector), ...(options.scopes ? { scopes: options.scopes } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const connection = res.body as ConnectionView;
  registerWithSandbox(h.sandbox, connection, secret);
  if (options.capabilities) {
    h.sandbox.control.registerClient({ provider: 'notion', clientId: connection.client_id, clientSecret: secret, redirectUris: [connection.redirect_uri], capabilities: options.capabilities });
  }
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: name, identifier: user } });
  expect((await consentThroughSandbox(link.body.link, { user: `${user}@example.com` })).status).toBe(200);
  return connection;
}

/** Runs a tool; every answer, 4xx passed on or not, must be one the OpenAPI document describes for the route. */
async function run(connection_name: string, identifier: string, tool_name: string, tool_input: unknown) {
  const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { connection_name, identifier, tool_name, tool_input } });
  expect(conformanceProblems('POST', '/api/v1/execute_tool', res), `${tool_name} -> ${res.status}`).toEqual([]);
  return res;
}

describe('an upstream 4xx keeps its status', () => {
  it('calendar: a never-existing event and a filtered-out one are both 404; a deleted one is 410', async () => {
    await connect('calendar', 'cal-errors', 'carol');
    const missing = await run('cal-errors', 'carol', 'calendar_get_event_by_id', { event_id: 'doesnotexist123' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'upstream_error', details: { status: 404, body: { error: { code: 404, errors: [{ reason: 'notFound' }] } } } });
    expect(missing.body.error.message).toMatch(/^The upstream API answered 404 to GET \/calendar\/v3\/calendars\/primary\/events\/doesnotexist123: /);

    const created = await run('cal-errors', 'carol', 'calendar_create_event', { summary: 'Budget review', start_datetime: '2030-05-01T10:00:00Z', event_duration_minutes: 30, timezone: 'UTC' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    const filtered = await run('cal-errors', 'carol', 'calendar_get_event_by_id', { event_id: id, query: 'no such words' });
    expect(filtered.status).toBe(404);
    expect(filtered.body.error).toMatchObject({ code: 'not_found', details: { unmatched_filters: ['query'] } });
    expect(filtered.body.error.message).toContain(`Event ${id} exists but does not match the filters: query`);

    expect((await run('cal-errors', 'carol', 'calendar_delete_event', { event_id: id })).status).toBe(200);
    const again = await run('cal-errors', 'carol', 'calendar_delete_event', { event_id: id });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: 'upstream_error', details: { status: 410, body: { error: { errors: [{ reason: 'deleted' }] } } } });
  });

  it('crm: a duplicate e-mail is 409 and a missing record 404; the typed client sees the same status', async () => {
    await connect('crm', 'crm-errors', 'dave');
    const first = await run('crm-errors', 'dave', 'crm_contact_create', { email: 'dup@example.com' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const dup = await run('crm-errors', 'dave', 'crm_contact_create', { email: 'dup@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'upstream_error', details: { status: 409, body: { category: 'CONFLICT' } } });

    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const error = await client.executeTool({ connection_name: 'crm-errors', identifier: 'dave', tool_name: 'crm_contact_get', tool_input: { contact_id: '999999' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'upstream_error', status: 404, httpStatus: 404, details: { status: 404, body: { category: 'OBJECT_NOT_FOUND' } } });
  });

  it('calendar refusals keep Google\'s shape on the proxy, and the tool refuses the same input before sending', async () => {
    const proxy = (method: string, path: string, query: Record<string, string>) =>
      h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'cal-errors', identifier: 'carol', method, path, query } });
    const ordering = await proxy('GET', '/calendar/v3/calendars/primary/events', { orderBy: 'startTime' });
    expect(ordering.status).toBe(200); // the proxy returns the upstream answer as its result
    expect(ordering.body).toMatchObject({ status: 400, body: { error: { code: 400, errors: [{ reason: 'invalid', locationType: 'parameter', location: 'orderBy' }] } } });
    const tool = await run('cal-errors', 'carol', 'calendar_list_events', { order_by: 'startTime' });
    expect(tool.status).toBe(400);
    expect(tool.body.error.details.violations[0].pointer).toBe('/single_events');

    const updates = await proxy('DELETE', '/calendar/v3/calendars/primary/events/whatever', { sendUpdates: 'everyone' });
    expect(updates.body).toMatchObject({
      status: 400,
      body: { error: { errors: [{ reason: 'invalidParameter', location: 'sendUpdates', message: "Invalid string value: 'everyone'. Allowed values: [all, externalonly, none]" }] } },
    });
  });

  it('a 5xx stays 502', async () => {
    h.sandbox.control.setFault('crm', { failNext: { count: 5, status: 500 } });
    try {
      const res = await run('crm-errors', 'dave', 'crm_contact_get', { contact_id: '101' });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: 'upstream_error', details: { status: 500 } });
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});

describe('an upstream rate limit is upstream_rate_limited (429)', () => {
  it('with Retry-After, and the same whole seconds in the body for a reader of the body alone', async () => {
    h.sandbox.control.setFault('crm', { failNext: { count: 5, status: 429 } });
    try {
      const res = await run('crm-errors', 'dave', 'crm_contact_get', { contact_id: '101' });
      expect(res.status).toBe(429);
      // HubSpot's 429 says no Retry-After: the wait is the service's for HubSpot, its ten-second window.
      expect(res.headers.get('retry-after')).toBe('10');
      expect(res.body.error).toMatchObject({ code: 'upstream_rate_limited', retry_after_seconds: 10, execution_id: expect.any(String) });
      expect(conformanceProblems('POST', '/api/v1/execute_tool', res)).toEqual([]);
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});

describe('a refusal the tool has a hint for (its spec\'s upstream_errors) carries it; any other does not', () => {
  /** The refusal's error body, after checking it is an upstream_error of this status. */
  async function refused(connection: string, user: string, tool: string, input: unknown, status: number): Promise<{ message: string; details: { status: number; hint?: string } }> {
    const res = await run(connection, user, tool, input);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toMatchObject({ code: 'upstream_error', details: { status } });
    return res.body.error;
  }
  /** The hint is in details and after the message, once. */
  function expectHint(error: { message: string; details: { hint?: string } }, words: RegExp): void {
    expect(error.details.hint).toMatch(words);
    expect(error.message.endsWith(` Hint: ${error.details.hint}`)).toBe(true);
  }
  function expectNoHint(error: { message: string; details: { hint?: string } }): void {
    expect(error.details).not.toHaveProperty('hint');
    expect(error.message).not.toContain('Hint:');
  }

  it('calendar: an event or a calendar not found names the tool that lists them', async () => {
    await connect('calendar', 'cal-hints', 'hana');
    const event = await refused('cal-hints', 'hana', 'calendar_get_event_by_id', { event_id: 'doesnotexist123' }, 404);
    expect(event.message).toMatch(/^The upstream API answered 404 to GET \/calendar\/v3\/calendars\/primary\/events\/doesnotexist123: Not Found\. Hint: /);
    expectHint(event, /event_id.*calendar_list_events/);
    expectHint(await refused('cal-hints', 'hana', 'calendar_list_events', { calendar_id: 'nosuchcalendar@group.calendar.google.com' }, 404), /calendar_id: calendar_list_calendars/);
    const created = await run('cal-hints', 'hana', 'calendar_create_event', { summary: 'Once', start_datetime: '2030-05-01T10:00:00Z' });
    expect((await run('cal-hints', 'hana', 'calendar_delete_event', { event_id: created.body.data.id })).status).toBe(200);
    expectHint(await refused('cal-hints', 'hana', 'calendar_delete_event', { event_id: created.body.data.id }, 410), /already deleted/);
  });

  it('calendar: a page_token Google does not take (made up) names nextPageToken, in each paging tool', async () => {
    await connect('calendar', 'cal-pages', 'ivo');
    const events = await refused('cal-pages', 'ivo', 'calendar_list_events', { page_token: 'page-2' }, 400);
    expect(events.message).toContain('Invalid Value. Hint: ');
    expectHint(events, /nextPageToken this tool returned.*without page_token for the first page/);
    expectHint(await refused('cal-pages', 'ivo', 'calendar_list_calendars', { page_token: 'page-2' }, 400), /without page_token for the first page/);
  });

  it('crm: a duplicate names the update tool, an unknown property the internal names; an object not found the search tool', async () => {
    await connect('crm', 'crm-hints', 'hugo');
    const first = await run('crm-hints', 'hugo', 'crm_contact_create', { email: 'hint@example.com' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const dup = await refused('crm-hints', 'hugo', 'crm_contact_create', { email: 'hint@example.com' }, 409);
    expect(dup.message).toContain(`Existing ID: ${first.body.data.id}. Hint: `);
    expectHint(dup, /Existing ID.*crm_contact_update/);
    const property = await refused('crm-hints', 'hugo', 'crm_contact_update', { contact_id: first.body.data.id, props: { favourite_colour: 'blue' } }, 400);
    expectHint(property, /internal names/);
    // A label (a name with a space) never gets that far: it is refused before sending, saying what to send.
    const label = await run('crm-hints', 'hugo', 'crm_contact_update', { contact_id: first.body.data.id, props: { 'First Name': 'Ana' } });
    expect([label.status, label.body.error.code]).toEqual([400, 'invalid_input']);
    expect(label.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/props/First Name', message: expect.stringContaining("looks like a property's label") })]);
    expectHint(await refused('crm-hints', 'hugo', 'crm_deal_update', { deal_id: '999999', properties: { dealname: 'x' } }, 404), /deal_id: crm_deals_search/);
    // An owner given by a number of one's own (or the owner's userId): the connector's hint, on any tool writing properties.
    const owner = await refused('crm-hints', 'hugo', 'crm_contact_update', { contact_id: first.body.data.id, props: { hubspot_owner_id: '12345' } }, 400);
    expect(owner.message).toContain('INVALID_OWNER_ID');
    expectHint(owner, /the id of one of the account's owners.*not a user's userId/);
    // An option given by a label or a word of one's own: its internal value is asked for, the message lists them.
    expectHint(await refused('crm-hints', 'hugo', 'crm_contact_update', { contact_id: first.body.data.id, props: { lifecyclestage: 'vip' } }, 400), /internal value, not its label/);
    const stage = await refused('crm-hints', 'hugo', 'crm_deal_create', { dealname: 'Big', amount: 1000, dealstage: 'won' }, 400);
    expect(stage.message).toContain('won was not one of the allowed options');
    expectHint(stage, /crm_deal_pipelines_list.*closedwon/);
    // Another 400 of the same tool (an e-mail HubSpot refuses) is neither: no hint.
    expectNoHint(await refused('crm-hints', 'hugo', 'crm_contact_update', { contact_id: first.body.data.id, props: { email: 'not-an-email' } }, 400));
  });

  it('sheets: a range naming no sheet names the tool that lists them; a spreadsheet not found says where its id is', async () => {
    await connect('sheets', 'sheets-hints', 'ines');
    const book = await run('sheets-hints', 'ines', 'sheets_create_spreadsheet', { title: 'Hints', sheets: [{ properties: { title: 'My Sheet' } }] });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    const id = book.body.data.spreadsheetId as string;
    const range = await refused('sheets-hints', 'ines', 'sheets_get_values', { spreadsheet_id: id, range: 'NoSuchSheet!A1:B2' }, 400);
    expect(range.message).toContain('Unable to parse range: NoSuchSheet!A1:B2. Hint: ');
    expectHint(range, /^The range names a sheet this spreadsheet does not have: sheets_read_spreadsheet lists the sheet titles.*'My Sheet'!A1:B2/);
    // The same hint, written once in the connector's spec, for a range of sheets_read_spreadsheet.
    expectHint(await refused('sheets-hints', 'ines', 'sheets_read_spreadsheet', { spreadsheet_id: id, ranges: 'NoSuchSheet!A1' }, 400), /^The range names a sheet this spreadsheet does not have: sheets_read_spreadsheet lists the sheet titles.*'My Sheet'!A1:B2/);
    expectHint(await refused('sheets-hints', 'ines', 'sheets_update_values', { spreadsheet_id: id, range: "'My Sheet'!A1:B1", values: [['a', 'b', 'c']], value_input_option: 'RAW' }, 400), /values has more rows or columns than range/);
    // A write past the sheet's last column (home-assistant/core#104198: a header cell Y1 on 24 columns): values.update
    // never grows the sheet; the hint names the tool that does, and that tool takes the wider row.
    const past = await refused('sheets-hints', 'ines', 'sheets_update_values', { spreadsheet_id: id, range: "'My Sheet'!Z1", values: [['Total', 'Note']] }, 400);
    expect(past.message).toContain("Range ('My Sheet'!Z1:AA1) exceeds grid limits. Max rows: 1000, max columns: 26. Hint: ");
    expectHint(past, /this tool adds none: sheets_append_values/);
    const wide = await run('sheets-hints', 'ines', 'sheets_append_values', { spreadsheet_id: id, range: "'My Sheet'", values: [Array.from({ length: 27 }, (_, i) => `c${i + 1}`)] });
    expect(wide.status, JSON.stringify(wide.body)).toBe(200);
    expect(wide.body.data.updates).toMatchObject({ updatedRange: "'My Sheet'!A1:AA1", updatedColumns: 27 });
    expectHint(await refused('sheets-hints', 'ines', 'sheets_read_spreadsheet', { spreadsheet_id: 'nosuchspreadsheet123' }, 404), /spreadsheet_id.*after \/d\//);
    // Another user of the same connection: the spreadsheet exists, but is not shared with their Google account.
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'sheets-hints', identifier: 'kai' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'kai@example.com' })).status).toBe(200);
    const notShared = await refused('sheets-hints', 'kai', 'sheets_get_values', { spreadsheet_id: id, range: 'A1' }, 403);
    expect(notShared.message).toContain('The caller does not have permission');
    expectHint(notShared, /not shared with the Google account this user authorized/);
  });

  it('docs: an index outside the text names the tool that gives the indexes; another refusal gets none', async () => {
    await connect('docs', 'docs-hints', 'jana');
    const doc = await run('docs-hints', 'jana', 'docs_create_document', { title: 'Hints' });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    const id = doc.body.data.documentId as string;
    expectHint(await refused('docs-hints', 'jana', 'docs_update_document', { document_id: id, requests: [{ insertText: { location: { index: 50 }, text: 'x' } }] }, 400), /past the body's end.*docs_read_document gives it/);
    expectHint(await refused('docs-hints', 'jana', 'docs_read_document', { document_id: 'nosuchdocument123' }, 404), /document_id/);
    // The same status and code, a message the hints do not name.
    expectNoHint(await refused('docs-hints', 'jana', 'docs_update_document', { document_id: id, requests: [{ insertText: { text: 'x' } }] }, 400));
    // The text to find given bare, where Docs takes a SubstringMatchCriteria object: refused as Docs' JSON parser does.
    const bare = await refused('docs-hints', 'jana', 'docs_update_document', { document_id: id, requests: [{ replaceAllText: { containsText: '{{name}}', replaceText: 'Ana' } }] }, 400);
    expect(bare.message).toContain(`Invalid value at 'requests[0].replaceAllText.containsText' (type.googleapis.com/google.apps.docs.v1.SubstringMatchCriteria), "{{name}}"`);
    expectHint(bare, /containsText is an object, not the text itself/);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'docs-hints', identifier: 'lev' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'lev@example.com' })).status).toBe(200);
    expectHint(await refused('docs-hints', 'lev', 'docs_read_document', { document_id: id }, 403), /document exists but is not shared/);
  });

  it('docs: each index or style-mask mistake gets what to send instead, where Docs\' message does not say it', async () => {
    await connect('docs', 'docs-indexes', 'juno');
    const doc = await run('docs-indexes', 'juno', 'docs_create_document', { title: 'Indexes' });
    const document_id = doc.body.data.documentId as string;
    // "Hello\n": the body's last endIndex is 7.
    expect((await run('docs-indexes', 'juno', 'docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Hello' } }] })).status).toBe(200);
    const edit = (request: unknown) => refused('docs-indexes', 'juno', 'docs_update_document', { document_id, requests: [request] }, 400);
    const bold = { textStyle: { bold: true }, fields: 'bold' };

    const atZero = await edit({ insertText: { location: { index: 0 }, text: 'x' } });
    expect(atZero.message).toContain('The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines. Hint: ');
    expectHint(atZero, /body text starts at 1.*table's startIndex/);
    const atEnd = await edit({ insertText: { location: { index: 7 }, text: 'x' } });
    expect(atEnd.message).toContain('Index 7 must be less than the end index of the referenced segment, 7. Hint: ');
    expectHint(atEnd, /endIndex - 1, or with endOfSegmentLocation/);
    expectHint(await edit({ updateTextStyle: { range: { startIndex: 1, endIndex: 20 }, ...bold } }), /end a range at most at endIndex/);
    expectHint(await edit({ deleteContentRange: { range: { startIndex: 3, endIndex: 3 } } }), /endIndex is exclusive/);
    expectHint(await edit({ deleteContentRange: { range: { startIndex: 0, endIndex: 3 } } }), /body's text starts at 1/);
    const lastNewline = await edit({ deleteContentRange: { range: { startIndex: 1, endIndex: 7 } } });
    expect(lastNewline.message).toContain('The range cannot include the newline character at the end of the segment. Hint: ');
    expectHint(lastNewline, /endIndex: last endIndex - 1/);
    const unmasked = await edit({ updateParagraphStyle: { range: { startIndex: 1, endIndex: 6 }, paragraphStyle: { namedStyleType: 'HEADING_1' } } });
    // Docs' sentence ends inside its bracket ('fields.)'): no second full stop before the hint.
    expect(unmasked.message).toContain(`At least one field must be listed in 'fields'. (Use '*' to indicate all fields.) Hint: `);
    expectHint(unmasked, /beside textStyle or paragraphStyle.*'\*' resets every field not given/);
    // A mask written from the request's root ("textStyle.bold") names no field of the style: refused, and told the form.
    const rooted = await edit({ updateTextStyle: { range: { startIndex: 1, endIndex: 6 }, textStyle: { bold: true }, fields: 'textStyle.bold' } });
    expect(rooted.message).toContain('Invalid requests[0].updateTextStyle: Invalid field: text_style');
    expectHint(rooted, /"fields": "bold" \(not "textStyle.bold"\)/);
    // Docs' own words already say what to send for an inverted range: no hint, and none about bounds it did not break.
    const inverted = await edit({ deleteContentRange: { range: { startIndex: 4, endIndex: 2 } } });
    expect(inverted.message).toContain('Invalid range: end index cannot be less than start index');
    expectNoHint(inverted);
  });

  it('workspace: a database not shared names workspace_search, refused by the query or by its pre-check\'s read', async () => {
    await connect('workspace', 'notes-hints', 'kira');
    const database_id = '11111111-2222-4333-8444-555555555555';
    const query = await refused('notes-hints', 'kira', 'workspace_database_query', { database_id }, 404);
    expect(query.message).toContain(`to POST /v1/databases/${database_id}/query`);
    expectHint(query, /shared with this integration: workspace_search lists/);
    // Naming a column makes the pre-check read the database first: the same mistake, the same hint.
    const checked = await refused('notes-hints', 'kira', 'workspace_database_query', { database_id, sorts: [{ property: 'Name', direction: 'ascending' }] }, 404);
    expect(checked.message).toContain(`to GET /v1/databases/${database_id}:`);
    expect(checked.details.hint).toBe(query.details.hint);
    // A child block written with the old `text` key: Notion's message names `children`, the hint the parameter.
    const search = await run('notes-hints', 'kira', 'workspace_search', { query: '' });
    const parent_page_id = (search.body.data.results as { object: string; id: string }[]).find((r) => r.object === 'page')!.id;
    const block = await refused('notes-hints', 'kira', 'workspace_page_create', { parent_page_id, properties: { title: { title: [{ text: { content: 'x' } }] } }, child_blocks: [{ type: 'paragraph', paragraph: { text: 'hi' } }] }, 400);
    expect(block.message).toContain('body failed validation: body.children[0].paragraph.rich_text should be defined');
    expectHint(block, /child_blocks are sent as children: each text block .* needs rich_text/);
  });

  it('workspace: a start_cursor Notion does not take (made up, or carried over to another query) names next_cursor, in each paging tool', async () => {
    await connect('workspace', 'notes-cursors', 'lina');
    const first = await run('notes-cursors', 'lina', 'workspace_search', { page_size: 1 });
    expect(first.body.data.next_cursor, JSON.stringify(first.body)).toEqual(expect.any(String));
    const carried = await refused('notes-cursors', 'lina', 'workspace_search', { page_size: 1, query: 'something else', start_cursor: first.body.data.next_cursor }, 400);
    expect(carried.message).toContain('start_cursor should be a valid cursor');
    expectHint(carried, /next_cursor this tool returned.*without start_cursor for the first page/);
    const database_id = (first.body.data.results as { object: string; id: string; parent: { database_id?: string } }[])[0]!.parent.database_id!;
    expectHint(await refused('notes-cursors', 'lina', 'workspace_database_query', { database_id, start_cursor: 'page-2' }, 400), /without start_cursor/);
    const page = (first.body.data.results as { id: string }[])[0]!.id;
    expectHint(await refused('notes-cursors', 'lina', 'workspace_comments_list', { block_id: page, start_cursor: 'page-2' }, 400), /without start_cursor/);
    // The three share the connector's hint; workspace_page_read's own, about a cursor of the same block_id, comes first.
    expectHint(await refused('notes-cursors', 'lina', 'workspace_page_read', { block_id: page, start_cursor: 'page-2' }, 400), /next_cursor this tool returned for the same block_id/);
  });
});

describe('missing permissions are insufficient_scope (403)', () => {
  it('Google: names the scopes that would allow the call', async () => {
    await connect('calendar', 'cal-readonly', 'erin', { scopes: ['https://www.googleapis.com/auth/calendar.readonly'] });
    expect((await run('cal-readonly', 'erin', 'calendar_list_events', {})).status).toBe(200);
    const res = await run('cal-readonly', 'erin', 'calendar_create_event', { summary: 'x', start_datetime: '2030-05-01T10:00:00Z' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect(res.body.error.details.required_scopes).toContain('https://www.googleapis.com/auth/calendar.events');
    expect(res.body.error.details).toMatchObject({ status: 403, resource: 'POST /calendar/v3/calendars/primary/events', body: { error: { errors: [{ reason: 'insufficientPermissions' }] } } });
    expect(res.body.error.message).toContain('https://www.googleapis.com/auth/calendar.events');
  });

  it('HubSpot: names the granular scope from MISSING_SCOPES', async () => {
    await connect('crm', 'crm-contacts-only', 'frank', { scopes: ['crm.objects.contacts.read'] });
    const res = await run('crm-contacts-only', 'frank', 'crm_deal_create', { dealname: 'Big one', amount: 1000, dealstage: 'qualifiedtobuy' });
    expect(res.status).toBe(403);
    // HubSpot names the deal write scopes of all four kinds, any one admitting the call; the step-up asks for the one
    // the connector asks for by default.
    expect(res.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: {
        required_scopes: ['crm.schemas.deals.write', 'crm.objects.deals.sensitive.write.v2', 'crm.objects.deals.write', 'crm.objects.deals.highly_sensitive.write.v2'],
        required_scopes_all: false,
        scopes_to_request: ['crm.objects.deals.write'],
        body: { category: 'MISSING_SCOPES' },
      },
    });
  });

  it('Notion: names the resource the integration may not use', async () => {
    await connect('workspace', 'notes-readonly', 'gina', { capabilities: ['read_content'] });
    const res = await run('notes-readonly', 'gina', 'workspace_comment_create', { parent: { page_id: '11111111-1111-4111-8111-111111111111' }, comment: { rich_text: [{ type: 'text', text: { content: 'hi' } }] } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { resource: 'POST /v1/comments', body: { code: 'restricted_resource' } } });
    expect(res.body.error.details).not.toHaveProperty('required_scopes');
  });
});

describe('step-up: an authorization link with extra scopes', () => {
  async function stepUp(connection_name: string, identifier: string, scopes: string[]) {
    const before = await h.call('GET', `/api/v1/connected_accounts?identifier=${identifier}&connection_name=${connection_name}`, { token });
    const [account] = before.body.connected_accounts;
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name, identifier, scopes } });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.connected_account_id).toBe(account.id);
    expect((await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` })).status).toBe(200);
    const after = await h.call('GET', `/api/v1/connected_accounts/${account.id}`, { token });
    return { before: account, after: after.body };
  }

  it('Google: the new grant adds to the old one (include_granted_scopes), the account keeps its id and identifier', async () => {
    const events = 'https://www.googleapis.com/auth/calendar.events';
    const { before, after } = await stepUp('cal-readonly', 'erin', [events]);
    expect(before.scopes).toEqual(['https://www.googleapis.com/auth/calendar.readonly']);
    expect(after).toMatchObject({ id: before.id, identifier: 'erin', status: 'ACTIVE' });
    expect([...after.scopes].sort()).toEqual(['https://www.googleapis.com/auth/calendar.events', 'https://www.googleapis.com/auth/calendar.readonly']);
    const created = await run('cal-readonly', 'erin', 'calendar_create_event', { summary: 'now allowed', start_datetime: '2030-05-01T10:00:00Z' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await run('cal-readonly', 'erin', 'calendar_list_events', {})).status).toBe(200);
    const listed = await h.call('GET', '/api/v1/connected_accounts?identifier=erin', { token });
    expect(listed.body.connected_accounts.filter((a: { connection_name?: string; connection_id: string }) => a.connection_id === before.connection_id)).toHaveLength(1);
  });

  it('HubSpot: the link asks for the old scopes and the new ones, so both work afterwards', async () => {
    const { before, after } = await stepUp('crm-contacts-only', 'frank', ['crm.objects.deals.write']);
    expect(after).toMatchObject({ id: before.id, identifier: 'frank', status: 'ACTIVE' });
    const deal = await run('crm-contacts-only', 'frank', 'crm_deal_create', { dealname: 'After step-up', amount: 10, dealstage: 'qualifiedtobuy' });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect((await run('crm-contacts-only', 'frank', 'crm_contacts_list', {})).status).toBe(200);
  });

  it('is refused for Notion, which has no OAuth scopes, and for malformed scopes, at /scopes', async () => {
    const notion = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'notes-readonly', identifier: 'gina', scopes: ['insert_comments'] } });
    expect(notion.status).toBe(400);
    expect(notion.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/scopes', keyword: 'forbidden' })]);
    const blank = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal-readonly', identifier: 'erin', scopes: ['two words'] } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details.violations[0].pointer).toMatch(/^\/scopes/);
  });

  it('a Notion connection takes no scopes either, created or changed: the integration\'s capabilities decide, and the message says where they are set', async () => {
    const created = await h.call('POST', '/api/v1/connections', { token, body: { name: 'notes-scoped', connector: 'workspace', client_id: 'c', client_secret: 's', scopes: ['read_content'] } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('invalid_input');
    expect(created.body.error.details.violations).toEqual([{ pointer: '/scopes', keyword: 'forbidden', message: expect.stringContaining('Notion has no OAuth scopes') }]);
    expect(created.body.error.details.violations[0].message).toContain('https://www.notion.so/my-integrations (Capabilities)');
    expect((await h.call('GET', '/api/v1/connections/notes-scoped', { token })).status).toBe(404);
    const changed = await h.call('PATCH', '/api/v1/connections/notes-readonly', { token, body: { scopes: ['insert_comments'] } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/scopes', keyword: 'forbidden' })]);
    const kept = await h.call('GET', '/api/v1/connections/notes-readonly', { token });
    expect(kept.body.scopes).toEqual([]);
  });
});
