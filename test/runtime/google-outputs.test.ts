/**
 * The Google tools' output schemas against what the sandbox answers in its richer shapes, end to end through the
 * executor: a Meet event with guests and a recurrence, its expanded instances, an all-day event, every seeded calendar;
 * a spreadsheet with several sheets, numbers, booleans, formulas and errors read every way; a document with a heading,
 * a list, a table, an image and a named range. Each result must validate against the tool's `output` (served as the
 * MCP outputSchema, which MCP clients check structuredContent with), and the nested fields the schema describes must
 * be there, so a schema type that does not fit them fails here.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorName } from '../../runtime/types.js';
import { startHarness, type Harness } from './connector-harness.js';

type Data = Record<string, any>;

let h: Harness;
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Runs a tool as `ana`, and checks its result against the tool's output schema. */
async function call(connector: ConnectorName, tool: string, input: Record<string, unknown>): Promise<Data> {
  const result = await h.env.executeTool({ tool_name: tool, connection_name: connector, identifier: 'ana', tool_input: input });
  const validate = ajv.compile(h.connector.tools.resolve(tool)!.outputSchema);
  expect(validate(result.data), `${tool}: ${JSON.stringify(validate.errors, null, 1)}`).toBe(true);
  return result.data as Data;
}

beforeAll(async () => {
  h = await startHarness();
  for (const kind of ['calendar', 'sheets', 'docs'] as const) {
    await h.connection(kind, kind);
    await h.authorize(kind, 'ana');
  }
});
afterAll(() => h.close());

