/**
 * The calls a model makes on its first try at an everyday task, through the official MCP SDK client against the
 * service and the sandbox: each mistake must come back as an error result that says what to send instead, with
 * nothing but its text to go on (the provider's words, and the tool's hint where they do not say it).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';
import { mcpSessionClient } from './mcp-agent.js';

let h: Harness;
let c: Client;

beforeAll(async () => {
  // Many CRM searches in a few seconds: HubSpot's search limit (5 a second) is not what this file is about, and met
  // it made a search near the end of the file answer 429 about one run in three.
  h = await startHarness({ sandboxOptions: { providerRateLimits: false } });
  for (const connector of ['docs', 'crm', 'sheets', 'calendar', 'workspace'] as const) {
    await connectSandboxUser(h, { connector, identifier: 'mo', user: 'mo@example.com' });
  }
  c = await mcpSessionClient(h, 'first-tries', { identifier: 'mo' });
});

afterAll(async () => {
  await c?.close();
  await h?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function errorOf(result: CallToolResult): { code: string; message: string; details?: { hint?: string } } {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

describe('docs: a title heading written the way models first write it', () => {
  it('a style beside range instead of inside paragraphStyle is refused, naming the field, with where it goes', async () => {
    const created = await call('docs_create_document', { title: 'Notes' });
    const document_id = (created.structuredContent as { documentId: string }).documentId;
    const error = errorOf(
      await call('docs_update_document', {
        document_id,
        requests: [
          { insertText: { location: { index: 1 }, text: 'Notes\n' } },
          { updateParagraphStyle: { range: { startIndex: 1, endIndex: 6 }, namedStyleType: 'TITLE', fields: 'namedStyleType' } },
        ],
      }),
    );
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain(`Unknown name "namedStyleType" at 'requests[1].update_paragraph_style': Cannot find field.`);
    expect(error.details?.hint).toMatch(/inside textStyle or paragraphStyle, beside range and fields \(namedStyleType too\)/);
    // The index beside the text, where it goes in location: the same hint says so.
    const index = errorOf(await call('docs_update_document', { document_id, requests: [{ insertText: { index: 1, text: 'Notes\n' } }] }));
    expect(index.message).toContain(`Unknown name "index" at 'requests[0].insert_text'`);
    expect(index.details?.hint).toMatch(/an index inside location: \{"index": 1\}/);
  });
});

describe('crm: a deal changed with the values a user says', () => {
  it('a close date in words, or an amount with a currency sign, is told the form HubSpot takes', async () => {
    const deal = await call('crm_deal_create', { dealname: 'Acme renewal', amount: 5000, dealstage: 'appointmentscheduled' });
    const deal_id = (deal.structuredContent as { id: string }).id;
    const date = errorOf(await call('crm_deal_update', { deal_id, properties: { closedate: 'November 30, 2026' } }));
    expect(date.message).toContain('November 30, 2026 was not a valid long.');
    expect(date.details?.hint).toMatch(/closedate.*YYYY-MM-DD/);
    const amount = errorOf(await call('crm_deal_update', { deal_id, properties: { amount: '$5,000' } }));
    expect(amount.message).toContain('$5,000 was not a valid number.');
    expect(amount.details?.hint).toMatch(/plain number.*without a currency sign/);
    // Sent as the hints say, both are taken.
    const fixed = await call('crm_deal_update', { deal_id, properties: { closedate: '2026-11-30', amount: '5000' } });
    expect(fixed.isError).toBeFalsy();
  });
});

describe('sheets: one row appended', () => {
  it('given as the cells of one row, is refused once, saying to wrap it, with the row to send', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Pipeline', sheets: [{ properties: { title: 'Pipeline' } }] });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    const result = await call('sheets_append_values', { spreadsheet_id, range: 'Pipeline', values: ['2026-11-25', 'Acme', 5000] });
    const error = errorOf(result) as { violations?: unknown[] };
    expect(error.violations).toEqual([
      { pointer: '/values', keyword: 'type', message: 'values must be an array of arrays, not the items of one: for one, send [["2026-11-25","Acme",5000]]' },
    ]);
    // A long row is not quoted back; the shape is still said.
    const long = errorOf(await call('sheets_update_values', { spreadsheet_id, range: 'Pipeline!A1', values: Array.from({ length: 40 }, (_, i) => `cell ${i}`) })) as { violations?: unknown[] };
    expect(long.violations).toEqual([{ pointer: '/values', keyword: 'type', message: 'values must be an array of arrays, not the items of one: for one, wrap it in another array, [[...]]' }]);
    // Rows some of which are right keep a refusal per wrong row.
    const mixed = errorOf(await call('sheets_append_values', { spreadsheet_id, range: 'Pipeline', values: [['a', 1], 'b'] })) as { violations?: Array<{ pointer: string }> };
    expect(mixed.violations?.map((v) => v.pointer)).toEqual(['/values/1']);
    expect((await call('sheets_append_values', { spreadsheet_id, range: 'Pipeline', values: [['2026-11-25', 'Acme', 5000]] })).isError).toBeFalsy();
  });
});

describe('calendar: the meeting just made, moved', () => {
  it("by its iCalUID or its link's eid instead of its id, is told which field is the id", async () => {
    const created = await call('calendar_create_event', { summary: 'Meeting with Ana', start_datetime: '2026-12-01T15:00:00Z', event_duration_minutes: 45 });
    const event = created.structuredContent as { id: string; iCalUID: string; htmlLink: string };
    const eid = new URL(event.htmlLink).searchParams.get('eid') as string;
    // Moved with its length, or by the new start alone (then the event is read first, and that read is refused).
    for (const event_id of [event.iCalUID, eid]) {
      for (const length of [{ event_duration_minutes: 45 }, {}]) {
        const moved = errorOf(await call('calendar_update_event', { calendar_id: 'primary', event_id, start_datetime: '2026-12-01T15:30:00Z', ...length }));
        expect(moved.details?.hint).toMatch(/its id field, not its iCalUID \(\.\.\.@google\.com\) or the eid in its htmlLink/);
      }
    }
    const read = errorOf(await call('calendar_get_event_by_id', { event_id: event.iCalUID }));
    expect(read.details?.hint).toMatch(/not its iCalUID/);
    const deleted = errorOf(await call('calendar_delete_event', { event_id: eid }));
    expect(deleted.details?.hint).toMatch(/not its iCalUID/);
    expect((await call('calendar_update_event', { calendar_id: 'primary', event_id: event.id, start_datetime: '2026-12-01T15:30:00Z', event_duration_minutes: 45 })).isError).toBeFalsy();
    // By its id and the new start alone, it keeps its 45 minutes.
    const again = await call('calendar_update_event', { calendar_id: 'primary', event_id: event.id, start_datetime: '2026-12-01T16:00:00Z' });
    expect(again.isError).toBeFalsy();
    expect(Date.parse((again.structuredContent as { end: { dateTime: string } }).end.dateTime)).toBe(Date.parse('2026-12-01T16:45:00Z'));
  });
});

describe('workspace: a row given with bare values', () => {
  it("a column the tool's example does not name is shown each value shape, not the title's alone", async () => {
    const found = await call('workspace_search', { query: 'Tasks' });
    const database_id = (found.structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'database')!.id;
    const title = { title: [{ text: { content: 'Q3 launch' } }] };
    for (const tool of ['workspace_database_insert_row', 'workspace_page_create']) {
      const error = errorOf(await call(tool, { database_id, properties: { title, Priority: 2, Quarter: 'Q3', Done: true } })) as { violations?: Array<{ pointer: string; message: string }> };
      expect(error.violations?.map((v) => v.pointer)).toEqual(['/properties/Priority', '/properties/Quarter', '/properties/Done']);
      for (const v of error.violations!.slice(0, 2)) {
        expect(v.message).toMatch(/^properties\.\w+ must be an object, the value object of its type, e\.g\. \{"title":/);
        for (const shape of ['{"select":{"name":"Open"}}', '{"date":{"start":"2026-03-01"}}', '{"number":3}', '{"checkbox":true}', '{"rich_text":[{"text":{"content":"Notes"}}]}']) expect(v.message).toContain(shape);
      }
      // A key the example names keeps that example alone.
      expect(error.violations![2]!.message).toBe('properties.Done must be an object, e.g. {"checkbox":true}');
    }
  });
});

describe('calendar: a parameter named by the part of its name a model remembers', () => {
  it('is told the one parameter whose name ends or starts with it; a part several names share gets the list', async () => {
    const made = errorOf(await call('calendar_create_event', { summary: 'Meeting with Ana', start_datetime: '2026-12-01T15:00:00Z', duration_minutes: 45, attendees: ['ana@example.com'] })) as {
      violations?: Array<{ pointer: string; message: string }>;
    };
    expect(made.violations).toEqual([
      { pointer: '/duration_minutes', keyword: 'additionalProperties', message: "unknown parameter 'duration_minutes'. Did you mean 'event_duration_minutes'?" },
      { pointer: '/attendees', keyword: 'additionalProperties', message: "unknown parameter 'attendees'. Did you mean 'attendees_emails'?" },
    ]);
    // event_id and calendar_id both end in id: no guess between them.
    const moved = errorOf(await call('calendar_update_event', { calendar_id: 'primary', id: 'e1' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(moved.violations?.find((v) => v.pointer === '/id')?.message).toMatch(/^unknown parameter 'id'\. Known parameters: calendar_id, event_id, /);
  });
});

describe('unknown parameters: only the parameters a model was shown are named', () => {
  it('the Known parameters list and the guess leave out the hidden version parameters, which are still accepted', async () => {
    const listed = (await c.listTools()).tools.find((t) => t.name === 'workspace_search')!;
    const shown = Object.keys(listed.inputSchema.properties ?? {});
    expect(shown).not.toContain('workspace_version');
    const unknown = async (args: Record<string, unknown>): Promise<string[]> =>
      ((errorOf(await call('workspace_search', args)) as { violations?: Array<{ message: string }> }).violations ?? []).map((v) => v.message);
    // A guessed name gets the parameters the model was shown, in their order, and no version parameter.
    expect(await unknown({ query: 'Roadmap', filters: { type: 'page' } })).toEqual([`unknown parameter 'filters'. Known parameters: ${shown.join(', ')}`]);
    // Near a hidden one only: no 'Did you mean' pointing at it.
    for (const message of await unknown({ query: 'Roadmap', toolversion: '1.0.0', workspace_versions: '2025-09-03' })) {
      expect(message).not.toMatch(/version'\?|Known parameters:.*version/);
    }
    // A caller that sends them knowingly still may.
    const found = await call('workspace_search', { query: 'Roadmap', workspace_version: '2025-09-03', schema_version: '1', tool_version: '1.0.0' });
    expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
  });
});

describe('calendar: the event just deleted, read again', () => {
  it('is said to be deleted, with the parameter that reads it anyway, not a filter the model never sent', async () => {
    const created = await call('calendar_create_event', { summary: 'Dentist', start_datetime: '2026-11-26T09:00:00+01:00', event_duration_minutes: 30 });
    const event_id = (created.structuredContent as { id: string }).id;
    expect((await call('calendar_delete_event', { event_id })).isError).toBeFalsy();
    const read = errorOf(await call('calendar_get_event_by_id', { event_id }));
    expect(read.code).toBe('not_found');
    expect(read.message).toBe(`Event ${event_id} is deleted (its status is cancelled): send show_deleted: true to read it anyway.`);
    const shown = await call('calendar_get_event_by_id', { event_id, show_deleted: true });
    expect((shown.structuredContent as { status: string }).status).toBe('cancelled');
  });
});

describe('docs: a paragraph deleted with its indexes beside the range', () => {
  it('startIndex and endIndex given in deleteContentRange itself are told to go inside range', async () => {
    const created = await call('docs_create_document', { title: 'Plan' });
    const document_id = (created.structuredContent as { documentId: string }).documentId;
    await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Goals\nHire two engineers.\n' } }] });
    const error = errorOf(await call('docs_update_document', { document_id, requests: [{ deleteContentRange: { startIndex: 7, endIndex: 27 } }] }));
    expect(error.message).toContain(`Unknown name "startIndex" at 'requests[0].delete_content_range'`);
    expect(error.details?.hint).toMatch(/startIndex and endIndex inside range: \{"range": \{"startIndex": 1, "endIndex": 6\}\}/);
    expect((await call('docs_update_document', { document_id, requests: [{ deleteContentRange: { range: { startIndex: 7, endIndex: 27 } } }] })).isError).toBeFalsy();
  });
});

describe('a key sent one level too high, beside the object that declares it', () => {
  it('is told which parameter it goes inside, with the shape, instead of a list of names', async () => {
    // Sheets: each initial sheet's title belongs in its properties; sent bare, Google would drop the names silently.
    const book = errorOf(await call('sheets_create_spreadsheet', { title: 'Budget 2027', sheets: [{ title: 'Income' }, { title: 'Expenses' }] })) as {
      violations?: Array<{ pointer: string; message: string }>;
    };
    expect(book.violations).toEqual([
      { pointer: '/sheets/0/title', keyword: 'additionalProperties', message: `unknown key 'title' in sheets[0]. It goes inside properties: {"properties": {"title": ...}}` },
      { pointer: '/sheets/1/title', keyword: 'additionalProperties', message: `unknown key 'title' in sheets[1]. It goes inside properties: {"properties": {"title": ...}}` },
    ]);
    const made = await call('sheets_create_spreadsheet', { title: 'Budget 2027', sheets: [{ properties: { title: 'Income' } }, { properties: { title: 'Expenses' } }] });
    expect((made.structuredContent as { sheets: Array<{ properties: { title: string } }> }).sheets.map((s) => s.properties.title)).toEqual(['Income', 'Expenses']);
    // Notion's comment body at the top, as its API takes it; HubSpot's filters without their group.
    const page_id = ((await call('workspace_search', {})).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const comment = errorOf(await call('workspace_comment_create', { parent: { page_id }, rich_text: [{ text: { content: 'Please review' } }] })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(comment.violations?.find((v) => v.pointer === '/rich_text')?.message).toBe(`unknown parameter 'rich_text'. It goes inside comment: {"comment": {"rich_text": ...}}`);
    const deals = errorOf(await call('crm_deals_search', { filters: [{ propertyName: 'dealstage', operator: 'EQ', value: 'closedwon' }] })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(deals.violations).toEqual([{ pointer: '/filters', keyword: 'additionalProperties', message: `unknown parameter 'filters'. It goes inside filterGroups: {"filterGroups": [{"filters": ...}]}` }]);
  });
});

describe('unknown parameters: guesses a model can trust', () => {
  it("a page's cursor sent under the answer's name for it (next_cursor, nextPageToken) is told the tool's cursor parameter", async () => {
    const database_id = ((await call('workspace_search', { query: 'Tasks' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'database')!.id;
    const message = async (name: string, args: Record<string, unknown>): Promise<string | undefined> =>
      ((errorOf(await call(name, args)) as { violations?: Array<{ pointer: string; message: string; keyword: string }> }).violations ?? []).find((v) => v.keyword === 'additionalProperties')?.message;
    expect(await message('workspace_database_query', { database_id, next_cursor: 'abc' })).toBe("unknown parameter 'next_cursor'. Did you mean 'start_cursor'?");
    expect(await message('calendar_list_events', { nextPageToken: 'abc' })).toBe("unknown parameter 'nextPageToken'. Did you mean 'page_token'?");
    expect(await message('crm_companies_search', { next_cursor: '2' })).toBe("unknown parameter 'next_cursor'. Did you mean 'after'?");
  });

  it("a name that shares a word but replaces another (calendar_name for calendar_id) is not guessed; the list says there is none, and time_zone is the tool's timezone", async () => {
    const listed = errorOf(await call('calendar_list_events', { time_min: '2026-11-26T00:00:00+01:00', time_max: '2026-11-27T00:00:00+01:00', calendar_name: 'Work' })) as {
      violations?: Array<{ pointer: string; message: string }>;
    };
    expect(listed.violations?.find((v) => v.pointer === '/calendar_name')?.message).toMatch(/^unknown parameter 'calendar_name'\. Known parameters: calendar_id, /);
    // The same word written apart, and a misspelt word, still are.
    const zone = errorOf(await call('calendar_list_events', { time_zone: 'Europe/Paris' })) as { violations?: Array<{ message: string }> };
    expect(zone.violations?.[0]?.message).toBe("unknown parameter 'time_zone'. Did you mean 'timezone'?");
    const typo = errorOf(await call('calendar_list_events', { calender_id: 'primary' })) as { violations?: Array<{ message: string }> };
    expect(typo.violations?.[0]?.message).toBe("unknown parameter 'calender_id'. Did you mean 'calendar_id'?");
  });
});

describe('sheets: a new spreadsheet with its header rows', () => {
  it("cells given as bare values in a sheet's rowData are shown the CellData shape", async () => {
    const error = errorOf(
      await call('sheets_create_spreadsheet', { title: 'Budget 2027', sheets: [{ properties: { title: 'Expenses' }, data: [{ rowData: [{ values: ['Item', 'Cost'] }] }] }] }),
    ) as { violations?: Array<{ pointer: string; message: string }> };
    expect(error.violations?.map((v) => v.message)).toEqual([
      'sheets[0].data[0].rowData[0].values[0] must be an object, e.g. {"userEnteredValue":{"stringValue":"Month"}}',
      'sheets[0].data[0].rowData[0].values[1] must be an object, e.g. {"userEnteredValue":{"stringValue":"Month"}}',
    ]);
    const made = await call('sheets_create_spreadsheet', {
      title: 'Budget 2027',
      sheets: [{ properties: { title: 'Expenses' }, data: [{ rowData: [{ values: [{ userEnteredValue: { stringValue: 'Item' } }, { userEnteredValue: { stringValue: 'Cost' } }] }] }] }],
    });
    const spreadsheet_id = (made.structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect(((await call('sheets_get_values', { spreadsheet_id, range: 'Expenses' })).structuredContent as { values: unknown }).values).toEqual([['Item', 'Cost']]);
  });
});

describe("unknown parameters: the provider's own name for a parameter the tool renames", () => {
  it("Notion's children and Google's q are told child_blocks and query", async () => {
    const page_id = ((await call('workspace_search', {})).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const made = errorOf(
      await call('workspace_page_create', {
        parent_page_id: page_id,
        properties: { title: { title: [{ text: { content: 'Launch retro' } }] } },
        children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'Notes' } }] } }],
      }),
    ) as { violations?: Array<{ pointer: string; message: string }> };
    expect(made.violations).toEqual([{ pointer: '/children', keyword: 'additionalProperties', message: "unknown parameter 'children'. Did you mean 'child_blocks'? (the API's name for it)" }]);
    const listed = errorOf(await call('calendar_list_events', { q: 'Dentist' })) as { violations?: Array<{ message: string }> };
    expect(listed.violations?.[0]?.message).toBe("unknown parameter 'q'. Did you mean 'query'? (the API's name for it)");
    // A camelCase name near its parameter keeps the plain guess.
    const paged = errorOf(await call('calendar_list_events', { maxResults: 5 })) as { violations?: Array<{ message: string }> };
    expect(paged.violations?.[0]?.message).toBe("unknown parameter 'maxResults'. Did you mean 'max_results'?");
  });
});

describe('workspace: a row filed under an option named with another case', () => {
  it("a select name that differs from an option only by case or spacing is refused naming the option, not added as a second one", async () => {
    const database_id = ((await call('workspace_search', { query: 'Tasks' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'database')!.id;
    const row = { title: { title: [{ text: { content: 'Ship the release' } }] }, Due: { date: { start: '2026-11-27' } } };
    for (const name of ['done', ' DONE ']) {
      const error = errorOf(await call('workspace_database_insert_row', { database_id, properties: { ...row, Status: { select: { name } } } })) as { violations?: unknown[] };
      expect(error.violations).toEqual([
        {
          pointer: '/properties/Status/select/name',
          keyword: 'column_type',
          message: `\`Status\` is a select column with the option \`Done\`, not \`${name}\` (option names are exact: Notion would add \`${name}\` as another option); send {"name":"Done"}`,
        },
      ]);
    }
    // A new name is Notion's to add, as its API does; the exact name files the row under the existing option.
    const filed = await call('workspace_database_insert_row', { database_id, properties: { ...row, Status: { select: { name: 'Done' } } } });
    expect((filed.structuredContent as { properties: { Status: { select: { color: string } } } }).properties.Status.select.color).toBe('green');
    expect((await call('workspace_database_insert_row', { database_id, properties: { ...row, Status: { select: { name: 'Blocked' } } } })).isError).toBeFalsy();
  });
});

describe('docs: a heading and a bullet list added at the end', () => {
  it('a named style or a bullet preset written as a label is refused, with the values to send; sent so, both apply', async () => {
    const created = await call('docs_create_document', { title: 'Plan' });
    const document_id = (created.structuredContent as { documentId: string }).documentId;
    await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Intro.\n' } }] });
    // The body is "Intro.\n" + its last newline: the heading is 8..18, the list 19..29.
    const append = { insertText: { endOfSegmentLocation: {}, text: 'Next steps\nHire\nShip\n' } };
    const heading = (namedStyleType: string) => ({ updateParagraphStyle: { range: { startIndex: 8, endIndex: 18 }, paragraphStyle: { namedStyleType }, fields: 'namedStyleType' } });
    const bullets = (bulletPreset: string) => ({ createParagraphBullets: { range: { startIndex: 19, endIndex: 29 }, bulletPreset } });
    const style = errorOf(await call('docs_update_document', { document_id, requests: [append, heading('Heading 1'), bullets('BULLET_DISC_CIRCLE_SQUARE')] }));
    expect(style.message).toContain(`Invalid value at 'requests[1].update_paragraph_style.paragraph_style.named_style_type' (type.googleapis.com/google.apps.docs.v1.NamedStyleType), "Heading 1"`);
    expect(style.details?.hint).toMatch(/NORMAL_TEXT, TITLE, SUBTITLE, HEADING_1, .*HEADING_6 \(upper case, with the underscore\)/);
    const preset = errorOf(await call('docs_update_document', { document_id, requests: [append, heading('HEADING_1'), bullets('BULLET_DISC')] }));
    expect(preset.message).toContain(`Invalid value at 'requests[2].create_paragraph_bullets.bullet_preset' (type.googleapis.com/google.apps.docs.v1.CreateParagraphBulletsRequest.BulletGlyphPreset), "BULLET_DISC"`);
    expect(preset.details?.hint).toMatch(/BULLET_DISC_CIRCLE_SQUARE for bullets, NUMBERED_DECIMAL_ALPHA_ROMAN for numbers/);
    // Nothing of a refused batch was applied; sent as the hints say, the batch is.
    expect((await call('docs_update_document', { document_id, requests: [append, heading('HEADING_1'), bullets('BULLET_DISC_CIRCLE_SQUARE')] })).isError).toBeFalsy();
    const body = ((await call('docs_read_document', { document_id })).structuredContent as { body: { content: Array<{ paragraph?: { paragraphStyle: { namedStyleType: string }; bullet?: unknown; elements: Array<{ textRun?: { content: string } }> } }> } }).body.content;
    const paragraphs = body.flatMap((e) => (e.paragraph ? [{ text: e.paragraph.elements.map((x) => x.textRun?.content ?? '').join(''), style: e.paragraph.paragraphStyle.namedStyleType, bullet: e.paragraph.bullet !== undefined }] : []));
    expect(paragraphs.slice(0, 4)).toEqual([
      { text: 'Intro.\n', style: 'NORMAL_TEXT', bullet: false },
      { text: 'Next steps\n', style: 'HEADING_1', bullet: false },
      { text: 'Hire\n', style: 'NORMAL_TEXT', bullet: true },
      { text: 'Ship\n', style: 'NORMAL_TEXT', bullet: true },
    ]);
  });
});

describe('workspace: a child page written like a database row', () => {
  it("a column name under a page, or a block's text as a plain string, is told the shape to send", async () => {
    const page_id = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const named = errorOf(await call('workspace_page_create', { parent_page_id: page_id, properties: { Name: { title: [{ text: { content: 'Meeting notes' } }] } } }));
    expect(named.message).toContain('Name is not a property that exists.');
    expect(named.details?.hint).toMatch(/under a page \(parent_page_id\) has one property, its title, keyed title whatever a database calls it: \{"title": \{"title": \[/);
    const title = { title: { title: [{ text: { content: 'Meeting notes' } }] } };
    const bullet = errorOf(await call('workspace_page_create', { parent_page_id: page_id, properties: title, child_blocks: [{ type: 'bulleted_list_item', bulleted_list_item: { rich_text: 'Hire two engineers' } }] }));
    expect(bullet.message).toContain('body.children[0].bulleted_list_item.rich_text should be an array');
    expect(bullet.details?.hint).toMatch(/needs rich_text, a list such as \[\{"text": \{"content": "Hello"\}\}\], not text or a plain string/);
    const made = await call('workspace_page_create', { parent_page_id: page_id, properties: title, child_blocks: [{ type: 'bulleted_list_item', bulleted_list_item: { rich_text: [{ text: { content: 'Hire two engineers' } }] } }] });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
  });
});

describe('crm: a deal "for" a contact', () => {
  it('crm_deal_create says, where a model reads it, how to link the deal to the contact and where her id comes from', async () => {
    const listed = (await c.listTools()).tools.find((t) => t.name === 'crm_deal_create')!;
    const description = listed.description?.replace(/\s+/g, ' ');
    expect(description).not.toMatch(/not linked to any contact/);
    expect(description).toMatch(/link it with contact_ids and company_ids: record ids, the `id` that crm_contacts_search or crm_contact_create/);
    const ana = await call('crm_contact_create', { email: 'ana.first-try@example.com', firstname: 'Ana' });
    const id = (ana.structuredContent as { id: string }).id;
    const deal = await call('crm_deal_create', { dealname: 'Ana - 5,000 EUR', amount: 5000, dealstage: 'appointmentscheduled', contact_ids: [id] });
    expect(deal.isError, JSON.stringify(deal.content)).toBeFalsy();
  });
});

describe("calendar: a meeting at 3 pm Paris time, after the clocks change", () => {
  it("a start written with the zone's winter offset in summer is refused with both readings, not made an hour off", async () => {
    const error = errorOf(await call('calendar_create_event', { summary: 'Call with Ana', start_datetime: '2026-03-30T15:00:00+01:00', event_duration_hour: 1, timezone: 'Europe/Paris' })) as {
      violations?: unknown[];
    };
    expect(error.violations).toEqual([
      {
        pointer: '/start_datetime',
        keyword: 'check',
        message:
          'start_datetime 2026-03-30T15:00:00+01:00 has the offset +01:00, but Europe/Paris is at +02:00 on that date: for 15:00 in Europe/Paris send 2026-03-30T15:00:00+02:00; for the instant given, 2026-03-30T16:00:00+02:00',
      },
    ]);
    // UTC given with a zone is read the same way; the zone's own offset is taken, in winter and in summer.
    expect(errorOf(await call('calendar_create_event', { summary: 'Call with Ana', start_datetime: '2026-07-01T15:00:00Z', timezone: 'Europe/Paris' })).message).toContain(
      'for 15:00 in Europe/Paris send 2026-07-01T15:00:00+02:00; for the instant given, 2026-07-01T17:00:00+02:00',
    );
    for (const start_datetime of ['2026-03-30T15:00:00+02:00', '2026-01-12T15:00:00+01:00']) {
      const made = await call('calendar_create_event', { summary: 'Call with Ana', start_datetime, event_duration_hour: 1, timezone: 'Europe/Paris' });
      expect((made.structuredContent as { start: { dateTime: string } }).start.dateTime).toBe(start_datetime);
    }
    // Without a zone, the offset given is the only one there is.
    expect((await call('calendar_create_event', { summary: 'Call with Ana', start_datetime: '2026-07-01T15:00:00Z' })).isError).toBeFalsy();
  });

  it('calendar_update_event refuses the same start, and an end, by the same rule; a start alone keeps the length in its own offset', async () => {
    const made = await call('calendar_create_event', { summary: 'Call with Ana', start_datetime: '2026-03-26T15:00:00+01:00', event_duration_hour: 1, timezone: 'Europe/Paris' });
    const event_id = (made.structuredContent as { id: string }).id;
    const move = (args: Record<string, unknown>) => call('calendar_update_event', { calendar_id: 'primary', event_id, timezone: 'Europe/Paris', ...args });
    // A start alone: refused on the caller's input, before the event is read for its length.
    expect((errorOf(await move({ start_datetime: '2026-03-30T15:00:00+01:00' })) as { violations?: unknown[] }).violations).toEqual([
      {
        pointer: '/start_datetime',
        keyword: 'check',
        message:
          'start_datetime 2026-03-30T15:00:00+01:00 has the offset +01:00, but Europe/Paris is at +02:00 on that date: for 15:00 in Europe/Paris send 2026-03-30T15:00:00+02:00; for the instant given, 2026-03-30T16:00:00+02:00',
      },
    ]);
    // The end is in the zone too: written with the winter offset, it is refused at /end_datetime the same way.
    expect((errorOf(await move({ start_datetime: '2026-03-30T15:00:00+02:00', end_datetime: '2026-03-30T16:00:00+01:00' })) as { violations?: unknown[] }).violations).toEqual([
      {
        pointer: '/end_datetime',
        keyword: 'check',
        message:
          'end_datetime 2026-03-30T16:00:00+01:00 has the offset +01:00, but Europe/Paris is at +02:00 on that date: for 16:00 in Europe/Paris send 2026-03-30T16:00:00+02:00; for the instant given, 2026-03-30T17:00:00+02:00',
      },
    ]);
    // With the zone's offset, a start alone moves the hour-long event across the change and keeps its length.
    const moved = await move({ start_datetime: '2026-03-30T15:00:00+02:00' });
    expect(moved.isError, JSON.stringify(moved.content)).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({ start: { dateTime: '2026-03-30T15:00:00+02:00' }, end: { dateTime: '2026-03-30T16:00:00+02:00' } });
  });
});

describe('crm: deals closing before a date said in words', () => {
  it('a date filter value in words is refused with the forms a date takes, instead of a search that matches every deal', async () => {
    const search = (value: unknown, highValue?: unknown) =>
      call('crm_deals_search', { filterGroups: [{ filters: [{ propertyName: 'closedate', operator: highValue === undefined ? 'LT' : 'BETWEEN', value, ...(highValue === undefined ? {} : { highValue }) }] }], properties: 'dealname,closedate' });
    const error = errorOf(await search('March 31, 2026')) as { violations?: unknown[] };
    expect(error.violations).toEqual([
      {
        pointer: '/filterGroups/0/filters/0/value',
        keyword: 'format',
        message: 'filterGroups[0].filters[0].value must be a date for closedate: YYYY-MM-DD (2026-03-31), an ISO 8601 date-time or epoch milliseconds, not "March 31, 2026"',
      },
    ]);
    expect((errorOf(await search('2026-01-01', 'end of March')) as { violations?: Array<{ pointer: string }> }).violations?.map((v) => v.pointer)).toEqual(['/filterGroups/0/filters/0/highValue']);
    // Sent as a date, the search answers only the deals closing before it.
    const closing = (await search('2026-03-31')).structuredContent as { results: Array<{ properties: { closedate: string } }> };
    expect(closing.results.length).toBeGreaterThan(0);
    for (const deal of closing.results) expect(deal.properties.closedate < '2026-03-31').toBe(true);
    expect((await search(Date.UTC(2026, 2, 31))).isError).toBeFalsy();
  });
});

describe('what a model reads before a call whose wrong first try would not fail', () => {
  it('sheets: a zip code written as typed loses its leading zero; the values parameter says so, and the apostrophe that keeps it', async () => {
    const tools = (await c.listTools()).tools;
    for (const name of ['sheets_append_values', 'sheets_update_values']) {
      const values = (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { description: string }>).values!;
      expect(values.description).toContain(`With USER_ENTERED a text that reads as a number or a date is stored as one ("01234" becomes 1234): start it with an apostrophe to keep it text ("'01234").`);
    }
    const book = await call('sheets_create_spreadsheet', { title: 'Leads', sheets: [{ properties: { title: 'Leads' } }] });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    await call('sheets_append_values', { spreadsheet_id, range: 'Leads', values: [['Ana', '01234', "'01234"]] });
    const read = await call('sheets_get_values', { spreadsheet_id, range: 'Leads', value_render_option: 'UNFORMATTED_VALUE' });
    expect((read.structuredContent as { values: unknown[][] }).values).toEqual([['Ana', 1234, '01234']]);
  });

  it("crm: contacts at a domain need the wildcard, which the filterGroups parameter shows; without it the search finds none", async () => {
    const listed = (await c.listTools()).tools.find((t) => t.name === 'crm_contacts_search')!;
    expect((listed.inputSchema.properties as Record<string, { description: string }>).filterGroups!.description).toContain(
      'Contacts at a domain: `{"propertyName": "email", "operator": "CONTAINS_TOKEN", "value": "*@acme.com"}`',
    );
    const at = async (value: string) =>
      ((await call('crm_contacts_search', { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value }] }], properties: 'email' })).structuredContent as { total: number }).total;
    expect(await at('northwind.example')).toBe(0);
    expect(await at('*@northwind.example')).toBeGreaterThan(0);
  });
});

describe('docs: a title styled big, red and linked, the way CSS writes it', () => {
  it('a font size as a number, a colour as hex or a link as a string is refused with the object to send; sent so, the style applies', async () => {
    const created = await call('docs_create_document', { title: 'Launch' });
    const document_id = (created.structuredContent as { documentId: string }).documentId;
    await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Launch plan\n' } }] });
    const style = (textStyle: Record<string, unknown>, fields: string) => call('docs_update_document', { document_id, requests: [{ updateTextStyle: { range: { startIndex: 1, endIndex: 7 }, textStyle, fields } }] });
    const size = errorOf(await style({ fontSize: 18 }, 'fontSize'));
    expect(size.message).toContain(`Invalid value at 'requests[0].update_text_style.text_style.font_size' (type.googleapis.com/google.apps.docs.v1.Dimension), 18`);
    expect(size.details?.hint).toMatch(/"fontSize": \{"magnitude": 18, "unit": "PT"\}/);
    const colour = errorOf(await style({ foregroundColor: '#ff0000' }, 'foregroundColor'));
    expect(colour.message).toContain(`Invalid value at 'requests[0].update_text_style.text_style.foreground_color' (type.googleapis.com/google.apps.docs.v1.OptionalColor), "#ff0000"`);
    expect(colour.details?.hint).toMatch(/"foregroundColor": \{"color": \{"rgbColor": \{"red": 1, "green": 0, "blue": 0\}\}\}/);
    const link = errorOf(await style({ link: 'https://example.com' }, 'link'));
    expect(link.details?.hint).toMatch(/"link": \{"url": "https:\/\/example.com"\}/);
    expect(
      (await style({ fontSize: { magnitude: 18, unit: 'PT' }, foregroundColor: { color: { rgbColor: { red: 1, green: 0, blue: 0 } } }, link: { url: 'https://example.com' } }, 'fontSize,foregroundColor,link')).isError,
    ).toBeFalsy();
    const run = ((await call('docs_read_document', { document_id })).structuredContent as { body: { content: Array<{ paragraph?: { elements: Array<{ textRun?: { textStyle: Record<string, unknown> } }> } }> } }).body.content[1]!.paragraph!.elements[0]!.textRun!;
    expect(run.textStyle).toMatchObject({ fontSize: { magnitude: 18, unit: 'PT' }, link: { url: 'https://example.com' } });
  });
});

describe('crm: a company given by its website address', () => {
  it('a URL as the domain is refused when the company is made and when it is searched, so no duplicate hides from the search', async () => {
    const made = errorOf(await call('crm_company_create', { name: 'Acme', domain: 'https://www.acme.com/' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(made.violations?.map((v) => v.pointer)).toEqual(['/domain']);
    expect(made.violations?.[0]?.message).toContain('e.g. "acme.com"');
    const searched = errorOf(await call('crm_companies_search', { filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: 'https://acme.com/about' }] }] })) as { violations?: unknown[] };
    expect(searched.violations).toEqual([
      { pointer: '/filterGroups/0/filters/0/value', keyword: 'format', message: 'filterGroups[0].filters[0].value must be a domain alone for domain, without protocol or path: "acme.com", not "https://acme.com/about"' },
    ]);
    expect((await call('crm_company_create', { name: 'Acme', domain: 'acme.com' })).isError).toBeFalsy();
    const found = await call('crm_companies_search', { filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: 'acme.com' }] }], properties: 'name,domain' });
    expect((found.structuredContent as { total: number }).total).toBe(1);
  });
});

describe('docs: text inserted and styled in one request object', () => {
  it("two kinds in one item of requests is refused in Google's words, with the two items to send", async () => {
    const created = await call('docs_create_document', { title: 'Memo' });
    const document_id = (created.structuredContent as { documentId: string }).documentId;
    const insertText = { location: { index: 1 }, text: 'Memo\n' };
    const updateTextStyle = { range: { startIndex: 1, endIndex: 5 }, textStyle: { bold: true }, fields: 'bold' };
    const error = errorOf(await call('docs_update_document', { document_id, requests: [{ insertText, updateTextStyle }] }));
    expect(error.message).toContain(`Invalid value at 'requests[0]' (oneof), oneof field 'request' is already set. Cannot set 'updateTextStyle'`);
    expect(error.details?.hint).toMatch(/Each item of requests holds one request: \[\{"insertText": \{\.\.\.\}\}, \{"updateTextStyle": \{\.\.\.\}\}\], two items/);
    expect((await call('docs_update_document', { document_id, requests: [{ insertText }, { updateTextStyle }] })).isError).toBeFalsy();
  });
});

describe('crm: a record updated with its properties at the top', () => {
  it('a deal or contact property sent beside properties/props is told it goes inside; sent there, it is changed', async () => {
    const deal_id = ((await call('crm_deal_create', { dealname: 'Acme pilot', amount: 1000, dealstage: 'appointmentscheduled' })).structuredContent as { id: string }).id;
    const deal = errorOf(await call('crm_deal_update', { deal_id, dealstage: 'closedwon', amount: 1200 })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(deal.violations?.filter((v) => v.pointer !== '/properties')).toEqual([
      { pointer: '/dealstage', keyword: 'additionalProperties', message: `unknown parameter 'dealstage'. It goes inside properties: {"properties": {"dealstage": ...}}` },
      { pointer: '/amount', keyword: 'additionalProperties', message: `unknown parameter 'amount'. It goes inside properties: {"properties": {"amount": ...}}` },
    ]);
    const moved = await call('crm_deal_update', { deal_id, properties: { dealstage: 'closedwon', amount: 1200 } });
    expect((moved.structuredContent as { properties: Record<string, string> }).properties).toMatchObject({ dealstage: 'closedwon', amount: '1200' });
    const contact_id = ((await call('crm_contact_create', { email: 'li@acme.example' })).structuredContent as { id: string }).id;
    const contact = errorOf(await call('crm_contact_update', { contact_id, phone: '+33 6 12 34 56 78' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(contact.violations?.find((v) => v.pointer === '/phone')?.message).toBe(`unknown parameter 'phone'. It goes inside props: {"props": {"phone": ...}}`);
    // Any other property name is still taken inside, as HubSpot judges it.
    expect((await call('crm_contact_update', { contact_id, props: { phone: '+33 6 12 34 56 78', city: 'Lyon' } })).isError).toBeFalsy();
  });
});

describe('workspace: action items appended as checked to-dos', () => {
  it('a to-do checked given as text is refused in Notion\'s words instead of stored unchecked; a boolean is kept', async () => {
    const block_id = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const todo = (checked: unknown) => ({ type: 'to_do', to_do: { rich_text: [{ text: { content: 'Send the minutes' } }], checked } });
    for (const tool of ['workspace_page_append', 'workspace_page_create']) {
      const args = tool === 'workspace_page_append' ? { block_id } : { parent_page_id: block_id, properties: { title: { title: [{ text: { content: 'Minutes' } }] } } };
      const error = errorOf(await call(tool, { ...args, child_blocks: [todo('true')] }));
      expect(error.message).toContain('body.children[0].to_do.checked should be a boolean, instead was `"true"`.');
    }
    const added = await call('workspace_page_append', { block_id, child_blocks: [todo(true)] });
    expect((added.structuredContent as { results: Array<{ to_do: { checked: boolean } }> }).results[0]!.to_do.checked).toBe(true);
  });
});

describe("calendar: attendees told of the change in Google's own words", () => {
  it('send_updates given as Google\'s "all" is told what true and false do', async () => {
    const event_id = ((await call('calendar_create_event', { summary: 'Review', start_datetime: '2026-12-02T10:00:00Z' })).structuredContent as { id: string }).id;
    const error = errorOf(await call('calendar_update_event', { calendar_id: 'primary', event_id, summary: 'Review (moved room)', send_updates: 'all' })) as { violations?: Array<{ message: string }> };
    expect(error.violations?.[0]?.message).toBe(
      'send_updates must be a boolean (true to e-mail the attendees about the change (sendUpdates=all); false for no e-mails (sendUpdates=none); omitted, none are asked for (Google may still send some))',
    );
    expect((await call('calendar_update_event', { calendar_id: 'primary', event_id, summary: 'Review (moved room)', send_updates: true })).isError).toBeFalsy();
  });
});

describe('workspace: a block type Notion does not have', () => {
  it("a list item written as a bullet, or a heading_5, is refused in Notion's words with the types to use", async () => {
    const block_id = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const block = (type: string) => ({ type, [type]: { rich_text: [{ text: { content: 'Hire two engineers' } }] } });
    for (const [tool, type] of [['workspace_page_append', 'bullet'], ['workspace_page_create', 'heading_5']] as const) {
      const args = tool === 'workspace_page_append' ? { block_id } : { parent_page_id: block_id, properties: { title: { title: [{ text: { content: 'Plan' } }] } } };
      const error = errorOf(await call(tool, { ...args, child_blocks: [block(type)] }));
      expect(error.message).toContain('body failed validation. Fix one:\nbody.children[0].embed should be defined, instead was `undefined`.\n');
      // The service shortens a long upstream message; the hint names the types the cut-off list would have.
      expect(error.details?.hint).toMatch(/when a block is of none of them: text blocks are paragraph, heading_1, heading_2, heading_3, bulleted_list_item, numbered_list_item, to_do, toggle, quote, callout, code/);
    }
    const added = await call('workspace_page_append', { block_id, child_blocks: [block('bulleted_list_item')] });
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
  });
});

describe('calendar: one meeting of a weekly series moved, another cancelled', () => {
  it('an instance id that calendar_list_events gives is read, moved and deleted as Google takes it; the rest of the series stays', async () => {
    const series = await call('calendar_create_event', {
      summary: '1:1 Bob / Mo',
      start_datetime: '2026-12-04T10:00:00Z',
      timezone: 'UTC',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      attendees_emails: ['bob@example.com'],
    });
    const series_id = (series.structuredContent as { id: string }).id;
    const week = async (time_min: string, time_max: string) =>
      ((await call('calendar_list_events', { time_min, time_max, single_events: true, order_by: 'startTime', query: '1:1 Bob' })).structuredContent as {
        items: Array<{ id: string; start: { dateTime: string }; end: { dateTime: string }; recurringEventId?: string; originalStartTime?: { dateTime: string } }>;
      }).items;
    // "Move Friday's 1:1 to Monday, same time": the Friday instance, by the id the listing gives.
    const [friday] = await week('2026-12-04T00:00:00Z', '2026-12-05T00:00:00Z');
    expect(friday!.id).toBe(`${series_id}_20261204T100000Z`);
    const moved = await call('calendar_update_event', { calendar_id: 'primary', event_id: friday!.id, start_datetime: '2026-12-07T10:00:00Z' });
    expect(moved.isError, JSON.stringify(moved.content)).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({
      id: friday!.id,
      start: { dateTime: '2026-12-07T10:00:00Z' },
      end: { dateTime: '2026-12-07T10:30:00Z' },
      recurringEventId: series_id,
      originalStartTime: { dateTime: '2026-12-04T10:00:00Z' },
    });
    // "Cancel the one after": deleted by its instance id, read back as cancelled.
    const [next] = await week('2026-12-11T00:00:00Z', '2026-12-12T00:00:00Z');
    expect((await call('calendar_delete_event', { event_id: next!.id })).isError).toBeFalsy();
    expect(((await call('calendar_get_event_by_id', { event_id: next!.id, show_deleted: true })).structuredContent as { status: string }).status).toBe('cancelled');
    // The series keeps its other meetings; the moved one is on Monday, the cancelled one is gone.
    const starts = (await week('2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z')).map((e) => e.start.dateTime);
    expect(starts).toEqual(['2026-12-07T10:00:00Z', '2026-12-18T10:00:00Z', '2026-12-25T10:00:00Z']);
    const busy = (await call('calendar_free_busy', { time_min: '2026-12-04T00:00:00Z', time_max: '2026-12-12T00:00:00Z' })).structuredContent as {
      calendars: { primary: { busy: Array<{ start: string }> } };
    };
    expect(busy.calendars.primary.busy.map((b) => b.start)).toEqual(['2026-12-07T10:00:00Z']);
  });
});

describe('crm: a deal for a company, before anyone has said what it is worth', () => {
  it('is made without an amount, which stays empty, instead of the model making one up to pass the schema', async () => {
    const listed = (await c.listTools()).tools.find((t) => t.name === 'crm_deal_create')!;
    expect(listed.inputSchema.required).toEqual(['dealname', 'dealstage']);
    const deal = await call('crm_deal_create', { dealname: 'Northwind - demo', dealstage: 'appointmentscheduled', company_ids: ['20001'] });
    expect(deal.isError, JSON.stringify(deal.content)).toBeFalsy();
    expect((deal.structuredContent as { properties: Record<string, unknown> }).properties).not.toHaveProperty('amount');
  });
});

describe('workspace: a summary added under a heading of a page', () => {
  it("the tool says a heading holds no blocks and how to write under one; sent so, the paragraph ends the heading's section", async () => {
    const listed = (await c.listTools()).tools.find((t) => t.name === 'workspace_page_append')!;
    expect(listed.description?.replace(/\s+/g, ' ')).toContain(
      'Under a heading ("add it under Notes"): block_id is the page and after_block_id the last block of that heading\'s section, since a heading holds no blocks (only a toggle heading does).',
    );
    expect((listed.inputSchema.properties as Record<string, { description: string }>).block_id!.description).toContain('not a heading: to add under one, give its page and after_block_id');
    const made = await call('workspace_page_create', {
      parent_page_id: ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ id: string }> }).results[0]!.id,
      properties: { title: { title: [{ text: { content: 'Kickoff' } }] } },
      child_blocks: ['Notes', 'Kickoff went well.', 'Links'].map((text, i) => ({ type: i === 1 ? 'paragraph' : 'heading_2', [i === 1 ? 'paragraph' : 'heading_2']: { rich_text: [{ text: { content: text } }] } })),
    });
    const page_id = (made.structuredContent as { id: string }).id;
    const read = async () => ((await call('workspace_page_read', { block_id: page_id })).structuredContent as { results: Array<{ id: string; type: string; [k: string]: unknown }> }).results;
    const section = await read();
    const added = await call('workspace_page_append', { block_id: page_id, after_block_id: section[1]!.id, child_blocks: [{ type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'Summary: scope agreed.' } }] } }] });
    expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
    const text = (b: { type: string; [k: string]: unknown }) => (b[b.type] as { rich_text: Array<{ plain_text: string }> }).rich_text.map((t) => t.plain_text).join('');
    expect((await read()).map(text)).toEqual(['Notes', 'Kickoff went well.', 'Summary: scope agreed.', 'Links']);
  });
});

describe('calendar: which id moves one meeting of a series', () => {
  it("the update and delete tools say an instance id names one meeting and the series' id all of them", async () => {
    const tools = (await c.listTools()).tools;
    const eventId = (name: string) => ((tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { description: string }>).event_id!.description);
    expect(tools.find((t) => t.name === 'calendar_update_event')!.description?.replace(/\s+/g, ' ')).toContain('One meeting of a recurring series: see event_id.');
    expect(eventId('calendar_update_event')).toContain("for one meeting of a recurring series, its instance id (calendar_list_events with single_events true), since the series' id changes them all");
    expect(tools.find((t) => t.name === 'calendar_delete_event')!.description?.replace(/\s+/g, ' ')).toContain(
      "for one meeting of a recurring series, its instance id (calendar_list_events with single_events true), since the series' id deletes them all",
    );
    expect(eventId('calendar_delete_event')).toContain("a recurring series' id deletes every meeting of it, an instance id (calendar_list_events with single_events true) that one");
  });
});

describe("workspace: a Notion filter", () => {
  it('workspace_search, which has none, says what to send instead; workspace_database_query takes it as Notion writes it', async () => {
    const found = await call('workspace_search', { query: 'Tasks', filter: { property: 'object', value: 'database' } });
    expect((errorOf(found) as { violations?: unknown[] }).violations).toEqual([
      {
        pointer: '/filter',
        keyword: 'additionalProperties',
        message: "unknown parameter 'filter': the tool has no filter. It finds pages and databases together, by title: send query alone and keep the results whose object is the one wanted (page or database).",
      },
    ]);
    const database_id = ((await call('workspace_search', { query: 'Tasks' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'database')!.id;
    // "Tasks not done": the filter the description shows, sent as a model writes it, is one call.
    type Rows = { results: Array<{ properties: { Done: { checkbox: boolean }; Due: { date: { start: string } | null } } }> };
    const all = (await call('workspace_database_query', { database_id })).structuredContent as Rows;
    const open = await call('workspace_database_query', { database_id, filter: { property: 'Done', checkbox: { equals: false } } });
    expect(open.isError).toBeFalsy();
    const rows = (open.structuredContent as Rows).results;
    expect(rows.length).toBe(all.results.filter((r) => r.properties.Done.checkbox === false).length);
    expect(rows.every((r) => r.properties.Done.checkbox === false)).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(all.results.length);
    // A condition under the wrong column type is refused before sending, written the right way.
    const wrong = errorOf(await call('workspace_database_query', { database_id, filter: { property: 'Done', select: { equals: 'false' } } }));
    expect((wrong as { violations?: Array<{ pointer: string; message: string }> }).violations?.[0]).toMatchObject({ pointer: '/filter/select', message: expect.stringContaining('checkbox') });
    // A name near a parameter is still guessed.
    expect(((errorOf(await call('workspace_search', { querry: 'Tasks' })) as { violations?: Array<{ message: string }> }).violations?.[0]?.message)).toBe("unknown parameter 'querry'. Did you mean 'query'?");
  });
});

describe('sheets: rows written to a tab that does not exist yet', () => {
  it('is told to add the tab with sheets_add_sheet first; done so, the write lands there', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Team' });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    const rows = [['Date', 'Meeting'], ['2026-11-26', 'Design review']];
    for (const tool of ['sheets_update_values', 'sheets_append_values']) {
      const error = errorOf(await call(tool, { spreadsheet_id, range: "'Week 48'!A1", values: rows }));
      expect(error.message).toContain(`Unable to parse range: 'Week 48'!A1`);
      expect(error.details?.hint).toMatch(/^range names a sheet this spreadsheet does not have, and a write makes none: for a new tab, add it first with sheets_add_sheet, then write to it;/);
    }
    expect((await call('sheets_add_sheet', { spreadsheet_id, title: 'Week 48' })).isError).toBeFalsy();
    expect((await call('sheets_update_values', { spreadsheet_id, range: "'Week 48'!A1", values: rows })).isError).toBeFalsy();
    expect(((await call('sheets_get_values', { spreadsheet_id, range: "'Week 48'" })).structuredContent as { values: unknown }).values).toEqual(rows);
  });
});

describe("workspace: a page made with its title and text at the top", () => {
  it('is told where each goes (title in properties, text in child_blocks), with the shapes; sent so, the page has both', async () => {
    const parent_page_id = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const error = errorOf(await call('workspace_page_create', { parent_page_id, title: 'Meeting notes', content: 'Agenda: hiring, budget.' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(error.violations?.map((v) => v.message)).toEqual([
      `unknown parameter 'title': the tool has no title. The title goes in properties, as Notion's title value: {"properties": {"title": {"title": [{"text": {"content": "Meeting notes"}}]}}}.`,
      `unknown parameter 'content': the tool has no content. The page's text goes in child_blocks, Notion block objects, e.g. [{"type": "paragraph", "paragraph": {"rich_text": [{"text": {"content": "Hello"}}]}}]; a heading_2, bulleted_list_item or to_do is written the same way.`,
    ]);
    // Never "It goes inside properties" for the text: the title's example in properties' description names content.
    for (const key of ['text', 'markdown']) {
      const other = errorOf(await call('workspace_page_create', { parent_page_id, properties: { title: { title: [{ text: { content: 'Notes' } }] } }, [key]: 'Hello' })) as { violations?: Array<{ message: string }> };
      expect(other.violations?.[0]?.message).toMatch(new RegExp(`^unknown parameter '${key}': the tool has no ${key}\\. The page's text goes in child_blocks`));
    }
    const appended = errorOf(await call('workspace_page_append', { block_id: parent_page_id, content: 'Agenda: hiring, budget.' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(appended.violations?.find((v) => v.pointer === '/content')?.message).toMatch(/^unknown parameter 'content': the tool has no content\. The text goes in child_blocks, Notion block objects, e\.g\. \[\{"type": "paragraph"/);
    const made = await call('workspace_page_create', {
      parent_page_id,
      properties: { title: { title: [{ text: { content: 'Meeting notes' } }] } },
      child_blocks: [{ type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'Agenda: hiring, budget.' } }] } }],
    });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
  });
});

describe('calendar: a meeting made with its end time, as Google writes one', () => {
  it('end_datetime (or end) is told the two duration parameters to send instead; sent so, the event ends there', async () => {
    const told = "The length is event_duration_hour plus event_duration_minutes (15:00 to 16:30: event_duration_hour 1, event_duration_minutes 30); without them the event lasts 30 minutes.";
    for (const end of [{ end_datetime: '2026-12-03T16:30:00Z' }, { end: { dateTime: '2026-12-03T16:30:00Z' } }]) {
      const error = errorOf(await call('calendar_create_event', { summary: 'Roadmap review', start_datetime: '2026-12-03T15:00:00Z', ...end })) as { violations?: unknown[] };
      const key = Object.keys(end)[0]!;
      expect(error.violations).toEqual([{ pointer: `/${key}`, keyword: 'additionalProperties', message: `unknown parameter '${key}': the tool has no ${key}. ${told}` }]);
    }
    const made = await call('calendar_create_event', { summary: 'Roadmap review', start_datetime: '2026-12-03T15:00:00Z', event_duration_hour: 1, event_duration_minutes: 30 });
    expect((made.structuredContent as { end: { dateTime: string } }).end.dateTime).toBe('2026-12-03T16:30:00Z');
  });
});

describe('workspace: a page read, written or its comments listed by page_id', () => {
  it('is told that a page is a block and its id goes in block_id; sent so, each call answers', async () => {
    const page_id = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'page')!.id;
    const blocks = [{ type: 'paragraph', paragraph: { rich_text: [{ text: { content: 'Read me' } }] } }];
    for (const [tool, rest] of [['workspace_page_read', {}], ['workspace_page_append', { child_blocks: blocks }], ['workspace_comments_list', {}]] as const) {
      const error = errorOf(await call(tool, { page_id, ...rest })) as { violations?: Array<{ pointer: string; message: string }> };
      expect(error.violations?.find((v) => v.pointer === '/page_id')?.message).toBe("unknown parameter 'page_id': the tool has no page_id. A page is a block: send the page's id as block_id.");
      const done = await call(tool, { block_id: page_id, ...rest });
      expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
    }
  });
});

describe('docs: a document made with its text in one call', () => {
  it('is told the document is made empty and how docs_update_document adds the text; done so, the text is there', async () => {
    const made = errorOf(await call('docs_create_document', { title: 'Agenda', content: 'Agenda\n- Hiring\n- Budget' })) as { violations?: Array<{ message: string }> };
    expect(made.violations?.map((v) => v.message)).toEqual([
      `unknown parameter 'content': the tool has no content. Google makes the document empty, with its title alone: add the text afterwards with docs_update_document, e.g. {"requests": [{"insertText": {"location": {"index": 1}, "text": "Agenda\\n"}}]} on the documentId this returns.`,
    ]);
    const document_id = ((await call('docs_create_document', { title: 'Agenda' })).structuredContent as { documentId: string }).documentId;
    const text = errorOf(await call('docs_update_document', { document_id, text: 'Hiring, budget.' })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(text.violations?.find((v) => v.pointer === '/text')?.message).toBe(
      `unknown parameter 'text': the tool has no text. Text goes in requests, each item one request: [{"insertText": {"endOfSegmentLocation": {}, "text": "Hello"}}] adds it at the end of the body.`,
    );
    expect((await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Agenda\n' } }] })).isError).toBeFalsy();
    const body = ((await call('docs_read_document', { document_id })).structuredContent as { body: { content: Array<{ paragraph?: { elements: Array<{ textRun?: { content: string } }> } }> } }).body.content;
    expect(body.flatMap((e) => e.paragraph?.elements.map((x) => x.textRun?.content) ?? [])[0]).toBe('Agenda\n');
  });
});

describe('sheets: a spreadsheet made with its rows in one call', () => {
  it('is told to write them with sheets_update_values once it exists; done so, they read back', async () => {
    const error = errorOf(await call('sheets_create_spreadsheet', { title: 'Team', values: [['Date', 'Meeting']] })) as { violations?: Array<{ message: string }> };
    expect(error.violations?.map((v) => v.message)).toEqual([
      `unknown parameter 'values': the tool has no values. Rows are written once the spreadsheet exists: sheets_update_values with its spreadsheetId, range 'Sheet1'!A1 (or the title given in sheets) and values as rows, e.g. [["Date", "Meeting"]].`,
    ]);
    const spreadsheet_id = ((await call('sheets_create_spreadsheet', { title: 'Team' })).structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect((await call('sheets_update_values', { spreadsheet_id, range: "'Sheet1'!A1", values: [['Date', 'Meeting']] })).isError).toBeFalsy();
    expect(((await call('sheets_get_values', { spreadsheet_id, range: 'Sheet1' })).structuredContent as { values: unknown }).values).toEqual([['Date', 'Meeting']]);
  });
});

describe('crm: deals or contacts searched by the stage a user names', () => {
  it('a stage label ("Closed Won", "Sales Qualified Lead") is refused with the ids to send, instead of a search that finds nothing', async () => {
    const deals = errorOf(await call('crm_deals_search', { filterGroups: [{ filters: [{ propertyName: 'dealstage', operator: 'EQ', value: 'Closed Won' }] }], properties: 'dealname,dealstage' })) as { violations?: unknown[] };
    expect(deals.violations).toEqual([
      {
        pointer: '/filterGroups/0/filters/0/value',
        keyword: 'format',
        message: `filterGroups[0].filters[0].value must be a stage's id for dealstage (closedwon, appointmentscheduled; digits for a custom stage), not its label "Closed Won": crm_deal_pipelines_list lists the ids`,
      },
    ]);
    const contacts = errorOf(await call('crm_contacts_search', { filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['customer', 'Sales Qualified Lead'] }] }] })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(contacts.violations?.map((v) => v.pointer)).toEqual(['/filterGroups/0/filters/0/values/1']);
    expect(contacts.violations?.[0]?.message).toMatch(/must be an internal value for lifecyclestage \(subscriber, lead, marketingqualifiedlead, salesqualifiedlead, .*\), not its label "Sales Qualified Lead"$/);
    // Sent as ids, the searches find the records: an id passes the check, and only deals at that stage come back.
    const won = await call('crm_deals_search', { filterGroups: [{ filters: [{ propertyName: 'dealstage', operator: 'EQ', value: 'closedwon' }] }], properties: 'dealname,dealstage' });
    expect(won.isError, JSON.stringify(won.content)).toBeFalsy();
    const wonDeals = won.structuredContent as { total: number; results: Array<{ properties: { dealstage: string } }> };
    expect(wonDeals.total).toBeGreaterThan(0);
    expect(wonDeals.results.map((r) => r.properties.dealstage)).toEqual(wonDeals.results.map(() => 'closedwon'));
    expect(wonDeals.results.length).toBeGreaterThan(0);
  });
});

describe('crm: record ids given as numbers', () => {
  it('are told to send the same id quoted, as HubSpot ids are strings; sent so, the note is logged', async () => {
    const error = errorOf(await call('crm_note_create', { note_body: 'Wants a demo next week.', contact_ids: [101] })) as { violations?: unknown[] };
    expect(error.violations).toEqual([{ pointer: '/contact_ids/0', keyword: 'type', message: 'contact_ids[0] must be a string, not the number 101: send "101"' }]);
    const read = errorOf(await call('crm_contact_get', { contact_id: 101 })) as { violations?: Array<{ message: string }> };
    expect(read.violations?.[0]?.message).toBe('contact_id must be a string, not the number 101: send "101"');
    expect((await call('crm_note_create', { note_body: 'Wants a demo next week.', contact_ids: ['101'] })).isError).toBeFalsy();
  });
});

describe('ids copied with the quotes around them, or as the record\'s address', () => {
  it('a HubSpot id in quotes or as its record URL is refused before sending, with the id to send, not a 404 saying no such contact', async () => {
    const quoted = errorOf(await call('crm_contact_get', { contact_id: '"101"' })) as { code: string; violations?: Array<{ message: string }> };
    expect(quoted.code).toBe('invalid_input');
    expect(quoted.violations?.[0]?.message).toBe('contact_id must match the pattern ^[0-9]+$; it is wrapped in quotes: send 101');
    const address = errorOf(await call('crm_contact_get', { contact_id: 'https://app.hubspot.com/contacts/4455/record/0-1/101' })) as { violations?: Array<{ message: string }> };
    expect(address.violations?.[0]?.message).toBe('contact_id must match the pattern ^[0-9]+$; send the id alone, not the address holding it: 101');
    const note = errorOf(await call('crm_note_create', { note_body: 'Called back.', contact_ids: ['“101”'] })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(note.violations).toEqual([{ pointer: '/contact_ids/0', keyword: 'pattern', message: 'contact_ids[0] must match the pattern ^[0-9]+$; it is wrapped in quotes: send 101' }]);
    const deal = errorOf(await call('crm_deal_update', { deal_id: '`30001`', properties: { amount: '100' } })) as { violations?: Array<{ message: string }> };
    expect(deal.violations?.[0]?.message).toMatch(/it is wrapped in quotes: send 30001$/);
    // Sent as told, the contact is read.
    expect((await call('crm_contact_get', { contact_id: '101' })).isError).toBeFalsy();
  });

  it('a Notion page id or an A1 range in quotes is told the same, after what the format takes', async () => {
    const page = errorOf(await call('workspace_page_update', { page_id: '"59833787-2cf9-4fdf-8782-e53db20768a5"', in_trash: true })) as { violations?: Array<{ message: string }> };
    expect(page.violations?.[0]?.message).toBe('page_id must be a hyphenated UUID, a 32-hex id, or a page/database URL ending in one; it is wrapped in quotes: send 59833787-2cf9-4fdf-8782-e53db20768a5');
    const book = await call('sheets_create_spreadsheet', { title: 'Budget €' });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    const range = errorOf(await call('sheets_update_values', { spreadsheet_id, range: '"Sheet1!A5"', values: [['Ü']] })) as { violations?: Array<{ message: string }> };
    expect(range.violations?.[0]?.message).toMatch(/^range must be an A1 range, .*; it is wrapped in quotes: send Sheet1!A5$/);
    expect((await call('sheets_update_values', { spreadsheet_id, range: 'Sheet1!A5', values: [['Ü']] })).isError).toBeFalsy();
  });
});

describe('workspace: a 5,000-character summary appended, then kept in a row', () => {
  it("Notion's 2,000-character refusal says to split the text into items of one rich_text list; split so, all of it is kept", async () => {
    const found = await call('workspace_search', { query: 'Tasks' });
    const database = (found.structuredContent as { results: Array<{ object: string; id: string; parent: { page_id: string } }> }).results.find((r) => r.object === 'database')!;
    const text = 'Compte rendu de la réunion 🚀 — '.repeat(160);
    expect(text.length).toBeGreaterThan(5000);
    const paragraph = (rich_text: unknown[]) => [{ type: 'paragraph', paragraph: { rich_text } }];
    const appended = errorOf(await call('workspace_page_append', { block_id: database.parent.page_id, child_blocks: paragraph([{ text: { content: text } }]) }));
    expect(appended.message).toContain('text.content.length should be ≤ `2000`');
    expect(appended.details?.hint).toMatch(/^A rich-text item holds at most 2,000 characters: split a longer text into several items of one rich_text list/);
    const parts = [text.slice(0, 2000), text.slice(2000, 4000), text.slice(4000)].map((content) => ({ text: { content } }));
    expect((await call('workspace_page_append', { block_id: database.parent.page_id, child_blocks: paragraph(parts) })).isError).toBeFalsy();
    // A row's text property meets the same refusal and the same advice.
    const rows = await call('workspace_database_query', { database_id: database.id, page_size: 1 });
    const page_id = (rows.structuredContent as { results: Array<{ id: string }> }).results[0]!.id;
    const updated = errorOf(await call('workspace_page_update', { page_id, properties: { Notes: { rich_text: [{ text: { content: text } }] } } }));
    expect(updated.details?.hint).toMatch(/^A rich-text item holds at most 2,000 characters/);
    const kept = await call('workspace_page_update', { page_id, properties: { Notes: { rich_text: parts } } });
    expect(kept.isError).toBeFalsy();
    const notes = (kept.structuredContent as { properties: { Notes: { rich_text: Array<{ plain_text: string }> } } }).properties.Notes.rich_text;
    expect(notes.map((t) => t.plain_text).join('')).toBe(text);
  });
});

describe('calendar: every event of December, read page by page to the end', () => {
  it('page_token says to keep the other parameters; kept, each event comes once and the last page ends the list', async () => {
    const tool = (await c.listTools()).tools.find((t) => t.name === 'calendar_list_events')!;
    expect(tool.description).toContain('pass nextPageToken as page_token, with the same other parameters, for the next page');
    expect((tool.inputSchema.properties as Record<string, { description: string }>).page_token!.description).toMatch(/sent with the same other parameters as that call \(time_min, time_max, query, single_events, order_by\).*does not carry over to other parameters/);
    const made: string[] = [];
    for (const day of ['07', '08', '09']) {
      const event = await call('calendar_create_event', { summary: `Revue d'équipe 🗓️ ${day}`, start_datetime: `2026-12-${day}T09:00:00+01:00`, timezone: 'Europe/Paris' });
      made.push((event.structuredContent as { id: string }).id);
    }
    const window = { time_min: '2026-12-07T00:00:00+01:00', time_max: '2026-12-10T00:00:00+01:00', single_events: true, order_by: 'startTime', max_results: 1 };
    const seen: string[] = [];
    let page_token: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = (await call('calendar_list_events', { ...window, ...(page_token ? { page_token } : {}) })).structuredContent as { items: Array<{ id: string }>; nextPageToken?: string; nextSyncToken?: string };
      seen.push(...page.items.map((e) => e.id));
      page_token = page.nextPageToken;
      if (!page_token) {
        expect(page.nextSyncToken).toBeDefined();
        break;
      }
    }
    // The list ended (a page without nextPageToken), not the loop's bound.
    expect(page_token).toBeUndefined();
    // Other cases of this file may have meetings in the window too: each event comes once, the three made among them.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => made.includes(id))).toEqual(made);
  });
});

describe('an amount written the way a person writes it', () => {
  it('"1 500,50" or "$5,000" for a number is told to send a number in digits and a decimal point, not guessed; sent so, the deal is made', async () => {
    for (const amount of ['1 500,50', '$5,000', '12 €']) {
      const error = errorOf(await call('crm_deal_create', { dealname: 'Überholung 💶', dealstage: 'appointmentscheduled', amount })) as { violations?: unknown[] };
      expect(error.violations).toEqual([
        {
          pointer: '/amount',
          keyword: 'type',
          message: `amount must be a number, not the text ${JSON.stringify(amount)}: send a number without quotes, written with digits and a decimal point only, e.g. 1234.5 (no thousands separators, spaces or currency sign)`,
        },
      ]);
    }
    const count = errorOf(await call('calendar_list_events', { max_results: '1,000' })) as { violations?: Array<{ message: string }> };
    expect(count.violations?.[0]?.message).toBe('max_results must be an integer, not the text "1,000": send a number without quotes, written with digits only, e.g. 1234 (no thousands separators, spaces or currency sign)');
    const made = await call('crm_deal_create', { dealname: 'Überholung 💶', dealstage: 'appointmentscheduled', amount: 1500.5 });
    expect(made.isError).toBeFalsy();
    expect((made.structuredContent as { properties: { amount: string; dealname: string } }).properties).toMatchObject({ amount: '1500.5', dealname: 'Überholung 💶' });
  });
});

describe('calendar: a day off on Christmas Eve, asked as an all-day event', () => {
  it('all_day or start_date is told to give start_datetime as a date alone; sent so, the event is all-day on that date', async () => {
    for (const args of [{ all_day: true, start_datetime: '2026-12-24T00:00:00+01:00' }, { start_date: '2026-12-24' }]) {
      const error = errorOf(await call('calendar_create_event', { summary: 'Congé 🎄', ...args })) as { violations?: Array<{ pointer: string; message: string }> };
      const absent = error.violations?.find((v) => v.pointer === `/${Object.keys(args)[0]}`);
      expect(absent?.message).toMatch(/For an all-day event give start_datetime as a date alone \(YYYY-MM-DD, e\.g\. 2026-12-04\)/);
    }
    const made = await call('calendar_create_event', { summary: 'Congé 🎄', start_datetime: '2026-12-24' });
    expect(made.isError).toBeFalsy();
    const event = made.structuredContent as { summary: string; start: { date?: string; dateTime?: string }; end: { date?: string; dateTime?: string } };
    expect(event.summary).toBe('Congé 🎄');
    // Google's end date is the day after the last day.
    expect(event.start).toEqual({ date: '2026-12-24' });
    expect(event.end).toEqual({ date: '2026-12-25' });
  });
});

describe('sheets: a row added to the expense sheet, written as the header names it', () => {
  it('a row given as an object keyed by column is told to send the values alone, in order; sent so, the row is added', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Dépenses 2026', sheets: [{ properties: { title: 'November expenses' } }] });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect((await call('sheets_update_values', { spreadsheet_id, range: 'November expenses!A1', values: [['Date', 'Item', 'Amount'], ['2026-11-03', 'Taxi', 23.5]] })).isError).toBeFalsy();
    const row = { Date: '2026-11-20', Item: 'Train 🚆', Amount: 42 };
    const one = errorOf(await call('sheets_append_values', { spreadsheet_id, range: 'November expenses', values: [row] })) as { violations?: unknown[] };
    expect(one.violations).toEqual([
      { pointer: '/values/0', keyword: 'type', message: 'values[0] must be an array, not an object keyed by name (Date, Item, Amount): the names are not sent, only the values, in the order they go: ["2026-11-20","Train 🚆",42]' },
    ]);
    // The row alone, not inside a list: the list of rows to send.
    const bare = errorOf(await call('sheets_append_values', { spreadsheet_id, range: 'November expenses', values: row })) as { violations?: unknown[] };
    expect(bare.violations).toEqual([
      { pointer: '/values', keyword: 'type', message: 'values must be an array of arrays, not an object keyed by name (Date, Item, Amount): the names are not sent, only the values, in the order they go; for one, send [["2026-11-20","Train 🚆",42]]' },
    ]);
    expect((await call('sheets_append_values', { spreadsheet_id, range: 'November expenses', values: [['2026-11-20', 'Train 🚆', 42]] })).isError).toBeFalsy();
    const read = await call('sheets_get_values', { spreadsheet_id, range: "'November expenses'!A1:C" });
    expect((read.structuredContent as { values: unknown[][] }).values).toEqual([['Date', 'Item', 'Amount'], ['2026-11-03', 'Taxi', '23.5'], ['2026-11-20', 'Train 🚆', '42']]);
  });
});

describe('workspace: a reply to the comment just left on a page', () => {
  it("sent with the comment's id as discussion_id is told which field is the thread's id; sent so, the reply joins the thread", async () => {
    const found = await call('workspace_search', { query: 'Tasks' });
    const page_id = (found.structuredContent as { results: Array<{ object: string; parent: { page_id?: string } }> }).results.find((r) => r.object === 'database')!.parent.page_id!;
    const text = (content: string) => ({ rich_text: [{ type: 'text', text: { content } }] });
    const made = await call('workspace_comment_create', { parent: { page_id }, comment: text('Invitations went out on Monday 📨') });
    const comment = made.structuredContent as { id: string; discussion_id: string };
    expect(comment.id).not.toBe(comment.discussion_id);
    const reply = errorOf(await call('workspace_comment_create', { discussion_id: comment.id, comment: text('Merci !') }));
    expect(reply.details?.hint).toMatch(/discussion_id is a comment's discussion_id field, not its id/);
    const replied = await call('workspace_comment_create', { discussion_id: comment.discussion_id, comment: text('Merci !') });
    expect(replied.isError).toBeFalsy();
    const thread = await call('workspace_comments_list', { block_id: page_id });
    const mine = (thread.structuredContent as { results: Array<{ discussion_id: string; rich_text: Array<{ plain_text: string }> }> }).results.filter((c) => c.discussion_id === comment.discussion_id);
    expect(mine.map((c) => c.rich_text[0]!.plain_text)).toEqual(['Invitations went out on Monday 📨', 'Merci !']);
  });
});

describe("sheets: the total of column C, as a formula in the sheet", () => {
  it('=SUM(C:C) (a whole column) or =SUM(C2:C) is worked out, not #ERROR!; a total inside the column it sums is a circular reference', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Notes de frais', sheets: [{ properties: { title: 'November expenses' } }] });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    const rows = [['Date', 'Item', 'Amount'], ['2026-11-03', 'Taxi', '23.50'], ['2026-11-10', 'Hôtel', 180], ['2026-11-12', 'Lunch', 64.2]];
    expect((await call('sheets_update_values', { spreadsheet_id, range: 'November expenses!A1', values: rows })).isError).toBeFalsy();
    expect((await call('sheets_update_values', { spreadsheet_id, range: 'November expenses!E1', values: [['Total', 'From row 2'], ['=SUM(C:C)', '=SUM(C2:C)']] })).isError).toBeFalsy();
    const totals = await call('sheets_get_values', { spreadsheet_id, range: "'November expenses'!E2:F2", value_render_option: 'UNFORMATTED_VALUE' });
    expect((totals.structuredContent as { values: number[][] }).values[0]!.map((n) => Math.round(n * 100) / 100)).toEqual([267.7, 267.7]);
    // The total written under the amounts sums itself: Google answers #REF!, not a number.
    expect((await call('sheets_update_values', { spreadsheet_id, range: 'November expenses!C5', values: [['=SUM(C:C)']] })).isError).toBeFalsy();
    const circular = await call('sheets_get_values', { spreadsheet_id, range: 'November expenses!C5' });
    expect((circular.structuredContent as { values: string[][] }).values).toEqual([['#REF!']]);
  });
});

describe("sheets: a range without a sheet name, in a spreadsheet given by the address of one of its tabs", () => {
  it("the address's tab (#gid) not being the first is refused with the range naming it; the first tab's address, or the tab named, is read", async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Expenses 2026', sheets: [{ properties: { title: 'November expenses' } }] });
    const id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect((await call('sheets_update_values', { spreadsheet_id: id, range: 'November expenses!A1', values: [['Date', 'Item', 'Amount'], ['2026-11-03', 'Taxi', 23.5]] })).isError).toBeFalsy();
    const added = await call('sheets_add_sheet', { spreadsheet_id: id, title: "Décembre d'équipe" });
    const gid = (added.structuredContent as { replies: Array<{ addSheet: { properties: { sheetId: number } } }> }).replies[0]!.addSheet.properties.sheetId;
    const firstGid = (book.structuredContent as { sheets: Array<{ properties: { sheetId: number } }> }).sheets[0]!.properties.sheetId;
    // The address the user pastes while looking at the December tab.
    const address = `https://docs.google.com/spreadsheets/d/${id}/edit?gid=${gid}#gid=${gid}`;
    const read = errorOf(await call('sheets_get_values', { spreadsheet_id: address, range: 'A1:C2' })) as { code: string; violations?: unknown[] };
    expect(read.code).toBe('invalid_input');
    expect(read.violations).toEqual([
      {
        pointer: '/range',
        keyword: 'linked_tab',
        message: `range names no sheet, so it is on the first visible sheet, 'November expenses', but spreadsheet_id is the address of the tab 'Décembre d''équipe' (gid=${gid}): for that tab send 'Décembre d''équipe'!A1:C2 (for the first, 'November expenses'!A1:C2)`,
      },
    ]);
    const write = errorOf(await call('sheets_append_values', { spreadsheet_id: address, range: 'A1', values: [['2026-12-01', 'Taxi', 12]] })) as { violations?: Array<{ pointer: string; message: string }> };
    expect(write.violations?.[0]?.message).toMatch(/for that tab send 'Décembre d''équipe'!A1 /);
    const clear = errorOf(await call('sheets_clear_values', { spreadsheet_id: address, ranges: ["'Décembre d''équipe'!A5", 'A2:C'] })) as { violations?: Array<{ pointer: string }> };
    expect(clear.violations?.map((v) => v.pointer)).toEqual(['/ranges/1']);
    // Sent as told, the write lands on that tab; the first tab's address with no sheet name reads the first tab.
    expect((await call('sheets_append_values', { spreadsheet_id: address, range: "'Décembre d''équipe'!A1", values: [['2026-12-01', 'Taxi', 12]] })).isError).toBeFalsy();
    const december = await call('sheets_get_values', { spreadsheet_id: address, range: "'Décembre d''équipe'!A1:C2" });
    expect((december.structuredContent as { values: unknown[][] }).values).toEqual([['2026-12-01', 'Taxi', '12']]);
    const first = await call('sheets_get_values', { spreadsheet_id: `https://docs.google.com/spreadsheets/d/${id}/edit#gid=${firstGid}`, range: 'A1:C2' });
    expect((first.structuredContent as { values: unknown[][] }).values).toEqual([['Date', 'Item', 'Amount'], ['2026-11-03', 'Taxi', '23.5']]);
  });
});

describe('proxy: a sheet range read through the proxy, its name written as the user says it', () => {
  it('a space (or é) in the path is refused naming it, with the path to send encoded; sent so, the cells come back', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Proxy', sheets: [{ properties: { title: 'Dépenses Nov' } }] });
    const id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect((await call('sheets_update_values', { spreadsheet_id: id, range: "'Dépenses Nov'!A1", values: [['Taxi', 23.5]] })).isError).toBeFalsy();
    const token = await h.token(h.a);
    const proxy = (path: string) => h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'sheets', identifier: 'mo', method: 'GET', path } });
    const refused = await proxy(`/v4/spreadsheets/${id}/values/Dépenses Nov!A1:B1`);
    expect(refused.status).toBe(400);
    const encoded = `/v4/spreadsheets/${id}/values/D%C3%A9penses%20Nov!A1:B1`;
    expect(refused.body.error.message).toBe(`Proxy path refused: path contains "é", " ", which must be percent-encoded (%C3%A9, %20): send ${JSON.stringify(encoded)}.`);
    const read = await proxy(encoded);
    expect(read.body).toMatchObject({ status: 200, body: { range: "'Dépenses Nov'!A1:B1", values: [['Taxi', '23.5']] } });
  });
});

describe('sheets: a tab whose name has a space, quoted the way other languages quote', () => {
  it('a sheet name in double or curly quotes is refused before sending, with the single quotes to send; sent so, the cell is written', async () => {
    const book = await call('sheets_create_spreadsheet', { title: 'Budget', sheets: [{ properties: { title: 'Q4 Budget' } }] });
    const spreadsheet_id = (book.structuredContent as { spreadsheetId: string }).spreadsheetId;
    for (const range of ['"Q4 Budget"!A1', '‘Q4 Budget’!A1', '“Q4 Budget”!A1']) {
      const error = errorOf(await call('sheets_update_values', { spreadsheet_id, range, values: [['Total', 12]] })) as { code: string; violations?: Array<{ pointer: string; message: string }> };
      expect(error.code).toBe('invalid_input');
      expect(error.violations?.[0]?.message).toMatch(/; a sheet name is quoted with single quotes \('\), not .+: send 'Q4 Budget'!A1$/);
    }
    const cleared = errorOf(await call('sheets_clear_values', { spreadsheet_id, ranges: ['"Q4 Budget"!A2:C'] })) as { violations?: Array<{ pointer: string }> };
    expect(cleared.violations?.map((v) => v.pointer)).toEqual(['/ranges/0']);
    expect((await call('sheets_update_values', { spreadsheet_id, range: "'Q4 Budget'!A1", values: [['Total', 12]] })).isError).toBeFalsy();
  });
});

describe('docs, sheets and comments: first tries whose error already said what to send', () => {
  it('a section added at the last endIndex, a date replaced with containsText as text: each told the fix; sent so, the document reads right', async () => {
    const document_id = ((await call('docs_create_document', { title: 'Weekly sync' })).structuredContent as { documentId: string }).documentId;
    expect((await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: 1 }, text: 'Weekly sync 2026-11-24\nDécisions : livrer v2.\n' } }] })).isError).toBeFalsy();
    const body = ((await call('docs_read_document', { document_id })).structuredContent as { body: { content: Array<{ endIndex: number }> } }).body.content;
    const end = body.at(-1)!.endIndex;
    const past = errorOf(await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: end }, text: 'Action items\n' } }] }));
    expect(past.details?.hint).toMatch(/insert at most at endIndex - 1, or with endOfSegmentLocation \{\}/);
    expect((await call('docs_update_document', { document_id, requests: [{ insertText: { location: { index: end - 1 }, text: 'Action items\n' } }] })).isError).toBeFalsy();
    const replace = errorOf(await call('docs_update_document', { document_id, requests: [{ replaceAllText: { containsText: '2026-11-24', replaceText: '2026-11-25' } }] }));
    expect(replace.details?.hint).toMatch(/containsText is an object, not the text itself/);
    const replaced = await call('docs_update_document', { document_id, requests: [{ replaceAllText: { containsText: { text: '2026-11-24', matchCase: true }, replaceText: '2026-11-25' } }] });
    expect((replaced.structuredContent as { replies: unknown[] }).replies).toEqual([{ replaceAllText: { occurrencesChanged: 1 } }]);
    const text = ((await call('docs_read_document', { document_id })).structuredContent as { body: { content: Array<{ paragraph?: { elements: Array<{ textRun?: { content: string } }> } }> } }).body.content
      .flatMap((e) => e.paragraph?.elements ?? [])
      .map((e) => e.textRun?.content ?? '')
      .join('');
    expect(text).toBe('Weekly sync 2026-11-25\nDécisions : livrer v2.\nAction items\n\n');
  });

  it("a tab for December added twice (as 'december'), and a comment given as a bare string, are told what to send", async () => {
    const spreadsheet_id = ((await call('sheets_create_spreadsheet', { title: 'Frais' })).structuredContent as { spreadsheetId: string }).spreadsheetId;
    expect((await call('sheets_add_sheet', { spreadsheet_id, title: 'December' })).isError).toBeFalsy();
    const again = errorOf(await call('sheets_add_sheet', { spreadsheet_id, title: 'december' }));
    expect(again.message).toContain('A sheet with the name "december" already exists.');
    expect(again.details?.hint).toMatch(/titles differing only in case count as the same.*write to the existing tab with sheets_update_values/);
    const found = await call('workspace_search', { query: 'Tasks' });
    const page_id = (found.structuredContent as { results: Array<{ object: string; parent: { page_id?: string } }> }).results.find((r) => r.object === 'database')!.parent.page_id!;
    const bare = errorOf(await call('workspace_comment_create', { parent: { page_id }, comment: 'Invitations sent.' })) as { violations?: Array<{ message: string }> };
    expect(bare.violations?.[0]?.message).toBe('comment must be an object, e.g. {"rich_text":[{"type":"text","text":{"content":"Looks good to me."}}]}');
    expect((await call('workspace_comment_create', { parent: { page_id }, comment: { rich_text: [{ type: 'text', text: { content: 'Invitations sent.' } }] } })).isError).toBeFalsy();
  });
});

/** A session of its own for `identifier`, limited to `connection`, after the user has connected it. */
async function sessionFor(identifier: string, connection: string): Promise<Client> {
  await connectSandboxUser(h, { connection, identifier, user: `${identifier}@example.com` });
  return mcpSessionClient(h, 'first-tries', { identifier, connections: [connection] });
}

