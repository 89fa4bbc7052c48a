/**
 * Google's official Node clients (@googleapis/calendar, @googleapis/sheets, @googleapis/docs) as conformance clients:
 *
 * 1. Unchanged, pointed at the sandbox's own origin for each API (`rootUrl`), they run every operation the calendar,
 *    sheets and docs tools cover, and get the documented refusals.
 * 2. For every one of those tools, the request our builder makes equals what the client sends for the same
 *    operation (method, path, query, body), both captured by a local recording server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth as calendarAuth, calendar, type calendar_v3 } from '@googleapis/calendar';
import { sheets, type sheets_v4 } from '@googleapis/sheets';
import { docs, type docs_v1 } from '@googleapis/docs';
import { startSandbox } from '../../../sandbox/index.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { tools } from '../../../generated/tools.gen.js';
import type { ToolDefinition } from '../../../runtime/types.js';
import { build } from '../../specs/harness.js';
import { clients, googleTokens } from '../helpers.js';
import { asSeenUpstream, builderRequest, startRecordingServer, type RecordingServer } from './recording-server.js';
import { expectEveryToolCovered } from './tool-coverage.js';

const SCOPES = ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/spreadsheets', 'https://www.googleapis.com/auth/documents'].join(' ');

function oauthClient(accessToken: string) {
  const client = new calendarAuth.OAuth2();
  client.setCredentials({ access_token: accessToken });
  return client;
}

interface GoogleClients {
  calendar: calendar_v3.Calendar;
  sheets: sheets_v4.Sheets;
  docs: docs_v1.Docs;
}

function googleClients(roots: { calendar: string; sheets: string; docs: string }, accessToken: string): GoogleClients {
  const auth = oauthClient(accessToken);
  // No retries: a refusal must reach the test as the first answer.
  const common = { auth, retry: false } as const;
  return {
    calendar: calendar({ version: 'v3', rootUrl: `${roots.calendar}/`, ...common }),
    sheets: sheets({ version: 'v4', rootUrl: `${roots.sheets}/`, ...common }),
    docs: docs({ version: 'v1', rootUrl: `${roots.docs}/`, ...common }),
  };
}

/** The HTTP status of a refused SDK call (gaxios rejects with the response attached). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; error: { code: number; message: string; status?: string; errors?: { reason: string; location?: string }[] } }> {
  try {
    await call;
  } catch (err) {
    const e = err as { status?: number; response?: { status: number; data: { error: never } } };
    if (!e.response) throw err;
    return { status: e.response.status, error: e.response.data.error };
  }
  throw new Error('the call was expected to be refused');
}

describe('Google clients against the sandbox, unchanged', () => {
  let sb: Sandbox;
  let g: GoogleClients;

  beforeAll(async () => {
    sb = await startSandbox({ clients: clients() });
    const { access_token } = await googleTokens(sb, { scope: SCOPES, user: 'sdk@example.com' });
    g = googleClients({ calendar: sb.origins.calendar!, sheets: sb.origins.sheets!, docs: sb.origins.docs! }, access_token);
  });
  afterAll(() => sb.close());

  it('serves each API at the root of an origin of its own', () => {
    for (const name of ['calendar', 'sheets', 'docs'] as const) expect(sb.origins[name]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(Object.values(sb.origins)).size).toBe(Object.keys(sb.origins).length);
  });

  it('calendar: calendarList.list, events.insert/get/patch/list/delete, as the tools use them', async () => {
    const list = await g.calendar.calendarList.list({ maxResults: 10 });
    expect(list.status).toBe(200);
    expect(list.data.kind).toBe('calendar#calendarList');
    expect(list.data.items?.some((c) => c.primary === true)).toBe(true);

    const created = await g.calendar.events.insert({
      calendarId: 'primary',
      conferenceDataVersion: 1,
      sendUpdates: 'all',
      requestBody: {
        summary: 'SDK planning',
        start: { dateTime: '2026-03-02T10:00:00+01:00', timeZone: 'Europe/Paris' },
        end: { dateTime: '2026-03-02T10:30:00+01:00', timeZone: 'Europe/Paris' },
        attendees: [{ email: 'ana@example.com' }],
        transparency: 'transparent',
        conferenceData: { createRequest: { requestId: 'req-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
      },
    });
    expect(created.status).toBe(200);
    const id = created.data.id!;
    expect(created.data.kind).toBe('calendar#event');
    expect(created.data.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\//);

    const got = await g.calendar.events.get({ calendarId: 'primary', eventId: id });
    expect(got.data.summary).toBe('SDK planning');
    expect(got.data.attendees?.map((a) => a.email)).toEqual(['ana@example.com']);

    const patched = await g.calendar.events.patch({ calendarId: 'primary', eventId: id, requestBody: { summary: 'Renamed' } });
    expect(patched.data.summary).toBe('Renamed');
    expect(patched.data.start?.dateTime).toBeDefined();

    const events = await g.calendar.events.list({ calendarId: 'primary', singleEvents: true, orderBy: 'startTime', q: 'Renamed', timeMin: '2026-03-01T00:00:00Z', maxResults: 5 });
    expect(events.data.items?.map((e) => e.id)).toContain(id);

    const deleted = await g.calendar.events.delete({ calendarId: 'primary', eventId: id });
    expect(deleted.status).toBe(204);
    // Deleting it again: Google answers 410 Gone for an event already deleted.
    expect((await refusal(g.calendar.events.delete({ calendarId: 'primary', eventId: id }))).status).toBe(410);
  });

  it('calendar refusals: orderBy=startTime without singleEvents, an unknown event, a bad token', async () => {
    const orderBy = await refusal(g.calendar.events.list({ calendarId: 'primary', orderBy: 'startTime' }));
    expect(orderBy.status).toBe(400);
    expect(orderBy.error.code).toBe(400);

    const missing = await refusal(g.calendar.events.get({ calendarId: 'primary', eventId: 'no-such-event' }));
    expect(missing.status).toBe(404);
    expect(missing.error.errors?.[0]?.reason).toBe('notFound');

    const anonymous = googleClients({ calendar: sb.origins.calendar!, sheets: sb.origins.sheets!, docs: sb.origins.docs! }, 'not-a-token');
    const unauth = await refusal(anonymous.calendar.calendarList.list({}));
    expect(unauth.status).toBe(401);
    expect(unauth.error.status).toBe('UNAUTHENTICATED');
  });

  it('calendar: an instance of a recurring event is got, patched and deleted by its id, as the recurring events guide does it', async () => {
    const series = await g.calendar.events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'SDK weekly',
        start: { dateTime: '2026-05-01T10:00:00+02:00', timeZone: 'Europe/Paris' },
        end: { dateTime: '2026-05-01T10:30:00+02:00', timeZone: 'Europe/Paris' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      },
    });
    const id = series.data.id!;
    const list = async () => (await g.calendar.events.list({ calendarId: 'primary', singleEvents: true, orderBy: 'startTime', q: 'SDK weekly' })).data.items ?? [];
    const [first, second] = await list();
    expect(first!.id).toBe(`${id}_20260501T080000Z`);
    const got = await g.calendar.events.get({ calendarId: 'primary', eventId: first!.id! });
    expect(got.data).toMatchObject({ id: first!.id, recurringEventId: id, originalStartTime: { dateTime: '2026-05-01T10:00:00+02:00' } });
    // Moved on its own, it becomes an exception that keeps its place in the series.
    const moved = await g.calendar.events.patch({
      calendarId: 'primary',
      eventId: first!.id!,
      requestBody: { start: { dateTime: '2026-05-04T10:00:00+02:00' }, end: { dateTime: '2026-05-04T10:30:00+02:00' } },
    });
    expect(moved.data).toMatchObject({ id: first!.id, recurringEventId: id, start: { dateTime: '2026-05-04T10:00:00+02:00' }, originalStartTime: { dateTime: '2026-05-01T10:00:00+02:00' } });
    expect((await g.calendar.events.delete({ calendarId: 'primary', eventId: second!.id! })).status).toBe(204);
    expect((await refusal(g.calendar.events.delete({ calendarId: 'primary', eventId: second!.id! }))).status).toBe(410);
    expect((await list()).map((e) => e.start?.dateTime)).toEqual(['2026-05-04T10:00:00+02:00', '2026-05-15T10:00:00+02:00']);
    // An id of no instance of the series is still unknown.
    expect((await refusal(g.calendar.events.get({ calendarId: 'primary', eventId: `${id}_20260502T080000Z` }))).status).toBe(404);
  });

  it('calendar refusal of an empty time range: a timed event ending when it starts, as events.insert answers it', async () => {
    const at = { dateTime: '2026-03-02T10:00:00+01:00' };
    const empty = await refusal(g.calendar.events.insert({ calendarId: 'primary', requestBody: { summary: 'Marker', start: at, end: at } }));
    expect(empty.status).toBe(400);
    expect(empty.error.message).toBe('The specified time range is empty.');
    expect(empty.error.errors?.[0]).toMatchObject({ reason: 'timeRangeEmpty', location: 'timeMax' });
    // An all-day event ending on its start date is taken.
    const day = await g.calendar.events.insert({ calendarId: 'primary', requestBody: { summary: 'Day', start: { date: '2026-03-02' }, end: { date: '2026-03-02' } } });
    expect(day.status).toBe(200);
  });

  it('calendar: freebusy.query, busy intervals merged and an unknown calendar answered with an error entry', async () => {
    for (const [start, end, transparency] of [['09:00', '10:00', 'opaque'], ['09:30', '10:30', 'opaque'], ['11:00', '12:00', 'transparent']] as const) {
      await g.calendar.events.insert({ calendarId: 'primary', requestBody: { summary: 'Busy?', transparency, start: { dateTime: `2026-04-09T${start}:00Z` }, end: { dateTime: `2026-04-09T${end}:00Z` } } });
    }
    const res = await g.calendar.freebusy.query({ requestBody: { timeMin: '2026-04-09T08:00:00Z', timeMax: '2026-04-09T18:00:00Z', items: [{ id: 'primary' }, { id: 'nobody@example.com' }] } });
    expect(res.status).toBe(200);
    expect(res.data.kind).toBe('calendar#freeBusy');
    expect(res.data.calendars?.primary).toEqual({ busy: [{ start: '2026-04-09T09:00:00Z', end: '2026-04-09T10:30:00Z' }] });
    expect(res.data.calendars?.['nobody@example.com']).toEqual({ errors: [{ domain: 'global', reason: 'notFound' }], busy: [] });

    const long = await refusal(g.calendar.freebusy.query({ requestBody: { timeMin: '2026-01-01T00:00:00Z', timeMax: '2026-06-01T00:00:00Z', items: [{ id: 'primary' }] } }));
    expect(long.status).toBe(400);
    expect(long.error.message).toBe('The requested time range is too long.');
    expect(long.error.errors?.[0]?.reason).toBe('timeRangeTooLong');
  });

  it('sheets: spreadsheets.create/get, values.update/get/append, as the tools use them', async () => {
    const created = await g.sheets.spreadsheets.create({ requestBody: { properties: { title: 'SDK budget', locale: 'fr_FR', timeZone: 'Europe/Paris' }, sheets: [{ properties: { title: 'Data' } }] } });
    expect(created.status).toBe(200);
    const id = created.data.spreadsheetId!;
    expect(created.data.properties?.title).toBe('SDK budget');
    expect(created.data.sheets?.[0]?.properties?.title).toBe('Data');

    const updated = await g.sheets.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Data!A1:C2',
      valueInputOption: 'USER_ENTERED',
      includeValuesInResponse: true,
      requestBody: { values: [['Item', 'Qty', 'Price'], ['Anvil', 2, '=B2*100']] },
    });
    expect(updated.data.updatedCells).toBe(6);
    expect(updated.data.updatedData?.values?.[1]).toEqual(['Anvil', '2', '200']);

    const values = await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!A1:C2', valueRenderOption: 'FORMULA', majorDimension: 'ROWS' });
    expect(values.data.values).toEqual([['Item', 'Qty', 'Price'], ['Anvil', 2, '=B2*100']]);

    const read = await g.sheets.spreadsheets.get({ spreadsheetId: id, ranges: ['Data!A1:C2'], includeGridData: true });
    expect(read.data.sheets?.[0]?.data?.[0]?.rowData?.[0]?.values?.[0]?.formattedValue).toBe('Item');

    // values.append: the range (its colon sent as the client encodes it) finds the table A1:C2; the row goes after it.
    const appended = await g.sheets.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Data!A1:C1',
      valueInputOption: 'USER_ENTERED',
      insertDataOption: 'INSERT_ROWS',
      includeValuesInResponse: true,
      requestBody: { values: [['Rope', 3, '=B3*10']] },
    });
    expect(appended.data.tableRange).toBe('Data!A1:C2');
    expect(appended.data.updates?.updatedRange).toBe('Data!A3:C3');
    expect(appended.data.updates?.updatedData?.values).toEqual([['Rope', '3', '30']]);
    const grown = await g.sheets.spreadsheets.get({ spreadsheetId: id, ranges: ['Data'] });
    expect(grown.data.sheets?.[0]?.properties?.gridProperties?.rowCount).toBe(1001);
    const noOption = await refusal(g.sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Data', requestBody: { values: [['x']] } }));
    expect(noOption.status).toBe(400);

    const badRange = await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'NoSuchSheet!A1' }));
    expect(badRange.status).toBe(400);
    expect((await refusal(g.sheets.spreadsheets.get({ spreadsheetId: 'missing-spreadsheet' }))).status).toBe(404);
  });

  it('sheets: spreadsheets.batchUpdate addSheet adds a tab values.update then writes, and refuses a title already used', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { properties: { title: 'SDK tabs' } } })).data.spreadsheetId!;
    const added = await g.sheets.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests: [{ addSheet: { properties: { title: 'Week 48', gridProperties: { rowCount: 50 } } } }] } });
    expect(added.status).toBe(200);
    expect(added.data.spreadsheetId).toBe(id);
    const props = added.data.replies?.[0]?.addSheet?.properties;
    expect(props).toMatchObject({ title: 'Week 48', index: 1, sheetType: 'GRID', gridProperties: { rowCount: 50, columnCount: 26 } });
    expect(typeof props?.sheetId).toBe('number');
    const written = await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: "'Week 48'!A1", valueInputOption: 'RAW', requestBody: { values: [['Planning']] } });
    expect(written.data.updatedRange).toBe("'Week 48'!A1");
    const listed = await g.sheets.spreadsheets.get({ spreadsheetId: id });
    expect(listed.data.sheets?.map((s) => s.properties?.title)).toEqual(['Sheet1', 'Week 48']);
    const again = await refusal(g.sheets.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests: [{ addSheet: { properties: { title: 'Week 48' } } }] } }));
    expect(again.status).toBe(400);
    expect(again.error.message).toBe('Invalid requests[0].addSheet: A sheet with the name "Week 48" already exists. Please enter another name.');
  });

  it('sheets: values.clear and values.batchClear empty values only, answering the ranges bounded to the grid; a refused range clears nothing', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Sheet1' } }, { properties: { title: 'Week 48', gridProperties: { rowCount: 20, columnCount: 5 } } }] } })).data.spreadsheetId!;
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: "'Week 48'!A1", valueInputOption: 'RAW', requestBody: { values: [['Item', 'Qty'], ['Anvil', '2'], ['Rope', '5']] } });
    const one = await g.sheets.spreadsheets.values.clear({ spreadsheetId: id, range: "'Week 48'!A2:Z" });
    expect(one.status).toBe(200);
    expect(one.data).toEqual({ spreadsheetId: id, clearedRange: "'Week 48'!A2:E20" });
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: "'Week 48'!A1:B3" })).data.values).toEqual([['Item', 'Qty']]);
    // gspread's cassettes, recorded live: a whole new sheet is Sheet1!A1:Z1000; batch_clear names its ranges bare.
    expect((await g.sheets.spreadsheets.values.clear({ spreadsheetId: id, range: "'Sheet1'" })).data.clearedRange).toBe('Sheet1!A1:Z1000');
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', requestBody: { values: [['12345', 'ThisIsText'], ['', '', '5678', 'Second', 'Text']] } });
    const both = await g.sheets.spreadsheets.values.batchClear({ spreadsheetId: id, requestBody: { ranges: ["'Sheet1'!A1:B1", "'Sheet1'!C2:E2"] } });
    expect(both.data).toEqual({ spreadsheetId: id, clearedRanges: ['Sheet1!A1:B1', 'Sheet1!C2:E2'] });
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1!A1:E2' })).data.values).toBeUndefined();
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: "'Week 48'!A2", valueInputOption: 'RAW', requestBody: { values: [['kept']] } });
    const refused = await refusal(g.sheets.spreadsheets.values.batchClear({ spreadsheetId: id, requestBody: { ranges: ["'Week 48'!A2", 'Week 49!A1:B2'] } }));
    expect(refused).toEqual({ status: 400, error: { code: 400, message: 'Invalid range[1]: Unable to parse range: Week 49!A1:B2', status: 'INVALID_ARGUMENT' } });
    const past = await refusal(g.sheets.spreadsheets.values.clear({ spreadsheetId: id, range: "'Week 48'!A21:ZZ" }));
    expect(past.error.message).toBe("Range ('Week 48'!A21:ZZ) exceeds grid limits. Max rows: 20, max columns: 5");
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: "'Week 48'!A2" })).data.values).toEqual([['kept']]);
  });

  it('sheets: values.append finds the table as the Sheets guide\'s worked example does (two tables, A1:C2 and B4:D6)', async () => {
    // https://developers.google.com/workspace/sheets/api/guides/values#append_values: the range finds the last table
    // it touches, and a table is the whole block of data around the range's cells, wherever the range starts.
    const fill = async (): Promise<string> => {
      const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Sheet1' } }] } })).data.spreadsheetId!;
      await g.sheets.spreadsheets.values.update({
        spreadsheetId: id,
        range: 'Sheet1!A1:D6',
        valueInputOption: 'RAW',
        requestBody: { values: [['x', 'y', 'z'], ['x', 'y', 'z'], [], ['', 'x', 'y'], ['', '', 'y', 'z'], ['', 'x', 'y', 'z']] },
      });
      return id;
    };
    const cases: [range: string, tableRange: string | undefined, updatedRange: string][] = [
      ['Sheet1', 'Sheet1!B4:D6', 'Sheet1!B7'],
      ['Sheet1!B4', 'Sheet1!B4:D6', 'Sheet1!B7'],
      ['Sheet1!C5:D5', 'Sheet1!B4:D6', 'Sheet1!B7'],
      ['Sheet1!B2:D4', 'Sheet1!B4:D6', 'Sheet1!B7'],
      ['Sheet1!A3:G10', 'Sheet1!B4:D6', 'Sheet1!B7'],
      ['Sheet1!A1', 'Sheet1!A1:C2', 'Sheet1!A3'],
      ['Sheet1!E4', undefined, 'Sheet1!E4'],
      ['Sheet1!A4', undefined, 'Sheet1!A4'],
    ];
    for (const [range, tableRange, updatedRange] of cases) {
      const res = await g.sheets.spreadsheets.values.append({ spreadsheetId: await fill(), range, valueInputOption: 'RAW', requestBody: { values: [['new']] } });
      expect({ range, tableRange: res.data.tableRange ?? undefined, updatedRange: res.data.updates?.updatedRange }).toEqual({ range, tableRange, updatedRange });
    }
  });

  it('sheets: values.append as gspread recorded it against the live API (an empty cell splits a row into two tables)', async () => {
    // burnash/gspread tests/cassettes/WorksheetTest.test_append_row_with_empty_value(_and_table_range).json, recorded
    // 2023-07-25: a row appended twice to the whole sheet goes the second time under its last table, C1 alone (named
    // as one cell), from that table's first column; a range on A1 finds A1 alone and writes under it. "" counts as a
    // cell written (updatedCells 3) but fills none.
    const row = ['first', '', 'third'];
    const append = async (id: string, range: string) => (await g.sheets.spreadsheets.values.append({ spreadsheetId: id, range, valueInputOption: 'RAW', requestBody: { values: [row] } })).data;
    for (const [range, tableRange, updatedRange] of [['Sheet1', 'Sheet1!C1', 'Sheet1!C2:E2'], ['Sheet1!A1', 'Sheet1!A1', 'Sheet1!A2:C2']] as const) {
      const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Sheet1' } }] } })).data.spreadsheetId!;
      expect(await append(id, 'Sheet1')).toEqual({ spreadsheetId: id, updates: { spreadsheetId: id, updatedRange: 'Sheet1!A1:C1', updatedRows: 1, updatedColumns: 3, updatedCells: 3 } });
      expect(await append(id, range)).toEqual({ spreadsheetId: id, tableRange, updates: { spreadsheetId: id, updatedRange, updatedRows: 1, updatedColumns: 3, updatedCells: 3 } });
    }
  });

  it('sheets: a cell past the last column is refused by values.update, while values.append adds the column a wider row needs', async () => {
    // home-assistant/core#104198: its google_sheets.append_sheet writes a new column's header with gspread's
    // update_cell (values.update of Solar!Y1) before append_rows, and that update is what Sheets refused on a sheet of
    // 24 columns. values.append itself adds what the data needs: InsertDataOption OVERWRITE, "adding data to the end
    // of the sheet will still insert new rows or columns so the data can be written" (Sheets API reference).
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Solar', gridProperties: { rowCount: 981, columnCount: 24 } } }] } })).data.spreadsheetId!;
    const header = Array.from({ length: 24 }, (_, i) => `h${i + 1}`);
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Solar!A1', valueInputOption: 'USER_ENTERED', requestBody: { values: [header] } });
    const cell = await refusal(g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Solar!Y1', valueInputOption: 'USER_ENTERED', requestBody: { values: [['h25']] } }));
    expect(cell).toEqual({ status: 400, error: { code: 400, message: 'Range (Solar!Y1) exceeds grid limits. Max rows: 981, max columns: 24', status: 'INVALID_ARGUMENT' } });
    const appended = await g.sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Solar', valueInputOption: 'USER_ENTERED', requestBody: { values: [[...header.map((h) => `${h} value`), 'h25 value']] } });
    expect(appended.data).toEqual({ spreadsheetId: id, tableRange: 'Solar!A1:X1', updates: { spreadsheetId: id, updatedRange: 'Solar!A2:Y2', updatedRows: 1, updatedColumns: 25, updatedCells: 25 } });
    const grid = (await g.sheets.spreadsheets.get({ spreadsheetId: id })).data.sheets?.[0]?.properties?.gridProperties;
    expect(grid).toEqual({ rowCount: 981, columnCount: 25 });
  });

  it('sheets: a typed date reads back as a serial number unformatted or as a formula, and as its text with dateTimeRenderOption FORMATTED_STRING', async () => {
    // DateTimeRenderOption: SERIAL_NUMBER (the default) or FORMATTED_STRING, "ignored if valueRenderOption is
    // FORMATTED_VALUE" (developers.google.com/workspace/sheets/api/reference/rest/v4/DateTimeRenderOption).
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Dates' } }] } })).data.spreadsheetId!;
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Dates!A1', valueInputOption: 'USER_ENTERED', requestBody: { values: [['2026-03-01', 'x']] } });
    const read = async (valueRenderOption: string, dateTimeRenderOption?: string): Promise<unknown> =>
      (await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Dates!A1:B1', valueRenderOption, ...(dateTimeRenderOption ? { dateTimeRenderOption } : {}) })).data.values;
    expect(await read('FORMULA')).toEqual([[46082, 'x']]);
    expect(await read('UNFORMATTED_VALUE', 'SERIAL_NUMBER')).toEqual([[46082, 'x']]);
    expect(await read('FORMULA', 'FORMATTED_STRING')).toEqual([['2026-03-01', 'x']]);
    expect(await read('UNFORMATTED_VALUE', 'FORMATTED_STRING')).toEqual([['2026-03-01', 'x']]);
    expect(await read('FORMATTED_VALUE', 'SERIAL_NUMBER')).toEqual([['2026-03-01', 'x']]);
    const echoed = await g.sheets.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Dates!A2',
      valueInputOption: 'USER_ENTERED',
      includeValuesInResponse: true,
      responseValueRenderOption: 'UNFORMATTED_VALUE',
      responseDateTimeRenderOption: 'FORMATTED_STRING',
      requestBody: { values: [['2026-03-02', 5]] },
    });
    expect(echoed.data.updatedData?.values).toEqual([['2026-03-02', 5]]);
    const bad = await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Dates!A1', valueRenderOption: 'FORMULA', dateTimeRenderOption: 'ISO' }));
    expect(bad.status).toBe(400);
    expect(bad.error.message).toMatch(/date_time_render_option.*"ISO"/);
  });

  it('docs: documents.create/get/batchUpdate, as the tools use them', async () => {
    const created = await g.docs.documents.create({ requestBody: { title: 'SDK notes' } });
    expect(created.status).toBe(200);
    const id = created.data.documentId!;
    expect(created.data.title).toBe('SDK notes');

    const updated = await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Hello {{name}}\n' } }, { replaceAllText: { containsText: { text: '{{name}}', matchCase: true }, replaceText: 'Ana' } }] },
    });
    expect(updated.data.documentId).toBe(id);
    expect(updated.data.replies?.[1]?.replaceAllText?.occurrencesChanged).toBe(1);

    const doc = await g.docs.documents.get({ documentId: id, suggestionsViewMode: 'PREVIEW_SUGGESTIONS_ACCEPTED' });
    const text = doc.data.body?.content?.flatMap((c) => c.paragraph?.elements?.map((e) => e.textRun?.content ?? '') ?? []).join('');
    expect(text).toContain('Hello Ana');

    // What an agent writes into a document comes back on read: a table (filled right to left), a page break,
    // bullets, a named range and the document style.
    const structure = await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: {
        requests: [
          { insertTable: { rows: 2, columns: 2, endOfSegmentLocation: {} } },
          { insertPageBreak: { endOfSegmentLocation: {} } },
          { insertText: { endOfSegmentLocation: {}, text: 'first\nsecond' } },
          { updateDocumentStyle: { documentStyle: { marginLeft: { magnitude: 54, unit: 'PT' } }, fields: 'marginLeft' } },
        ],
      },
    });
    expect(structure.status).toBe(200);
    let read = await g.docs.documents.get({ documentId: id });
    const table = read.data.body!.content!.find((c) => c.table)!;
    const cellIndexes = table.table!.tableRows!.flatMap((r) => r.tableCells!.map((c) => c.content![0]!.startIndex!));
    await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: { requests: cellIndexes.map((index, i) => ({ insertText: { location: { index }, text: `c${i}` } })).reverse() },
    });
    read = await g.docs.documents.get({ documentId: id });
    const paragraphs = read.data.body!.content!.filter((c) => c.paragraph);
    const last = paragraphs.at(-1)!.startIndex!;
    const named = await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: {
        requests: [
          { createParagraphBullets: { range: { startIndex: last - 6, endIndex: last + 1 }, bulletPreset: 'NUMBERED_DECIMAL_ALPHA_ROMAN' } },
          { createNamedRange: { name: 'closing', range: { startIndex: last, endIndex: last + 6 } } },
        ],
      },
    });
    expect(named.data.replies?.[1]?.createNamedRange?.namedRangeId).toBeTruthy();
    read = await g.docs.documents.get({ documentId: id });
    const cells = read.data.body!.content!.find((c) => c.table)!.table!.tableRows!.map((r) => r.tableCells!.map((c) => c.content![0]!.paragraph!.elements![0]!.textRun!.content));
    expect(cells).toEqual([['c0\n', 'c1\n'], ['c2\n', 'c3\n']]);
    expect(read.data.body!.content!.some((c) => c.paragraph?.elements?.some((e) => e.pageBreak))).toBe(true);
    expect(read.data.body!.content!.filter((c) => c.paragraph?.bullet).length).toBe(2);
    expect(Object.keys(read.data.lists ?? {})).toHaveLength(1);
    expect(read.data.namedRanges?.closing?.namedRanges?.[0]?.ranges?.[0]).toEqual({ startIndex: last, endIndex: last + 6 });
    expect(read.data.documentStyle?.marginLeft).toEqual({ magnitude: 54, unit: 'PT' });

    const stale = await refusal(
      g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }], writeControl: { requiredRevisionId: 'stale-revision' } } }),
    );
    expect(stale.status).toBe(400);
  });

  // proto3's JSON mapping: parsers accept a field's lowerCamelCase JSON name and its original proto name alike, and
  // Google's front end does (Sheets bodies sent with update_cells, sheet_id, user_entered_format are applied). The
  // client's types only know the camelCase names, hence the casts.
  it('docs: batchUpdate takes request kinds and fields by their proto names (insert_text, end_of_segment_location)', async () => {
    const id = (await g.docs.documents.create({ requestBody: { title: 'Proto names' } })).data.documentId!;
    const revision = (await g.docs.documents.get({ documentId: id })).data.revisionId!;
    const snake = {
      requests: [
        { insert_text: { end_of_segment_location: { segment_id: '' }, text: 'Hello there\n' } },
        { update_text_style: { range: { start_index: 1, end_index: 6 }, text_style: { bold: true, font_size: { magnitude: 14, unit: 'PT' } }, fields: 'bold,font_size' } },
        { replace_all_text: { contains_text: { text: 'there', match_case: true }, replace_text: 'Ana' } },
      ],
      write_control: { required_revision_id: revision },
    } as unknown as docs_v1.Schema$BatchUpdateDocumentRequest;
    const done = await g.docs.documents.batchUpdate({ documentId: id, requestBody: snake });
    expect(done.status).toBe(200);
    expect(done.data.replies).toEqual([{}, {}, { replaceAllText: { occurrencesChanged: 1 } }]);

    const read = await g.docs.documents.get({ documentId: id });
    const runs = read.data.body!.content!.flatMap((c) => c.paragraph?.elements ?? []).map((e) => e.textRun!);
    expect(runs.map((r) => r.content).join('')).toBe('Hello Ana\n\n');
    // Read back under the JSON names, as Google answers whatever names the request used.
    expect(runs[0]).toMatchObject({ content: 'Hello', textStyle: { bold: true, fontSize: { magnitude: 14, unit: 'PT' } } });

    // A name that is no field under either spelling is still refused, quoted as sent.
    const unknown = await refusal(
      g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insert_texts: { text: 'x' } }] } as unknown as docs_v1.Schema$BatchUpdateDocumentRequest }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.error.message).toBe(`Invalid JSON payload received. Unknown name "insert_texts" at 'requests[0]': Cannot find field.`);
  });

  // The index mistakes agents make most, each refused with Google's own words (the texts live Docs answered, quoted in
  // public reports): index 0 and the last endIndex for an insert, a range past the end, empty, inverted, from the
  // section break at 0, or taking the body's final newline.
  it('docs refusals of index arithmetic, worded as Docs words them', async () => {
    const id = (await g.docs.documents.create({ requestBody: { title: 'Indexes' } })).data.documentId!;
    // "Hello\n": the paragraph spans [1, 7), so the body's last endIndex is 7.
    await g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Hello' } }] } });
    const body = (await g.docs.documents.get({ documentId: id })).data.body!.content!;
    expect(body.at(-1)!.endIndex).toBe(7);
    const refused = async (request: docs_v1.Schema$Request): Promise<string> => {
      const answer = await refusal(g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [request] } }));
      expect(answer.status).toBe(400);
      expect(answer.error.status).toBe('INVALID_ARGUMENT');
      return answer.error.message;
    };
    const bold = { textStyle: { bold: true }, fields: 'bold' };

    expect(await refused({ insertText: { location: { index: 0 }, text: 'x' } })).toBe(
      'Invalid requests[0].insertText: The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines.',
    );
    expect(await refused({ insertText: { location: { index: 7 }, text: 'x' } })).toBe('Invalid requests[0].insertText: Index 7 must be less than the end index of the referenced segment, 7.');
    // Past the end, Docs names the range's last index (endIndex - 1).
    expect(await refused({ deleteContentRange: { range: { startIndex: 1, endIndex: 20 } } })).toBe('Invalid requests[0].deleteContentRange: Index 19 must be less than the end index of the referenced segment, 7.');
    expect(await refused({ updateTextStyle: { range: { startIndex: 1, endIndex: 20 }, ...bold } })).toBe('Invalid requests[0].updateTextStyle: Index 19 must be less than the end index of the referenced segment, 7.');
    expect(await refused({ deleteContentRange: { range: { startIndex: 3, endIndex: 3 } } })).toBe('Invalid requests[0].deleteContentRange: The range should not be empty.');
    expect(await refused({ updateTextStyle: { range: { startIndex: 3, endIndex: 3 }, ...bold } })).toBe('Invalid requests[0].updateTextStyle: The range should not be empty.');
    expect(await refused({ deleteContentRange: { range: { startIndex: 4, endIndex: 2 } } })).toBe('Invalid requests[0].deleteContentRange: Invalid range: end index cannot be less than start index');
    expect(await refused({ deleteContentRange: { range: { startIndex: 0, endIndex: 3 } } })).toBe('Invalid requests[0].deleteContentRange: Cannot operate on the first section break in the document.');
    expect(await refused({ updateTextStyle: { range: { startIndex: 0, endIndex: 3 }, ...bold } })).toBe('Invalid requests[0].updateTextStyle: Cannot operate on the first section break in the document.');
    expect(await refused({ deleteContentRange: { range: { startIndex: 1, endIndex: 7 } } })).toBe('Invalid requests[0].deleteContentRange: The range cannot include the newline character at the end of the segment.');

    // What the description says to send instead is taken: an insert at endIndex - 1 or at the end of the segment,
    // a delete ending before the final newline, a style over the whole body.
    const done = await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: {
        requests: [
          { insertText: { location: { index: 6 }, text: '!' } },
          { insertText: { endOfSegmentLocation: {}, text: '\nEnd' } },
          { deleteContentRange: { range: { startIndex: 1, endIndex: 2 } } },
          { updateTextStyle: { range: { startIndex: 1, endIndex: 11 }, ...bold } },
        ],
      },
    });
    expect(done.status).toBe(200);
    const text = (await g.docs.documents.get({ documentId: id })).data.body!.content!.flatMap((c) => c.paragraph?.elements?.map((e) => e.textRun?.content ?? '') ?? []).join('');
    expect(text).toBe('ello!\nEnd\n');
  });

  // A style update without its field mask: Google's message for every batchUpdate mask (Docs, Sheets, Slides alike).
  it('docs refusal of a style update without fields, worded as Docs words it', async () => {
    const id = (await g.docs.documents.create({ requestBody: { title: 'Masks' } })).data.documentId!;
    await g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Title' } }] } });
    const range = { startIndex: 1, endIndex: 6 };
    for (const [request, kind] of [
      [{ updateTextStyle: { range, textStyle: { bold: true } } }, 'updateTextStyle'],
      [{ updateTextStyle: { range, textStyle: { bold: true }, fields: '' } }, 'updateTextStyle'],
      [{ updateParagraphStyle: { range, paragraphStyle: { namedStyleType: 'HEADING_1' } } }, 'updateParagraphStyle'],
    ] as const) {
      const answer = await refusal(g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [request] } }));
      expect(answer.status).toBe(400);
      expect(answer.error.message).toBe(`Invalid requests[0].${kind}: At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)`);
    }
  });

  // The mask names fields of the style itself: "the root text_style is implied and should not be specified"
  // (UpdateTextStyleRequest.fields). A mask naming a field the style does not have is refused, the batch unapplied.
  it('docs refusal of a field mask naming a field the style does not have (textStyle.bold), nothing applied', async () => {
    const id = (await g.docs.documents.create({ requestBody: { title: 'Masks' } })).data.documentId!;
    await g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Title' } }] } });
    const range = { startIndex: 1, endIndex: 6 };
    for (const [request, message] of [
      [{ updateTextStyle: { range, textStyle: { bold: true }, fields: 'textStyle.bold' } }, 'Invalid requests[1].updateTextStyle: Invalid field: text_style'],
      [{ updateTextStyle: { range, textStyle: { bold: true }, fields: 'bold,colour' } }, 'Invalid requests[1].updateTextStyle: Invalid field: colour'],
      [{ updateParagraphStyle: { range, paragraphStyle: { namedStyleType: 'HEADING_1' }, fields: 'paragraphStyle.namedStyleType' } }, 'Invalid requests[1].updateParagraphStyle: Invalid field: paragraph_style'],
      [{ updateDocumentStyle: { documentStyle: { marginLeft: { magnitude: 54, unit: 'PT' } }, fields: 'documentStyle.marginLeft' } }, 'Invalid requests[1].updateDocumentStyle: Invalid field: document_style'],
    ] as const) {
      const answer = await refusal(g.docs.documents.batchUpdate({ documentId: id, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }, request] } }));
      expect(answer.status).toBe(400);
      expect(answer.error.message).toBe(message);
    }
    const doc = (await g.docs.documents.get({ documentId: id })).data;
    const runs = doc.body!.content!.flatMap((c) => c.paragraph?.elements ?? []);
    expect(runs.map((e) => e.textRun?.content).join('')).toBe('Title\n');
    expect(runs.some((e) => e.textRun?.textStyle?.bold)).toBe(false);
    // The same style with its mask as the reference writes it is applied; a nested path under a style field is taken.
    await g.docs.documents.batchUpdate({
      documentId: id,
      requestBody: { requests: [{ updateTextStyle: { range, textStyle: { bold: true, weightedFontFamily: { fontFamily: 'Lora' } }, fields: 'bold,weightedFontFamily.fontFamily' } }] },
    });
    const styled = (await g.docs.documents.get({ documentId: id })).data.body!.content!.flatMap((c) => c.paragraph?.elements ?? [])[0]!.textRun!.textStyle;
    expect(styled).toMatchObject({ bold: true, weightedFontFamily: { fontFamily: 'Lora' } });
  });

  it('sheets: a read running past the grid is cut to it and one starting past it refused; a write running past it is refused', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Data' } }] } })).data.spreadsheetId!;
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Data!Y5', valueInputOption: 'RAW', requestBody: { values: [['y', 'z']] } });
    const read = await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!A1:AA5' });
    expect(read.data).toEqual({ range: 'Data!A1:Z5', majorDimension: 'ROWS', values: [[], [], [], [], ['', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', 'y', 'z']] });
    const past = await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!AA1:AB2' }));
    expect(past).toEqual({ status: 400, error: { code: 400, message: 'Range (Data!AA1:AB2) exceeds grid limits. Max rows: 1000, max columns: 26', status: 'INVALID_ARGUMENT' } });
    const write = await refusal(g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Data!Z1', valueInputOption: 'RAW', requestBody: { values: [['a', 'b']] } }));
    expect(write.error.message).toBe('Range (Data!Z1:AA1) exceeds grid limits. Max rows: 1000, max columns: 26');
  });

  it('sheets: white space at the start or end of a range is refused, on a read and on a write, naming the range as sent', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Data' } }] } })).data.spreadsheetId!;
    for (const range of [' Data!A1', 'Data!A1 ', 'A1 ']) {
      const read = await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range }));
      expect(read).toEqual({ status: 400, error: { code: 400, message: `Unable to parse range: ${range}`, status: 'INVALID_ARGUMENT' } });
    }
    const write = await refusal(g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Data!B2 ', valueInputOption: 'RAW', requestBody: { values: [['x']] } }));
    expect(write.error.message).toBe('Unable to parse range: Data!B2 ');
  });

  it('sheets: an empty sheet name before a range is the first sheet, quoted or not', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'Other' } }] } })).data.spreadsheetId!;
    const written = await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: "''!B2", valueInputOption: 'RAW', requestBody: { values: [['x']] } });
    expect(written.data.updatedRange).toBe('Data!B2');
    const read = await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: '!A1:B2' });
    expect(read.data).toEqual({ range: 'Data!A1:B2', majorDimension: 'ROWS', values: [[], ['', 'x']] });
    expect((await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: '!Other' }))).error.message).toBe('Unable to parse range: !Other');
  });

  it('sheets: text without ! is cells of the first sheet before it is a sheet title; a title that reads as a cell is named quoted', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'Q1' } }] } })).data.spreadsheetId!;
    expect((await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Q1', valueInputOption: 'RAW', requestBody: { values: [['cell']] } })).data.updatedRange).toBe('Data!Q1');
    expect((await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: "'Q1'", valueInputOption: 'RAW', requestBody: { values: [['sheet']] } })).data.updatedRange).toBe("'Q1'!A1");
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Q1' })).data).toEqual({ range: 'Data!Q1', majorDimension: 'ROWS', values: [['cell']] });
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Q1!A1' })).data.values).toEqual([['sheet']]);
  });

  it('sheets: values.get takes R1C1 notation and answers the range in A1; a range mixing the two is refused', async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { sheets: [{ properties: { title: 'Data' } }] } })).data.spreadsheetId!;
    await g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Data!A1', valueInputOption: 'RAW', requestBody: { values: [['a', 'b'], ['c', 'd']] } });
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!R1C2:R2C2' })).data).toEqual({ range: 'Data!B1:B2', majorDimension: 'ROWS', values: [['b'], ['d']] });
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'R[1]C[0]' })).data).toEqual({ range: 'Data!A2', majorDimension: 'ROWS', values: [['c']] });
    expect((await refusal(g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!A1:R2C2' }))).error.message).toBe('Unable to parse range: Data!A1:R2C2');
  });

  it('sheets: create and values.update take fields by their proto names (grid_properties, major_dimension)', async () => {
    const created = await g.sheets.spreadsheets.create({
      requestBody: { properties: { title: 'Proto names', time_zone: 'Europe/Paris' }, sheets: [{ properties: { title: 'Data', grid_properties: { row_count: 20, column_count: 4 } } }] } as unknown as sheets_v4.Schema$Spreadsheet,
    });
    expect(created.data.properties?.timeZone).toBe('Europe/Paris');
    expect(created.data.sheets?.[0]?.properties?.gridProperties).toEqual({ rowCount: 20, columnCount: 4 });
    const id = created.data.spreadsheetId!;

    const written = await g.sheets.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Data!A1:B3',
      valueInputOption: 'RAW',
      requestBody: { major_dimension: 'COLUMNS', values: [['a', 'b', 'c']] } as unknown as sheets_v4.Schema$ValueRange,
    });
    expect(written.data.updatedRange).toBe('Data!A1:A3');
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Data!A1:B3' })).data.values).toEqual([['a'], ['b'], ['c']]);
  });

  it("sheets: a name a ValueRange does not have is refused on values.update and values.append, with Google's words, writing nothing", async () => {
    const id = (await g.sheets.spreadsheets.create({ requestBody: { properties: { title: 'Unknown names' } } })).data.spreadsheetId!;
    // `value` for `values`: the client sends the body as given; Google's JSON front end refuses the name.
    const misspelled = { value: [['x']] } as unknown as sheets_v4.Schema$ValueRange;
    const update = await refusal(g.sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', requestBody: misspelled }));
    expect(update.status).toBe(400);
    expect(update.error).toMatchObject({ status: 'INVALID_ARGUMENT', message: `Invalid JSON payload received. Unknown name "value" at 'data': Cannot find field.` });
    const append = await refusal(g.sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1', valueInputOption: 'RAW', requestBody: misspelled }));
    expect(append.status).toBe(400);
    expect(append.error.message).toBe(`Invalid JSON payload received. Unknown name "value" at 'data': Cannot find field.`);
    expect((await g.sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' })).data.values).toBeUndefined();
  });
});

/** One tool input and the official client's call for the same operation. */
interface SameOperation {
  tool: string;
  input: Record<string, unknown>;
  /** The client's call; `built` is our builder's request, for values it generates (a conference request id). */
  sdk(g: GoogleClients, built: ReturnType<typeof build>): Promise<unknown>;
}