describe('calendar', () => {
  const state: Record<string, string> = {};

  it('calendar_list_calendars: every seeded calendar, the hidden one too', async () => {
    const d = await call('calendar', 'calendar_list_calendars', { show_hidden: true });
    expect(d.items.length).toBeGreaterThanOrEqual(4);
    expect(d.items.filter((c: Data) => c.primary === true)).toHaveLength(1);
    expect(d.items.some((c: Data) => c.hidden === true)).toBe(true);
    for (const c of d.items) expect(c).toMatchObject({ id: expect.any(String), accessRole: expect.any(String), backgroundColor: expect.stringMatching(/^#/) });
    const paged = await call('calendar', 'calendar_list_calendars', { max_results: 1 });
    expect(paged.nextPageToken).toEqual(expect.any(String));
  });

  it('calendar_create_event: a weekly Meet event with a guest', async () => {
    const d = await call('calendar', 'calendar_create_event', {
      start_datetime: '2026-06-01T10:00:00+02:00',
      summary: 'Weekly',
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      attendees_emails: ['li@example.com'],
      create_meeting_room: true,
      location: 'Room 4',
      description: 'Agenda',
      guests_can_modify: true,
      visibility: 'private',
      transparency: 'free',
    });
    expect(d.start).toEqual({ dateTime: '2026-06-01T10:00:00+02:00', timeZone: 'Europe/Paris' });
    expect(d.attendees).toEqual([expect.objectContaining({ email: 'li@example.com', responseStatus: 'needsAction' })]);
    expect(d.organizer.self).toBe(true);
    expect(d.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
    expect(d.conferenceData.entryPoints[0]).toMatchObject({ entryPointType: 'video', uri: d.hangoutLink });
    expect(d.conferenceData.createRequest.status.statusCode).toBe('success');
    expect(d.reminders.useDefault).toBe(true);
    state.series = d.id;
  });

  it('calendar_get_event_by_id and calendar_update_event: an all-day event', async () => {
    const inserted = await h.env.proxy({
      connection_name: 'calendar',
      identifier: 'ana',
      method: 'POST',
      path: '/calendar/v3/calendars/primary/events',
      body: { summary: 'Offsite', start: { date: '2026-06-02' }, end: { date: '2026-06-04' } },
    });
    const id = (inserted.body as Data).id as string;
    const got = await call('calendar', 'calendar_get_event_by_id', { event_id: id });
    expect(got.start).toEqual({ date: '2026-06-02' });
    expect(got.end).toEqual({ date: '2026-06-04' });
    const updated = await call('calendar', 'calendar_update_event', { calendar_id: 'primary', event_id: id, summary: 'Offsite (moved)', attendees_emails: ['li@example.com'] });
    expect(updated.summary).toBe('Offsite (moved)');
  });

  it('calendar_list_events: instances of the series, the all-day event, and paging', async () => {
    const window = { time_min: '2026-06-01T00:00:00Z', time_max: '2026-06-30T00:00:00Z' };
    const d = await call('calendar', 'calendar_list_events', { ...window, single_events: true, order_by: 'startTime' });
    const instances = d.items.filter((e: Data) => e.recurringEventId === state.series);
    expect(instances).toHaveLength(3);
    expect(instances[1].originalStartTime).toEqual(instances[1].start);
    expect(d.items.some((e: Data) => e.start.date === '2026-06-02')).toBe(true);
    expect(d).toMatchObject({ timeZone: expect.any(String), accessRole: 'owner', nextSyncToken: expect.any(String) });
    const first = await call('calendar', 'calendar_list_events', { ...window, max_results: 1 });
    expect(first.nextPageToken).toEqual(expect.any(String));
  });
});

describe('sheets', () => {
  let id: string;

  it('sheets_create_spreadsheet: two sheets, one with frozen rows', async () => {
    const d = await call('sheets', 'sheets_create_spreadsheet', {
      title: 'Outputs',
      locale: 'fr_FR',
      time_zone: 'Europe/Paris',
      sheets: [{ properties: { title: 'Data', gridProperties: { rowCount: 50, columnCount: 6, frozenRowCount: 1 } } }, { properties: { title: 'Empty' } }],
    });
    expect(d.properties).toMatchObject({ title: 'Outputs', locale: 'fr_FR', timeZone: 'Europe/Paris' });
    expect(d.sheets.map((s: Data) => s.properties.title)).toEqual(['Data', 'Empty']);
    expect(d.sheets[0].properties.gridProperties).toEqual({ rowCount: 50, columnCount: 6, frozenRowCount: 1 });
    id = d.spreadsheetId;
  });

  it('sheets_update_values: numbers, booleans, formulas and an error, read back', async () => {
    const d = await call('sheets', 'sheets_update_values', {
      spreadsheet_id: id,
      range: 'Data!A1',
      values: [['Item', 'Qty', 'Total', 'Paid'], ['Anvil', 2, '=B2*100', true], ['Rope', '', '=1/0', false]],
      include_values_in_response: true,
    });
    expect(d).toMatchObject({ updatedRange: 'Data!A1:D3', updatedRows: 3, updatedColumns: 4 });
    expect(d.updatedData.values[1]).toEqual(['Anvil', '2', '200', 'TRUE']);
  });

  it('sheets_get_values: formatted, unformatted, formulas, columns, and an empty range', async () => {
    const formatted = await call('sheets', 'sheets_get_values', { spreadsheet_id: id, range: 'Data!A1:D3' });
    expect(formatted.values[2]).toEqual(['Rope', '', '#DIV/0!', 'FALSE']);
    const raw = await call('sheets', 'sheets_get_values', { spreadsheet_id: id, range: 'Data!A1:D3', value_render_option: 'UNFORMATTED_VALUE' });
    expect(raw.values[1]).toEqual(['Anvil', 2, 200, true]);
    const formulas = await call('sheets', 'sheets_get_values', { spreadsheet_id: id, range: 'Data!C2:C3', value_render_option: 'FORMULA', major_dimension: 'COLUMNS' });
    expect(formulas).toMatchObject({ majorDimension: 'COLUMNS', values: [['=B2*100', '=1/0']] });
    const empty = await call('sheets', 'sheets_get_values', { spreadsheet_id: id, range: 'Empty!A1:B2' });
    expect(empty.values).toBeUndefined();
  });

  it('sheets_append_values: after a table, and on an empty sheet (no tableRange)', async () => {
    const after = await call('sheets', 'sheets_append_values', { spreadsheet_id: id, range: 'Data', values: [['Hook', 1]] });
    expect(after).toMatchObject({ tableRange: 'Data!A1:D3', updates: { updatedRange: 'Data!A4:B4', updatedCells: 2 } });
    const first = await call('sheets', 'sheets_append_values', { spreadsheet_id: id, range: 'Empty', values: [['a']], include_values_in_response: true });
    expect(first.tableRange).toBeUndefined();
    expect(first.updates.updatedData.values).toEqual([['a']]);
  });

  it('sheets_read_spreadsheet: with grid data, of the whole book and of a range', async () => {
    const meta = await call('sheets', 'sheets_read_spreadsheet', { spreadsheet_id: id });
    expect(meta.sheets[0].data).toBeUndefined();
    const d = await call('sheets', 'sheets_read_spreadsheet', { spreadsheet_id: id, include_grid_data: true });
    const cells = d.sheets[0].data[0].rowData[1].values;
    expect(cells[1]).toMatchObject({ userEnteredValue: { numberValue: 2 }, effectiveValue: { numberValue: 2 }, formattedValue: '2' });
    expect(cells[2]).toMatchObject({ userEnteredValue: { formulaValue: '=B2*100' }, effectiveValue: { numberValue: 200 } });
    expect(d.sheets[0].data[0].rowData[2].values[2].effectiveValue.errorValue).toMatchObject({ type: expect.any(String) });
    const ranged = await call('sheets', 'sheets_read_spreadsheet', { spreadsheet_id: id, include_grid_data: true, ranges: 'Data!B2:C3' });
    expect(ranged.sheets[0].data[0]).toMatchObject({ startRow: 1, startColumn: 1 });
  });
});

describe('docs', () => {
  let id: string;

  it('docs_create_document: the empty body', async () => {
    const d = await call('docs', 'docs_create_document', { title: 'Outputs' });
    expect(d.body.content).toHaveLength(2);
    id = d.documentId;
  });

  it('docs_update_document: every reply kind the sandbox gives', async () => {
    const d = await call('docs', 'docs_update_document', {
      document_id: id,
      requests: [
        { insertText: { location: { index: 1 }, text: 'Plan\nFirst\nSecond\n' } },
        { updateParagraphStyle: { range: { startIndex: 1, endIndex: 5 }, paragraphStyle: { namedStyleType: 'HEADING_1' }, fields: 'namedStyleType' } },
        { createParagraphBullets: { range: { startIndex: 6, endIndex: 18 }, bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE' } },
        { updateTextStyle: { range: { startIndex: 6, endIndex: 11 }, textStyle: { bold: true, link: { url: 'https://example.com' } }, fields: 'bold,link' } },
        { createNamedRange: { name: 'first', range: { startIndex: 6, endIndex: 11 } } },
        { insertInlineImage: { location: { index: 1 }, uri: 'https://example.com/logo.png' } },
        { insertTable: { endOfSegmentLocation: {}, rows: 2, columns: 2 } },
        { replaceAllText: { containsText: { text: 'Second', matchCase: true }, replaceText: 'Next' } },
        { replaceAllText: { containsText: { text: 'absent', matchCase: true }, replaceText: 'x' } },
      ],
    });
    expect(d.replies).toHaveLength(9);
    expect(d.replies[4].createNamedRange.namedRangeId).toEqual(expect.any(String));
    expect(d.replies[5].insertInlineImage.objectId).toEqual(expect.any(String));
    expect(d.replies[7]).toEqual({ replaceAllText: { occurrencesChanged: 1 } });
    expect(d.replies[8]).toEqual({ replaceAllText: {} });
    expect(d.writeControl.requiredRevisionId).toEqual(expect.any(String));
  });

  it('docs_read_document: a heading, a bulleted list, a link, an image, a table and a named range', async () => {
    const d = await call('docs', 'docs_read_document', { document_id: id });
    const content = d.body.content as Data[];
    const [sectionBreak] = content;
    expect(sectionBreak).toMatchObject({ endIndex: 1, sectionBreak: expect.any(Object) });
    expect(sectionBreak!.startIndex).toBeUndefined();
    const paragraphs = content.filter((e) => e.paragraph).map((e) => e.paragraph);
    expect(paragraphs[0].paragraphStyle.namedStyleType).toBe('HEADING_1');
    expect(paragraphs[0].elements.some((e: Data) => e.inlineObjectElement?.inlineObjectId)).toBe(true);
    const item = paragraphs.find((p) => p.bullet);
    expect(d.lists[item.bullet.listId].listProperties.nestingLevels.length).toBeGreaterThan(0);
    expect(item.elements[0].textRun).toMatchObject({ content: 'First', textStyle: { bold: true, link: { url: 'https://example.com' } } });
    const table = content.find((e) => e.table)!.table;
    expect(table).toMatchObject({ rows: 2, columns: 2 });
    expect(table.tableRows[0].tableCells[0].content[0].paragraph).toEqual(expect.any(Object));
    expect(d.namedRanges.first.namedRanges[0].ranges[0]).toMatchObject({ startIndex: expect.any(Number), endIndex: expect.any(Number) });
    expect(Object.values(d.inlineObjects)[0]).toMatchObject({ objectId: expect.any(String) });
  });
});