describe('calendar: a meeting made by a user whose grant reads the calendar only', () => {
  it('the missing scope comes with an authorization link asking for it, which the agent hands over; once opened, the same call works', async () => {
    const token = await h.token(h.a);
    const made = await h.call('POST', '/api/v1/connections', {
      token,
      body: { name: 'calendar-readonly', connector: 'calendar', client_id: 'client-calendar-readonly', client_secret: 'secret-calendar-readonly', overrides: h.sandbox.endpoints('calendar'), scopes: ['https://www.googleapis.com/auth/calendar.readonly'] },
    });
    expect(made.status).toBe(201);
    const client = await sessionFor('ro', 'calendar-readonly');
    try {
      const lunch = { summary: 'Lunch with Ana', start_datetime: '2026-12-01T12:00:00+01:00', event_duration_hour: 1 };
      const refused = (await client.callTool({ name: 'calendar_create_event', arguments: lunch })) as CallToolResult;
      const error = errorOf(refused) as ReturnType<typeof errorOf> & { authorization_url?: string; details?: { required_scopes?: string[]; scopes_to_request?: string[] } };
      expect(error.code, JSON.stringify(error)).toBe('insufficient_scope');
      // An MCP session cannot mint links itself: the link is in the answer, asking for one scope the call needs.
      expect(error.message, JSON.stringify(error)).toMatch(/Ask the user to open authorization_url, which asks them to grant https:\/\/www\.googleapis\.com\/auth\/calendar\.events, then call the tool again\.$/);
      expect(error.details?.scopes_to_request).toEqual(['https://www.googleapis.com/auth/calendar.events']);
      expect(error.authorization_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sso\/v1\/connect\//);
      expect((await consentThroughSandbox(error.authorization_url!, { user: 'ro@example.com' })).status).toBe(200);
      const again = (await client.callTool({ name: 'calendar_create_event', arguments: lunch })) as CallToolResult;
      expect(again.isError, JSON.stringify(again.content)).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('a provider failing mid-task (5xx)', () => {
  it('says the fault is the provider\'s, and whether to repeat the call or first check whether it was done', async () => {
    try {
      // A read (retried once already by the service): repeat it.
      h.sandbox.control.setFault('calendar', { failNext: { count: 5, status: 503 } });
      const read = errorOf(await call('calendar_list_events', { max_results: 3 }));
      expect(read.code).toBe('upstream_error');
      expect(read.message).toMatch(/answered 503 .*: Service unavailable \(injected fault\)\. The provider failed, not the call: the same call may work if repeated in a moment\.$/);
      h.sandbox.control.clearFaults('calendar');
      expect((await call('calendar_list_events', { max_results: 3 })).isError).toBeFalsy();
      // A create, never repeated blindly: it may have been made.
      h.sandbox.control.setFault('crm', { failNext: { count: 1, status: 500 } });
      const made = errorOf(await call('crm_deal_create', { dealname: 'Acme - Jane Doe', dealstage: 'appointmentscheduled' }));
      expect(made.message).toMatch(/The provider failed, not the call, and may have done it anyway: look it up \(read or search\) before repeating the call\.$/);
    } finally {
      h.sandbox.control.clearFaults();
    }
  });
});

describe("sheets: a spreadsheet made while the user's Google quota is spent", () => {
  it("Google's 403 whose ErrorInfo says RATE_LIMIT_EXCEEDED is a rate limit with the time to wait, not a refusal to fix", async () => {
    try {
      // Sheets and Docs write Google's newer error shape: no errors[].reason, the reason in an ErrorInfo detail.
      h.sandbox.control.setFault('sheets', { rateLimit: { max: 0, windowMs: 60_000, googleStyle403: true } });
      const error = errorOf(await call('sheets_create_spreadsheet', { title: 'Budget' })) as ReturnType<typeof errorOf> & { retry_after_seconds?: number };
      expect(error.code).toBe('upstream_rate_limited');
      expect(error.retry_after_seconds).toBeGreaterThanOrEqual(1);
    } finally {
      h.sandbox.control.clearFaults('sheets');
    }
    expect((await call('sheets_create_spreadsheet', { title: 'Budget' })).isError).toBeFalsy();
  });
});

describe('sheets to calendar: an event made for each row of a sheet, its date as the sheet shows it', () => {
  it('"12/04/2026 3pm" is told both readings of the day, year first; a time without offset is told the zone it is meant in, before Z', async () => {
    const spreadsheet_id = ((await call('sheets_create_spreadsheet', { title: 'Launch plan' })).structuredContent as { spreadsheetId: string }).spreadsheetId;
    await call('sheets_update_values', { spreadsheet_id, range: 'Sheet1!A1:B3', values: [['Event', 'When'], ['Kickoff', '12/04/2026 3pm'], ['Review', '12/15/2026 10:00']] });
    const rows = ((await call('sheets_get_values', { spreadsheet_id, range: 'Sheet1!A2:B3' })).structuredContent as { values: string[][] }).values;
    expect(rows).toEqual([['Kickoff', '12/04/2026 3pm'], ['Review', '12/15/2026 10:00']]);
    const violation = async (start_datetime: string) =>
      (errorOf(await call('calendar_create_event', { summary: 'Kickoff', start_datetime })) as { violations?: Array<{ message: string }> }).violations?.[0]?.message;
    // Both numbers could be the month: both readings, month first (US) and day first.
    expect(await violation('12/04/2026 3pm')).toMatch(
      /; 12\/04\/2026 is a day written as people write it: write it year first, 2026-12-04 \(month first, as in the US\) or 2026-04-12 \(day first\), then T, the time with seconds and its offset \(e\.g\. T15:00:00\+01:00\)$/,
    );
    // 15 is no month: one reading.
    expect(await violation('12/15/2026 10:00')).toMatch(/; 12\/15\/2026 is a day written as people write it: write it year first, 2026-12-15, then T, the time with seconds and its offset \(e\.g\. T15:00:00\+01:00\)$/);
    // Written so but without an offset: told the zone it is meant in first, Z only for UTC.
    expect(await violation('2026-12-04T15:00:00')).toMatch(/; it has no offset: add the offset of the time zone it is meant in on that day \(\+01:00\), or Z if it is meant in UTC$/);
    expect((await call('calendar_create_event', { summary: 'Kickoff', start_datetime: '2026-12-04T15:00:00+01:00' })).isError).toBeFalsy();
  });
});

describe('workspace: a page made in the Tasks database, its id sent as the parent page', () => {
  it("Notion's not-found is told the id may be a database's, sent as database_id, before asking the user to share anything", async () => {
    const found = await call('workspace_search', { query: 'Tasks' });
    const database_id = (found.structuredContent as { results: Array<{ object: string; id: string }> }).results.find((r) => r.object === 'database')!.id;
    const title = { title: { title: [{ text: { content: 'Write the launch post' } }] } };
    const error = errorOf(await call('workspace_page_create', { parent_page_id: database_id, properties: title }));
    expect(error.message).toContain(`Could not find page with ID: ${database_id}.`);
    expect(error.details?.hint).toMatch(/^parent_page_id names a page, not a database: a database's id \(object "database" in workspace_search\) goes in database_id/);
    expect((await call('workspace_page_create', { database_id, properties: title })).isError).toBeFalsy();
  });
});

describe("a call whose token refresh fails, not for the user's grant", () => {
  it("a token endpoint down is told to repeat the call; the connection's client refused is told it is the application's to fix", async () => {
    const connection = await h.sandboxConnection(h.a, 'calendar', 'calendar-refresh');
    const client = await sessionFor('zed', 'calendar-refresh');
    const list = async () => (await client.callTool({ name: 'calendar_list_events', arguments: { max_results: 1 } })) as CallToolResult;
    try {
      h.sandbox.control.expireAccessTokens('google', 'zed@example.com');
      h.sandbox.control.setFault('oauth:google', { failNext: { count: 5, status: 503 } });
      const down = errorOf(await list());
      expect(down.message).toBe("The token refresh failed (503 temporarily_unavailable). The provider's token endpoint failed, not the call nor the user's authorization: the same call may work if repeated in a moment.");
      // A token endpoint that rate-limits is a provider's rate limit, with its wait: not a 502 whose status says 429.
      h.sandbox.control.clearFaults();
      h.sandbox.control.setFault('oauth:google', { failNext: { count: 5, status: 429, retryAfterSeconds: 7 } });
      const limited = errorOf(await list()) as ReturnType<typeof errorOf> & { retry_after_seconds?: number };
      expect([limited.code, limited.retry_after_seconds]).toEqual(['upstream_rate_limited', 7]);
      expect(limited.message).toMatch(/^The provider's token endpoint rate-limited the token refresh \(429\)\. Neither the call nor the user's authorization is at fault: repeat the same call after retry_after_seconds\.$/);
      h.sandbox.control.clearFaults();
      expect((await list()).isError).toBeFalsy();
      // The client's secret is changed at the provider and not in the connection: nothing the agent or the user can do.
      h.sandbox.control.registerClient({ provider: 'google', clientId: connection.client_id, clientSecret: 'rotated-at-google', redirectUris: [connection.redirect_uri] });
      h.sandbox.control.expireAccessTokens('google', 'zed@example.com');
      const refused = errorOf(await list());
      expect(refused.message).toMatch(/^The token refresh failed \(401 invalid_client\)\. The provider refused the application's OAuth client \(its client id or secret\), not the user: the application's operator must fix the connection calendar-refresh; repeating the call will not help\.$/);
    } finally {
      h.sandbox.control.clearFaults();
      await client.close();
    }
  });
});

describe('the fifth trial: tasks of several tools, and a grant lost mid-way, that worked at the first try', () => {
  it('a deal for Jane at Globex: the contact and the company found by search, the deal made with both ids, found again by the contact', async () => {
    const globex = ((await call('crm_company_create', { name: 'Globex', domain: 'globex.example' })).structuredContent as { id: string }).id;
    expect((await call('crm_contact_create', { email: 'jane@globex.example', firstname: 'Jane', lastname: 'Doe', company: 'Globex', company_ids: [globex] })).isError).toBeFalsy();
    // As a model writes it from the descriptions: the name as query, the company as a filter on the contact's text.
    const jane = (await call('crm_contacts_search', { query: 'Jane', filterGroups: [{ filters: [{ propertyName: 'company', operator: 'EQ', value: 'Globex' }] }], properties: 'email,firstname,company' }))
      .structuredContent as { results: Array<{ id: string }> };
    const company = (await call('crm_companies_search', { query: 'Globex', properties: 'name,domain' })).structuredContent as { results: Array<{ id: string }> };
    expect([jane.results.length, company.results[0]?.id]).toEqual([1, globex]);
    const deal = await call('crm_deal_create', { dealname: 'Globex - Jane Doe', dealstage: 'appointmentscheduled', contact_ids: [jane.results[0]!.id], company_ids: [globex] });
    const deal_id = (deal.structuredContent as { id: string }).id;
    for (const [propertyName, value] of [['associations.contact', jane.results[0]!.id], ['associations.company', globex]]) {
      const found = (await call('crm_deals_search', { filterGroups: [{ filters: [{ propertyName, operator: 'EQ', value }] }] })).structuredContent as { results: Array<{ id: string }> };
      expect(found.results.map((r) => r.id)).toEqual([deal_id]);
    }
  });

  it('the next events appended to a Notion page as a bulleted list, the page given by its address', async () => {
    await call('calendar_create_event', { summary: 'Design review', start_datetime: '2026-12-02T10:00:00Z' });
    const events = ((await call('calendar_list_events', { time_min: '2026-12-01T00:00:00Z', max_results: 3, single_events: true, order_by: 'startTime' })).structuredContent as { items: Array<{ summary: string }> }).items;
    const page = ((await call('workspace_search', { query: 'Getting started' })).structuredContent as { results: Array<{ object: string; url: string }> }).results.find((r) => r.object === 'page')!;
    const appended = await call('workspace_page_append', {
      block_id: page.url,
      child_blocks: events.map((e) => ({ type: 'bulleted_list_item', bulleted_list_item: { rich_text: [{ text: { content: e.summary } }] } })),
    });
    expect((appended.structuredContent as { results: Array<{ type: string }> }).results.map((b) => b.type)).toEqual(events.map(() => 'bulleted_list_item'));
  });

  it("a user whose refresh token was revoked gets reauthorization_required with a link; once opened, the call works", async () => {
    await h.sandboxConnection(h.a, 'sheets', 'sheets-revoked');
    const client = await sessionFor('vic', 'sheets-revoked');
    const create = async () => (await client.callTool({ name: 'sheets_create_spreadsheet', arguments: { title: 'Q1' } })) as CallToolResult;
    try {
      h.sandbox.control.revokeRefreshTokens('google', 'vic@example.com');
      h.sandbox.control.expireAccessTokens('google', 'vic@example.com');
      const error = errorOf(await create()) as ReturnType<typeof errorOf> & { authorization_url?: string };
      expect(error.code).toBe('reauthorization_required');
      expect(error.message).toMatch(/Ask them to open authorization_url, then call the tool again\.$/);
      expect((await consentThroughSandbox(error.authorization_url!, { user: 'vic@example.com' })).status).toBe(200);
      expect((await create()).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('crm: a record read or changed by what the user calls it', () => {
  it("a name or an e-mail given for a record id is told what the id is and which search returns it", async () => {
    const message = async (tool: string, args: Record<string, unknown>) => (errorOf(await call(tool, args)) as { violations?: Array<{ message: string }> }).violations?.[0]?.message;
    expect(await message('crm_contact_get', { contact_id: 'jane@globex.example' })).toBe(
      'contact_id must match the pattern ^[0-9]+$ (The contact\'s HubSpot record id (digits): the id of a crm_contacts_search result, not a name or e-mail), e.g. "12345"',
    );
    expect(await message('crm_company_get', { company_id: 'Globex' })).toMatch(/^company_id must match the pattern \^\[0-9\]\+\$ \(The company's HubSpot record id \(digits\): the id of a crm_companies_search result, not a name or domain\)/);
    expect(await message('crm_deal_update', { deal_id: 'Globex - Jane Doe', properties: { amount: '100' } })).toMatch(/^deal_id must match the pattern \^\[0-9\]\+\$ \(The deal's HubSpot record id \(digits\): the id of a crm_deals_search result, not its name\)/);
  });
});