const START = '2026-03-02T10:00:00+01:00';
const SHEET = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
const DOC = '1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz';
const requestId = (built: ReturnType<typeof build>) => ((built.body as { conferenceData: { createRequest: { requestId: string } } }).conferenceData.createRequest.requestId);

const SAME: SameOperation[] = [
  {
    tool: 'calendar_create_event',
    input: { start_datetime: START, summary: 'Planning', timezone: 'Europe/Paris', attendees_emails: ['ana@example.com'], create_meeting_room: true, send_updates: true, transparency: 'free', event_duration_hour: 1, calendar_id: 'team@group.calendar.google.com', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], visibility: 'private', location: 'Room 4', description: 'Agenda', guests_can_modify: true },
    sdk: (g, built) =>
      g.calendar.events.insert({
        calendarId: 'team@group.calendar.google.com',
        conferenceDataVersion: 1,
        sendUpdates: 'all',
        requestBody: {
          summary: 'Planning',
          description: 'Agenda',
          location: 'Room 4',
          start: { dateTime: START, timeZone: 'Europe/Paris' },
          end: { dateTime: '2026-03-02T11:00:00+01:00', timeZone: 'Europe/Paris' },
          attendees: [{ email: 'ana@example.com' }],
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
          transparency: 'transparent',
          visibility: 'private',
          guestsCanModify: true,
          conferenceData: { createRequest: { requestId: requestId(built), conferenceSolutionKey: { type: 'hangoutsMeet' } } },
        },
      }),
  },
  {
    tool: 'calendar_delete_event',
    input: { event_id: 'ev123', calendar_id: 'c_abc@group.calendar.google.com' },
    sdk: (g) => g.calendar.events.delete({ calendarId: 'c_abc@group.calendar.google.com', eventId: 'ev123' }),
  },
  {
    tool: 'calendar_free_busy',
    input: { time_min: '2026-03-05T13:00:00+01:00', time_max: '2026-03-05T18:00:00+01:00', calendar_ids: ['primary', 'ana@example.com'], timezone: 'Europe/Paris' },
    sdk: (g) =>
      g.calendar.freebusy.query({
        requestBody: { timeMin: '2026-03-05T13:00:00+01:00', timeMax: '2026-03-05T18:00:00+01:00', timeZone: 'Europe/Paris', items: [{ id: 'primary' }, { id: 'ana@example.com' }] },
      }),
  },
  {
    tool: 'calendar_get_event_by_id',
    input: { event_id: 'ev123' },
    sdk: (g) => g.calendar.events.get({ calendarId: 'primary', eventId: 'ev123' }),
  },
  {
    tool: 'calendar_list_calendars',
    input: { max_results: 50, min_access_role: 'writer', page_token: 'p2', show_deleted: true, show_hidden: false },
    sdk: (g) => g.calendar.calendarList.list({ maxResults: 50, minAccessRole: 'writer', pageToken: 'p2', showDeleted: true, showHidden: false }),
  },
  {
    tool: 'calendar_list_events',
    input: { max_results: 100, order_by: 'startTime', page_token: 'p', query: 'plan', single_events: true, time_min: '2026-03-01T00:00:00Z', time_max: '2026-03-31T23:59:59+02:00' },
    sdk: (g) => g.calendar.events.list({ calendarId: 'primary', maxResults: 100, orderBy: 'startTime', pageToken: 'p', q: 'plan', singleEvents: true, timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-03-31T23:59:59+02:00' }),
  },
  {
    tool: 'calendar_update_event',
    input: { calendar_id: 'primary', event_id: 'ev123', start_datetime: START, end_datetime: '2026-03-02T12:00:00+01:00', timezone: 'Europe/Paris', send_updates: false, summary: 'Moved' },
    sdk: (g) =>
      g.calendar.events.patch({
        calendarId: 'primary',
        eventId: 'ev123',
        sendUpdates: 'none',
        // `date: null`: the patch merges into the stored start/end, so a time must clear an all-day date.
        requestBody: { summary: 'Moved', start: { date: null, dateTime: START, timeZone: 'Europe/Paris' }, end: { date: null, dateTime: '2026-03-02T12:00:00+01:00', timeZone: 'Europe/Paris' } },
      }),
  },
  {
    tool: 'sheets_create_spreadsheet',
    input: { title: 'Q1 budget', locale: 'fr_FR', time_zone: 'Europe/Paris', sheets: [{ properties: { title: 'Data' } }] },
    sdk: (g) => g.sheets.spreadsheets.create({ requestBody: { properties: { title: 'Q1 budget', locale: 'fr_FR', timeZone: 'Europe/Paris' }, sheets: [{ properties: { title: 'Data' } }] } }),
  },
  {
    tool: 'sheets_add_sheet',
    input: { spreadsheet_id: SHEET, title: 'Week 48', index: 1, row_count: 100, column_count: 10 },
    sdk: (g) =>
      g.sheets.spreadsheets.batchUpdate({
        spreadsheetId: SHEET,
        requestBody: { requests: [{ addSheet: { properties: { title: 'Week 48', index: 1, gridProperties: { rowCount: 100, columnCount: 10 } } } }] },
      }),
  },
  {
    tool: 'sheets_clear_values',
    input: { spreadsheet_id: SHEET, ranges: ["'Week 47'!A2:C20", 'Totals!B2'] },
    sdk: (g) => g.sheets.spreadsheets.values.batchClear({ spreadsheetId: SHEET, requestBody: { ranges: ["'Week 47'!A2:C20", 'Totals!B2'] } }),
  },
  {
    tool: 'sheets_get_values',
    input: { spreadsheet_id: SHEET, range: "'My Sheet'!A1:D10", major_dimension: 'COLUMNS', value_render_option: 'FORMULA', date_time_render_option: 'FORMATTED_STRING' },
    sdk: (g) => g.sheets.spreadsheets.values.get({ spreadsheetId: SHEET, range: "'My Sheet'!A1:D10", majorDimension: 'COLUMNS', valueRenderOption: 'FORMULA', dateTimeRenderOption: 'FORMATTED_STRING' }),
  },
  {
    tool: 'sheets_read_spreadsheet',
    input: { spreadsheet_id: SHEET, include_grid_data: true, ranges: 'Sheet1!A1:C20' },
    sdk: (g) => g.sheets.spreadsheets.get({ spreadsheetId: SHEET, includeGridData: true, ranges: ['Sheet1!A1:C20'] }),
  },
  {
    tool: 'sheets_update_values',
    input: { spreadsheet_id: SHEET, range: 'Sheet1!A1:C2', values: [['Item', 'Qty'], ['Anvil', 2]], include_values_in_response: true },
    sdk: (g) =>
      g.sheets.spreadsheets.values.update({ spreadsheetId: SHEET, range: 'Sheet1!A1:C2', valueInputOption: 'USER_ENTERED', includeValuesInResponse: true, requestBody: { values: [['Item', 'Qty'], ['Anvil', 2]] } }),
  },
  {
    tool: 'sheets_append_values',
    input: { spreadsheet_id: SHEET, range: "'Expense log'!A:D", values: [['2026-03-01', 'Anvil', 2]], insert_data_option: 'INSERT_ROWS', include_values_in_response: true },
    sdk: (g) =>
      g.sheets.spreadsheets.values.append({
        spreadsheetId: SHEET,
        range: "'Expense log'!A:D",
        valueInputOption: 'USER_ENTERED',
        insertDataOption: 'INSERT_ROWS',
        includeValuesInResponse: true,
        requestBody: { values: [['2026-03-01', 'Anvil', 2]] },
      }),
  },
  {
    tool: 'docs_create_document',
    input: { title: 'Notes' },
    sdk: (g) => g.docs.documents.create({ requestBody: { title: 'Notes' } }),
  },
  {
    tool: 'docs_read_document',
    input: { document_id: DOC, suggestions_view_mode: 'PREVIEW_SUGGESTIONS_ACCEPTED' },
    sdk: (g) => g.docs.documents.get({ documentId: DOC, suggestionsViewMode: 'PREVIEW_SUGGESTIONS_ACCEPTED' }),
  },
  {
    tool: 'docs_update_document',
    input: { document_id: DOC, requests: [{ insertText: { location: { index: 1 }, text: 'Hello\n' } }], write_control: { requiredRevisionId: 'rev-7' } },
    sdk: (g) => g.docs.documents.batchUpdate({ documentId: DOC, requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Hello\n' } }], writeControl: { requiredRevisionId: 'rev-7' } } }),
  },
];

describe('our request builders send what the official Google clients send', () => {
  let recorder: RecordingServer;
  let g: GoogleClients;

  beforeAll(async () => {
    recorder = await startRecordingServer();
    g = googleClients({ calendar: recorder.url, sheets: recorder.url, docs: recorder.url }, 'recorded-token');
  });
  afterAll(() => recorder.close());

  it('covers every calendar, sheets and docs tool', () => {
    const google = (tools as readonly ToolDefinition[]).filter((t) => ['calendar', 'sheets', 'docs'].includes(t.connector)).map((t) => t.name);
    expectEveryToolCovered('SAME in test/sandbox/sdk/google-sdk.test.ts', SAME.map((c) => c.tool), google);
  });

  it.each(SAME.map((c) => [c.tool, c] as const))('%s', async (_name, c) => {
    const built = build(c.tool, c.input);
    await c.sdk(g, built);
    const sent = recorder.take();
    expect(sent.headers.authorization).toBe('Bearer recorded-token');
    expect(builderRequest(built)).toEqual(asSeenUpstream(sent));
  });
});
