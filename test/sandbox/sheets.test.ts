import { beforeEach, describe, expect, it } from 'vitest';
import { createSheetsApi } from '../../sandbox/apis/sheets/index.js';
import type { ApiModule } from '../../sandbox/types.js';

const USER = 'sam@example.com';
type Body = Record<string, any>;
let api: ApiModule;

async function call(method: string, path: string, opts: { query?: Record<string, string | string[]>; body?: unknown; scopes?: string[]; user?: string } = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {})) for (const one of [v].flat()) q.append(k, one);
  const res = await api.handle({
    method,
    path,
    query: q,
    headers: {},
    body: opts.body,
    user: opts.user ?? USER,
    scopes: opts.scopes ?? ['https://www.googleapis.com/auth/spreadsheets'],
    now: Date.parse('2024-03-01T12:00:00Z'),
  });
  return res as { status: number; body: Body };
}

function expectError(res: { status: number; body: Body }, status: number, statusName: string, message?: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body.error).sort()).toEqual(expect.arrayContaining(['code', 'message', 'status']));
  expect(res.body.error.errors).toBeUndefined();
  expect(res.body.error.code).toBe(status);
  expect(res.body.error.status).toBe(statusName);
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else if (message) expect(res.body.error.message).toMatch(message);
}

/** Google's JSON front end refusing a field name its message does not have. */
const unknown = (name: string, at: string): string => `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;

const valuesPath = (id: string, range: string): string => `/v4/spreadsheets/${id}/values/${encodeURIComponent(range)}`;

async function create(body?: unknown): Promise<Body> {
  const res = await call('POST', '/v4/spreadsheets', { body });
  expect(res.status).toBe(200);
  return res.body;
}

async function put(id: string, range: string, values: unknown[][], option = 'USER_ENTERED', extra: Record<string, string> = {}, body: Body = {}) {
  return call('PUT', valuesPath(id, range), { query: { valueInputOption: option, ...extra }, body: { values, ...body } });
}

beforeEach(() => {
  api = createSheetsApi();
  api.seedUser(USER, 0);
});

describe('spreadsheets.create / get', () => {
  it('creates with defaults: Sheet1, 1000 x 26, server id, URL', async () => {
    const book = await create();
    expect(book.spreadsheetId).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(book.spreadsheetUrl).toBe(`https://docs.google.com/spreadsheets/d/${book.spreadsheetId}/edit`);
    expect(book.properties).toMatchObject({ title: 'Untitled spreadsheet', locale: 'en_US', autoRecalc: 'ON_CHANGE' });
    expect(book.sheets).toEqual([
      { properties: { sheetId: 0, title: 'Sheet1', index: 0, sheetType: 'GRID', gridProperties: { rowCount: 1000, columnCount: 26 } } },
    ]);
    const got = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`);
    expect(got.body).toEqual(book);
  });

  it('creates with a title and named sheets, refusing duplicate titles', async () => {
    const book = await create({
      properties: { title: 'Budget', locale: 'fr_FR', timeZone: 'Europe/Paris' },
      sheets: [{ properties: { title: 'My Sheet', gridProperties: { rowCount: 10, columnCount: 5 } } }, { properties: { title: 'Other' } }],
    });
    expect(book.properties).toMatchObject({ title: 'Budget', locale: 'fr_FR', timeZone: 'Europe/Paris' });
    expect(book.sheets.map((s: Body) => [s.properties.title, s.properties.index])).toEqual([['My Sheet', 0], ['Other', 1]]);
    expect(book.sheets[0].properties.gridProperties).toEqual({ rowCount: 10, columnCount: 5 });
    const dup = await call('POST', '/v4/spreadsheets', { body: { sheets: [{ properties: { title: 'A' } }, { properties: { title: 'a' } }] } });
    expectError(dup, 400, 'INVALID_ARGUMENT', /already exists/);
  });

  it("refuses a name the Spreadsheet, a Sheet or their properties do not have, as Google's JSON front end does, before creating anything", async () => {
    // A sheet's title beside its properties, not in them: Google refuses it; it is not a sheet named Sheet1.
    expectError(await call('POST', '/v4/spreadsheets', { body: { sheets: [{ title: 'Income' }, { title: 'Expenses' }] } }), 400, 'INVALID_ARGUMENT',
      `${unknown('title', 'spreadsheet.sheets[0]')}\n${unknown('title', 'spreadsheet.sheets[1]')}`);
    expectError(await call('POST', '/v4/spreadsheets', { body: { title: 'Budget' } }), 400, 'INVALID_ARGUMENT', unknown('title', 'spreadsheet'));
    expectError(await call('POST', '/v4/spreadsheets', { body: { properties: { name: 'Budget' } } }), 400, 'INVALID_ARGUMENT', unknown('name', 'spreadsheet.properties'));
    expectError(await call('POST', '/v4/spreadsheets', { body: { sheets: [{ properties: { name: 'Data' } }] } }), 400, 'INVALID_ARGUMENT', unknown('name', 'spreadsheet.sheets[0].properties'));
    // A name that is no field under either spelling is quoted as sent, not as its camelCase reading.
    expectError(await call('POST', '/v4/spreadsheets', { body: { properties: { time_zones: 'Europe/Paris' } } }), 400, 'INVALID_ARGUMENT', unknown('time_zones', 'spreadsheet.properties'));
    // Every field of the reference, by its JSON or proto name, is taken.
    const book = await create({
      properties: { title: 'Budget', auto_recalc: 'ON_CHANGE' },
      sheets: [{ properties: { title: 'Data', sheet_type: 'GRID', hidden: false, tabColorStyle: { rgbColor: {} } }, merges: [], conditionalFormats: [], bandedRanges: [], row_groups: [] }],
    });
    expect(book.sheets.map((s: Body) => s.properties.title)).toEqual(['Data']);
  });

  it('refuses initial data with a cell of more than 50,000 characters, string or formula, as values writes do', async () => {
    const withCell = (userEnteredValue: Body) => ({ sheets: [{ data: [{ rowData: [{ values: [{}, { userEnteredValue }] }] }] }] });
    const message = 'Your input contains more than the maximum of 50000 characters in a single cell.';
    expectError(await call('POST', '/v4/spreadsheets', { body: withCell({ stringValue: 'x'.repeat(50_001) }) }), 400, 'INVALID_ARGUMENT', message);
    expectError(await call('POST', '/v4/spreadsheets', { body: withCell({ formulaValue: `="${'x'.repeat(49_999)}"` }) }), 400, 'INVALID_ARGUMENT', message);
    const book = await create(withCell({ stringValue: 'x'.repeat(50_000) }));
    expect((await call('GET', valuesPath(book.spreadsheetId, 'B1'))).body.values[0][0]).toHaveLength(50_000);
  });

  it('answers 404 NOT_FOUND for an unknown spreadsheet, 403 PERMISSION_DENIED for one not shared with the caller', async () => {
    expectError(await call('GET', '/v4/spreadsheets/nope'), 404, 'NOT_FOUND', 'Requested entity was not found.');
    expectError(await call('GET', valuesPath('nope', 'A1')), 404, 'NOT_FOUND');
    // Google answers an account a file was never shared with (another user, a service account) 403, not 404.
    const book = await create();
    expectError(await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { user: 'eve@example.com' }), 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    expectError(await call('GET', valuesPath(book.spreadsheetId, 'A1'), { user: 'eve@example.com' }), 403, 'PERMISSION_DENIED');
    expectError(await call('PUT', valuesPath(book.spreadsheetId, 'A1'), { user: 'eve@example.com', query: { valueInputOption: 'RAW' }, body: { values: [['x']] } }), 403, 'PERMISSION_DENIED');
  });

  it('includeGridData returns CellData with user-entered, effective and formatted values', async () => {
    const book = await create();
    await put(book.spreadsheetId, 'Sheet1!A1', [['1', '2', '=A1+B1'], ['', 'x']]);
    const res = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { includeGridData: 'true' } });
    const data = res.body.sheets[0].data[0];
    expect(data.rowData[0].values[2]).toEqual({
      userEnteredValue: { formulaValue: '=A1+B1' },
      effectiveValue: { numberValue: 3 },
      formattedValue: '3',
    });
    expect(data.rowData[1].values).toEqual([{}, { userEnteredValue: { stringValue: 'x' }, effectiveValue: { stringValue: 'x' }, formattedValue: 'x' }]);
    expect(data.rowData).toHaveLength(2);
    expect(data.rowMetadata).toHaveLength(1000);
    const plain = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`);
    expect(plain.body.sheets[0].data).toBeUndefined();
  });

  it('ranges limit the sheets and the grid data returned', async () => {
    const book = await create({ sheets: [{ properties: { title: 'One' } }, { properties: { title: 'Two' } }] });
    await put(book.spreadsheetId, 'Two!A1', [['a', 'b'], ['c', 'd']]);
    const res = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { ranges: 'Two!B2:C3', includeGridData: 'true' } });
    expect(res.body.sheets).toHaveLength(1);
    expect(res.body.sheets[0].properties.title).toBe('Two');
    expect(res.body.sheets[0].data[0]).toMatchObject({ startRow: 1, startColumn: 1, rowData: [{ values: [{ formattedValue: 'd' }] }] });
    const both = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { ranges: ['One!A1', 'Two!A1'] } });
    expect(both.body.sheets).toHaveLength(2);
    expectError(await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { ranges: 'Nope!A1' } }), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Nope!A1');
  });

  it('a range running past the grid is cut to it, one starting past it refused, as values.get does', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Small', gridProperties: { rowCount: 3, columnCount: 2 } } }] });
    await put(book.spreadsheetId, 'Small!B3', [['x']]);
    const res = await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { ranges: 'Small!A2:D9', includeGridData: 'true' } });
    expect(res.status).toBe(200);
    const data = res.body.sheets[0].data[0];
    expect(data).toMatchObject({ startRow: 1, rowData: [{}, { values: [{}, { formattedValue: 'x' }] }] });
    expect([data.rowMetadata.length, data.columnMetadata.length]).toEqual([2, 2]);
    expectError(await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`, { query: { ranges: 'Small!C1' } }), 400, 'INVALID_ARGUMENT', 'Range (Small!C1) exceeds grid limits. Max rows: 3, max columns: 2');
  });
});

describe('spreadsheets.values', () => {
  let id: string;
  beforeEach(async () => {
    id = (await create({ sheets: [{ properties: { title: 'Sheet1' } }, { properties: { title: 'My Sheet' } }] })).spreadsheetId;
  });

  it('update requires valueInputOption', async () => {
    const res = await call('PUT', valuesPath(id, 'A1'), { body: { values: [['x']] } });
    expectError(res, 400, 'INVALID_ARGUMENT', 'Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED');
    expectError(await put(id, 'A1', [['x']], 'TYPED'), 400, 'INVALID_ARGUMENT', /value_input_option/);
  });

  it('RAW stores strings as-is; USER_ENTERED parses numbers, booleans, percents and formulas', async () => {
    await put(id, 'A1', [['=1+1', '42', 'TRUE', '5%']], 'RAW');
    await put(id, 'A2', [['=1+1', '42', 'TRUE', '5%', "'007", '1,234.5']], 'USER_ENTERED');
    const unformatted = await call('GET', valuesPath(id, 'A1:F2'), { query: { valueRenderOption: 'UNFORMATTED_VALUE' } });
    expect(unformatted.body.values).toEqual([
      ['=1+1', '42', 'TRUE', '5%'],
      [2, 42, true, 0.05, '007', 1234.5],
    ]);
    const formatted = await call('GET', valuesPath(id, 'A2:F2'));
    expect(formatted.body.values).toEqual([['2', '42', 'TRUE', '5%', '007', '1234.5']]);
    const formulas = await call('GET', valuesPath(id, 'A1:B2'), { query: { valueRenderOption: 'FORMULA' } });
    expect(formulas.body.values).toEqual([['=1+1', '42'], ['=1+1', 42]]);
    expectError(await call('GET', valuesPath(id, 'A1'), { query: { valueRenderOption: 'PRETTY' } }), 400, 'INVALID_ARGUMENT');
  });

  it('USER_ENTERED takes a year-month-day date as a date: its serial number, shown back as typed; RAW keeps the text', async () => {
    await put(id, 'A1', [['2026-03-01', '=A1+1', '2026-02-30', '2024-2-29']], 'USER_ENTERED');
    await put(id, 'A2', [['2026-03-01']], 'RAW');
    const unformatted = await call('GET', valuesPath(id, 'A1:D2'), { query: { valueRenderOption: 'UNFORMATTED_VALUE' } });
    // 46082 days after 30 December 1899; a day not in the calendar stays text.
    expect(unformatted.body.values).toEqual([[46082, 46083, '2026-02-30', 45351], ['2026-03-01']]);
    expect((await call('GET', valuesPath(id, 'A1:A2'))).body.values).toEqual([['2026-03-01'], ['2026-03-01']]);
    expect((await call('GET', valuesPath(id, 'C1:D1'))).body.values).toEqual([['2026-02-30', '2024-02-29']]);
    const grid = await call('GET', `/v4/spreadsheets/${id}`, { query: { ranges: 'A1', includeGridData: 'true' } });
    expect(grid.body.sheets[0].data[0].rowData[0].values[0]).toEqual({
      userEnteredValue: { numberValue: 46082 },
      effectiveValue: { numberValue: 46082 },
      formattedValue: '2026-03-01',
      userEnteredFormat: { numberFormat: { type: 'DATE', pattern: 'yyyy-mm-dd' } },
    });
  });

  it('JSON numbers and booleans stay typed; null leaves a cell alone and "" clears it', async () => {
    await put(id, 'A1', [[1.5, false, 'keep', 'drop']], 'RAW');
    await put(id, 'A1', [[null, null, null, '']], 'RAW');
    const res = await call('GET', valuesPath(id, 'A1:D1'), { query: { valueRenderOption: 'UNFORMATTED_VALUE' } });
    expect(res.body.values).toEqual([[1.5, false, 'keep']]);
  });

  it('formulas recompute from their inputs, and report errors', async () => {
    await put(id, 'A1', [['1', '2'], ['3', '4'], ['=SUM(A1:B2)', '=A1/0'], ['=B4', '=A4'], ['=Z99']]);
    expect((await call('GET', valuesPath(id, 'A3:B3'))).body.values).toEqual([['10', '#DIV/0!']]);
    await put(id, 'A1', [['100']]);
    expect((await call('GET', valuesPath(id, 'A3'))).body.values).toEqual([['109']]);
    expect((await call('GET', valuesPath(id, 'A4:B4'))).body.values).toEqual([['#REF!', '#REF!']]);
    expect((await call('GET', valuesPath(id, 'A5'))).body.values).toBeUndefined();
    await put(id, "'My Sheet'!A1", [['=Sheet1!A1*2']]);
    expect((await call('GET', valuesPath(id, "'My Sheet'!A1"))).body.values).toEqual([['200']]);
  });

  it('trims trailing empty rows and columns and omits values when empty', async () => {
    await put(id, 'B2', [['x', '', 'y'], ['', '', ''], ['z']]);
    const res = await call('GET', valuesPath(id, 'A1:J10'));
    expect(res.body).toEqual({ range: 'Sheet1!A1:J10', majorDimension: 'ROWS', values: [[], ['', 'x', '', 'y'], [], ['', 'z']] });
    const empty = await call('GET', valuesPath(id, 'F20:G30'));
    expect(empty.body).toEqual({ range: 'Sheet1!F20:G30', majorDimension: 'ROWS' });
  });

  it('reads by columns', async () => {
    await put(id, 'A1', [['a', 'b'], ['c', 'd'], ['e']]);
    const res = await call('GET', valuesPath(id, 'A1:B3'), { query: { majorDimension: 'COLUMNS' } });
    expect(res.body).toEqual({ range: 'Sheet1!A1:B3', majorDimension: 'COLUMNS', values: [['a', 'c', 'e'], ['b', 'd']] });
  });

  it('writes by columns', async () => {
    await put(id, 'A1:B2', [['a', 'b'], ['c', 'd']], 'RAW', {}, { majorDimension: 'COLUMNS' });
    expect((await call('GET', valuesPath(id, 'A1:B2'))).body.values).toEqual([['a', 'c'], ['b', 'd']]);
  });

  it.each([
    ['A1:C10', 'Sheet1!A1:C10'],
    ['A:C', 'Sheet1!A1:C1000'],
    ['2:4', 'Sheet1!A2:Z4'],
    ['Sheet1', 'Sheet1!A1:Z1000'],
    ["'My Sheet'!A1:C10", "'My Sheet'!A1:C10"],
    // Unquoted names with a space, and names in another case, are read as Sheets reads them (sandbox/apis/sheets/a1.ts).
    ['My Sheet!B2', "'My Sheet'!B2"],
    ['my sheet', "'My Sheet'!A1:Z1000"],
    ['MY SHEET!B2:C3', "'My Sheet'!B2:C3"],
    ['A5:B', 'Sheet1!A5:B1000'],
    // An empty sheet name before a range is the first sheet (brekkylab/backlot, measured on values.get).
    ['!B2:C3', 'Sheet1!B2:C3'],
    ["''!A:B", 'Sheet1!A1:B1000'],
  ])('normalizes the range %s to %s', async (input, want) => {
    const res = await call('GET', valuesPath(id, input));
    expect(res.status).toBe(200);
    expect(res.body.range).toBe(want);
  });

  // Text without `!` is read as cells first, and as a sheet title only when it is no range: a sheet titled like a cell
  // is read by its quoted title (brekkylab/backlot, measured: bare `A1` is cell A1 in a workbook with a sheet `A1`;
  // gspread-dataframe#54: 'CRM26' answered 'Range (query!CRM26) exceeds grid limits' beside a sheet CRM26;
  // google-api-ruby-client#715, the same on a write; urbancups/node-sheets#5).
  it('reads text without ! as cells of the first sheet before a sheet of that title; quoted, it is the title', async () => {
    const book = (await create({ sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'B2' } }, { properties: { title: 'AB12' } }] })).spreadsheetId;
    await put(book, "'B2'!A1", [['in sheet B2']]);
    await put(book, 'B2', [['cell B2 of Data']]);
    expect((await call('GET', valuesPath(book, 'Data!B2'))).body.values).toEqual([['cell B2 of Data']]);
    expect((await call('GET', valuesPath(book, 'B2'))).body).toEqual({ range: 'Data!B2', majorDimension: 'ROWS', values: [['cell B2 of Data']] });
    expect((await call('GET', valuesPath(book, "'B2'"))).body).toMatchObject({ range: "'B2'!A1:Z1000", values: [['in sheet B2']] });
    expectError(await call('GET', valuesPath(book, 'AB12')), 400, 'INVALID_ARGUMENT', 'Range (Data!AB12) exceeds grid limits. Max rows: 1000, max columns: 26');
  });

  it.each(['Nope!A1', 'A1:B2:C3', "'My Sheet!A1", 'Sheet1!ZZZZ1', ' A1', 'A1 ', 'Sheet1!A1:B2 ', "'My Sheet' !A1", 'Sheet1 ', 'A1: B2', '!', '!Sheet1', "''"])('refuses the range %j', async (range) => {
    expectError(await call('GET', valuesPath(id, range)), 400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
  });

  // A read's end past the grid is cut to it, its start past the grid refused, naming the range as Sheets writes it
  // (whole columns by their letters, whole rows by their numbers): measured against the live API by
  // brekkylab/backlot (backlot/routers/google.py, `_a1_range`); the names match gspread-dataframe#54 and
  // google-api-ruby-client#715 ('d09037' named Sheet1!D9037).
  it.each([
    ['A1:AA5', 'Sheet1!A1:Z5'],
    ['Y1:AZ2', 'Sheet1!Y1:Z2'],
    ['A999:B2000', 'Sheet1!A999:B1000'],
    ['Z1000:ZZZ9999', 'Sheet1!Z1000'],
    ['1:1001', 'Sheet1!A1:Z1000'],
  ])('cuts a read running past the grid, %s, to it: %s', async (range, want) => {
    await put(id, 'Z5', [['edge']]);
    const res = await call('GET', valuesPath(id, range));
    expect(res.status).toBe(200);
    expect(res.body.range).toBe(want);
  });

  it('answers the cells a cut read still covers', async () => {
    await put(id, 'Y5', [['y', 'z']]);
    expect((await call('GET', valuesPath(id, 'Y5:AC5'))).body).toEqual({ range: 'Sheet1!Y5:Z5', majorDimension: 'ROWS', values: [['y', 'z']] });
  });

  it.each([
    ['A1001', 'Sheet1!A1001'],
    ['a1001:b1002', 'Sheet1!A1001:B1002'],
    ['AA1:AB2', 'Sheet1!AA1:AB2'],
    ['AA:AB', 'Sheet1!AA:AB'],
    ['ZZ:ZZ', 'Sheet1!ZZ'],
    ['1001:1002', 'Sheet1!1001:1002'],
    ["'My Sheet'!AA3", "'My Sheet'!AA3"],
  ])('refuses a read starting past the grid, %s, naming %s', async (range, named) => {
    expectError(await call('GET', valuesPath(id, range)), 400, 'INVALID_ARGUMENT', `Range (${named}) exceeds grid limits. Max rows: 1000, max columns: 26`);
  });

  // values.get takes R1C1 as well as A1 ("The A1 notation or R1C1 notation of the range to retrieve values from",
  // its reference) and answers the A1 range; the grammar and these answers were measured on the live API by
  // brekkylab/backlot (#174, backlot/routers/google.py `_R1C1_END`).
  it.each([
    ['R1C1:R2C2', 'Sheet1!A1:B2'],
    ['R[1]C[1]', 'Sheet1!B2'],
    ["'My Sheet'!R[3]C[1]", "'My Sheet'!B4"],
    ['R1C1:R[2]C[2]', 'Sheet1!A1:C3'],
    ['RC', 'Sheet1!A1'],
    ['R[1]', 'Sheet1!A2:Z2'],
    ['C[1]', 'Sheet1!B1:B1000'],
    ['R1C1:R2', 'Sheet1!A1:Z2'],
    ['R1C1:C2', 'Sheet1!A1:B1000'],
    ['R3C3:R1C1', 'Sheet1!A1:C3'],
    ['R1C1:R2000C50', 'Sheet1!A1:Z1000'],
    ['!R[1]C[1]', 'Sheet1!B2'],
  ])('values.get reads the R1C1 range %s as %s', async (range, want) => {
    await put(id, 'A1', [['a', 'b'], ['c', 'd']]);
    const res = await call('GET', valuesPath(id, range));
    expect(res.status).toBe(200);
    expect(res.body.range).toBe(want);
  });

  it('values.get answers R1C1 with the cells, refuses what Sheets refuses in it, and names a start past the grid in A1', async () => {
    await put(id, 'A1', [['a', 'b'], ['c', 'd']]);
    expect((await call('GET', valuesPath(id, 'R1C2:R2C2'))).body).toEqual({ range: 'Sheet1!B1:B2', majorDimension: 'ROWS', values: [['b'], ['d']] });
    for (const range of ['A1:R2C2', 'R1C1:B2', 'R2C2:R1C1', 'R0C1', 'R[-1]C[0]']) {
      expectError(await call('GET', valuesPath(id, range)), 400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
    }
    const past: Array<[string, string]> = [['R[1000]C[0]', 'Sheet1!A1001'], ['C[26]', 'Sheet1!AA'], ['R[1000]:R[1000]', 'Sheet1!1001'], ['RC1', 'Sheet1!RC1']];
    for (const [range, named] of past) {
      expectError(await call('GET', valuesPath(id, range)), 400, 'INVALID_ARGUMENT', `Range (${named}) exceeds grid limits. Max rows: 1000, max columns: 26`);
    }
  });

  it('a bare R1C1 token is cells before it is a sheet title, and such a title echoes quoted', async () => {
    const book = (await create({ sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'RC' } }] })).spreadsheetId;
    await put(book, 'Data!A1', [['first']]);
    await put(book, "'RC'!A1", [['rc']]);
    expect((await call('GET', valuesPath(book, 'RC'))).body).toEqual({ range: 'Data!A1', majorDimension: 'ROWS', values: [['first']] });
    expect((await call('GET', valuesPath(book, "'RC'!A1"))).body).toEqual({ range: "'RC'!A1", majorDimension: 'ROWS', values: [['rc']] });
  });

  it('writes and spreadsheets.get take no R1C1: only values.get is documented and measured with it', async () => {
    expectError(await put(id, 'Sheet1!R1C1', [['x']]), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Sheet1!R1C1');
    expectError(await call('GET', `/v4/spreadsheets/${id}`, { query: { ranges: 'Sheet1!R1C1:R2C2' } }), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Sheet1!R1C1:R2C2');
  });

  it('reports what was written; writing outside the range is 400', async () => {
    const res = await put(id, "'My Sheet'!B2:D3", [['1', '2'], ['3']]);
    expect(res.body).toEqual({ spreadsheetId: id, updatedRange: "'My Sheet'!B2:C3", updatedRows: 2, updatedColumns: 2, updatedCells: 3 });
    expectError(await put(id, 'A1:B2', [['1', '2', '3']]), 400, 'INVALID_ARGUMENT', 'Requested writing within range [Sheet1!A1:B2], but tried writing to column [C]');
    expectError(await put(id, 'A1:B2', [['1'], ['2'], ['3']]), 400, 'INVALID_ARGUMENT', 'Requested writing within range [Sheet1!A1:B2], but tried writing to row [3]');
    expectError(await put(id, 'Sheet1!B2 ', [['1']]), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Sheet1!B2 ');
    expect((await call('GET', valuesPath(id, 'A1:C3'))).body.values).toBeUndefined();
  });

  it('a single-cell range anchors a larger write within the grid', async () => {
    const res = await put(id, 'X1', [['a', 'b', 'c']]);
    expect(res.body.updatedRange).toBe('Sheet1!X1:Z1');
  });

  it('refuses a write running past the grid, which values.update never grows', async () => {
    expectError(await put(id, 'Y1', [['a', 'b', 'c', 'd']]), 400, 'INVALID_ARGUMENT', 'Range (Sheet1!Y1:AB1) exceeds grid limits. Max rows: 1000, max columns: 26');
    expectError(await put(id, 'A1000', [['a'], ['b']]), 400, 'INVALID_ARGUMENT', 'Range (Sheet1!A1000:A1001) exceeds grid limits. Max rows: 1000, max columns: 26');
    const book = await call('GET', `/v4/spreadsheets/${id}`);
    expect(book.body.sheets[0].properties.gridProperties).toEqual({ rowCount: 1000, columnCount: 26 });
    expect((await call('GET', valuesPath(id, 'Y1:Z1'))).body.values).toBeUndefined();
  });

  it('refuses a cell of more than 50,000 characters, in either input option, and writes nothing', async () => {
    const long = 'x'.repeat(50_001);
    for (const option of ['RAW', 'USER_ENTERED']) {
      expectError(await put(id, 'A1', [['ok', long]], option), 400, 'INVALID_ARGUMENT', 'Your input contains more than the maximum of 50000 characters in a single cell.');
    }
    expect((await call('GET', valuesPath(id, 'A1:B1'))).body.values).toBeUndefined();
    expect((await put(id, 'A1', [['x'.repeat(50_000)]], 'RAW')).status).toBe(200);
  });

  it('includeValuesInResponse returns updatedData rendered', async () => {
    const res = await put(id, 'A1', [['1', '=A1*3']], 'USER_ENTERED', { includeValuesInResponse: 'true' });
    expect(res.body.updatedData).toEqual({ range: 'Sheet1!A1:B1', majorDimension: 'ROWS', values: [['1', '3']] });
    const raw = await put(id, 'A1', [['1', '=A1*3']], 'USER_ENTERED', { includeValuesInResponse: 'true', responseValueRenderOption: 'FORMULA' });
    expect(raw.body.updatedData.values).toEqual([[1, '=A1*3']]);
  });

  it('refuses a body range that disagrees with the URL', async () => {
    const res = await put(id, 'A1:B2', [['x']], 'RAW', {}, { range: 'C1:D2' });
    expectError(res, 400, 'INVALID_ARGUMENT');
    expect((await put(id, 'A1:B2', [['x']], 'RAW', {}, { range: 'Sheet1!A1:B2' })).status).toBe(200);
  });

  // The body is the request's `data` (a ValueRange: range, majorDimension, values). Sent a BatchUpdateValuesRequest,
  // values.update answered `Unknown name "valueInputOption" at 'data': Cannot find field.` and the same for "data", one
  // line each (googleapis/google-api-dotnet-client#2161).
  it("update refuses a name a ValueRange does not have, as Google's JSON front end does, before writing anything", async () => {
    const body = { valueInputOption: 'RAW', data: [{ range: 'A1', values: [['x']] }] };
    expectError(await call('PUT', valuesPath(id, 'A1'), { query: { valueInputOption: 'RAW' }, body }), 400, 'INVALID_ARGUMENT',
      `${unknown('valueInputOption', 'data')}\n${unknown('data', 'data')}`);
    expectError(await put(id, 'A1', [], 'RAW', {}, { value: [['x']] }), 400, 'INVALID_ARGUMENT', unknown('value', 'data'));
    expectError(await put(id, 'A1', [['x']], 'RAW', {}, { major_dimensions: 'ROWS' }), 400, 'INVALID_ARGUMENT', unknown('major_dimensions', 'data'));
    // The body is read before the query's valueInputOption is checked: the front end parses it first.
    expectError(await call('PUT', valuesPath(id, 'A1'), { body: { value: [['x']] } }), 400, 'INVALID_ARGUMENT', unknown('value', 'data'));
    expect((await call('GET', valuesPath(id, 'A1'))).body.values).toBeUndefined();
    // Every field, by its JSON or proto name, is taken.
    expect((await put(id, 'A1', [['x']], 'RAW', {}, { range: 'Sheet1!A1', majorDimension: 'ROWS' })).status).toBe(200);
    expect((await call('PUT', valuesPath(id, 'B1'), { query: { valueInputOption: 'RAW' }, body: { range: 'B1', major_dimension: 'COLUMNS', values: [['y']] } })).status).toBe(200);
    expect((await call('GET', valuesPath(id, 'A1:B1'))).body.values).toEqual([['x', 'y']]);
  });

  it('a majorDimension or range that is no string is quoted as JSON in the refusal, never [object Object]', async () => {
    expectError(await put(id, 'A1', [['x']], 'RAW', {}, { majorDimension: { d: 'ROWS' } }), 400, 'INVALID_ARGUMENT',
      `Invalid value at 'data.major_dimension' (type.googleapis.com/google.apps.sheets.v4.Dimension), {"d":"ROWS"}`);
  });

  it('a body range that is no string is quoted as JSON in the refusal, never [object Object]', async () => {
    expectError(await put(id, 'A1', [['x']], 'RAW', {}, { range: { a1: 'A1' } }), 400, 'INVALID_ARGUMENT',
      'Requested entity range [{"a1":"A1"}] does not match the request URL range [Sheet1!A1].');
  });

  it('refuses writes with a read-only scope', async () => {
    const res = await call('PUT', valuesPath(id, 'A1'), {
      query: { valueInputOption: 'RAW' },
      body: { values: [['x']] },
      scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
    });
    expectError(res, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    expect(res.body.error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT');
  });

  it('errorResponse renders core errors in the Sheets shape', () => {
    const res = api.errorResponse(429, "Quota exceeded for quota metric 'Read requests'", { retryAfterSeconds: 3 }) as { status: number; body: Body; headers?: Record<string, string> };
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(res.headers?.['retry-after']).toBe('3');
    const unauth = api.errorResponse(401, 'Request had invalid authentication credentials.') as { body: Body };
    expect(unauth.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });
});

describe('spreadsheets.values.append', () => {
  let id: string;
  beforeEach(async () => {
    id = (await create({ sheets: [{ properties: { title: 'Log' } }, { properties: { title: 'Small', gridProperties: { rowCount: 3, columnCount: 2 } } }] })).spreadsheetId;
  });
  const appendPath = (range: string): string => `${valuesPath(id, range)}:append`;
  const append = (range: string, values: unknown[][], query: Record<string, string> = {}, option = 'USER_ENTERED') =>
    call('POST', appendPath(range), { query: { valueInputOption: option, ...query }, body: { values } });
  const read = async (range: string): Promise<unknown> => (await call('GET', valuesPath(id, range))).body.values;
  const grid = async (title: string): Promise<unknown> =>
    (await call('GET', `/v4/spreadsheets/${id}`)).body.sheets.find((s: Body) => s.properties.title === title).properties.gridProperties;

  it('requires valueInputOption and a known insertDataOption, and writes nothing when refused', async () => {
    const res = await call('POST', appendPath('Log'), { body: { values: [['x']] } });
    expectError(res, 400, 'INVALID_ARGUMENT', 'Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED');
    expectError(await append('Log', [['x']], { insertDataOption: 'INSERT' }), 400, 'INVALID_ARGUMENT', /insert_data_option.*"INSERT"/);
    expectError(await append('Log', [['x']], { includeValuesInResponse: 'yes' }), 400, 'INVALID_ARGUMENT', /includeValuesInResponse/);
    expect(await read('Log!A1:Z10')).toBeUndefined();
    expect(await grid('Log')).toEqual({ rowCount: 1000, columnCount: 26 });
  });

  it('a range with no filled cell is not searched beyond: the rows go to its top-left cell', async () => {
    await put(id, 'Log!A3', [['h1'], ['a']]);
    const res = await append('Log!A1:E1', [['x']]);
    expect(res.body.tableRange).toBeUndefined();
    expect(res.body.updates.updatedRange).toBe('Log!A1');
  });

  it('writes at the top-left of an empty range, with no tableRange, then after the table it made', async () => {
    const first = await append('Log!B2:D', [['date', 'item'], ['2026-03-01', 'Anvil']], {}, 'RAW');
    expect(first.body).toEqual({
      spreadsheetId: id,
      updates: { spreadsheetId: id, updatedRange: 'Log!B2:C3', updatedRows: 2, updatedColumns: 2, updatedCells: 4 },
    });
    const second = await append('Log!B2:D', [['2026-03-02', 'Rope', 3]], {}, 'RAW');
    expect(second.body).toEqual({
      spreadsheetId: id,
      tableRange: 'Log!B2:C3',
      updates: { spreadsheetId: id, updatedRange: 'Log!B4:D4', updatedRows: 1, updatedColumns: 3, updatedCells: 3 },
    });
    expect(await read('Log!B2:D4')).toEqual([['date', 'item'], ['2026-03-01', 'Anvil'], ['2026-03-02', 'Rope', '3']]);
  });

  it('finds the table from the first filled cell of the range and appends after its last row, from its first column', async () => {
    await put(id, 'Log!B3', [['h1', 'h2', 'h3'], ['a', '', 'c'], ['', 'b']]);
    // A sheet name, the header's row and the table's first cell all find it: the range starts the search, it does not
    // bound the rows, and the table grows with each append.
    for (const [range, row] of [['Log', 6], ['Log!A3:E3', 7], ['Log!B3', 8]] as const) {
      const res = await append(range, [['x']]);
      expect(res.body.tableRange).toBe(`Log!B3:D${row - 1}`);
      expect(res.body.updates.updatedRange).toBe(`Log!B${row}`);
    }
  });

  it('ends a table at the first empty row; a whole sheet finds its last table', async () => {
    await put(id, 'Log!A1', [['h1', 'h2'], ['a', 'b'], [], ['note below', 'keep']]);
    const res = await append('Log', [['c', 'd']]);
    expect(res.body.tableRange).toBe('Log!A4:B4');
    expect(res.body.updates.updatedRange).toBe('Log!A5:B5');
  });

  it('a range in the first table appends after it, so OVERWRITE writes into a gap and over what follows it', async () => {
    await put(id, 'Log!A1', [['h1', 'h2'], ['a', 'b'], [], ['note below', 'keep']]);
    const res = await append('Log!A1', [['c', 'd'], ['e']]);
    expect(res.body.tableRange).toBe('Log!A1:B2');
    expect(res.body.updates.updatedRange).toBe('Log!A3:B4');
    expect(await read('Log!A1:B4')).toEqual([['h1', 'h2'], ['a', 'b'], ['c', 'd'], ['e', 'keep']]);
    expect(await grid('Log')).toEqual({ rowCount: 1000, columnCount: 26 });
  });

  it('INSERT_ROWS inserts the rows after the table: what follows moves down and the grid gains them', async () => {
    await put(id, 'Log!A1', [['h1', 'h2'], ['a', 'b'], [], ['note below', 'keep']]);
    const res = await append('Log!A1:B1', [['c', 'd'], ['e']], { insertDataOption: 'INSERT_ROWS' });
    expect(res.body.tableRange).toBe('Log!A1:B2');
    expect(res.body.updates.updatedRange).toBe('Log!A3:B4');
    expect(await read('Log!A1:B6')).toEqual([['h1', 'h2'], ['a', 'b'], ['c', 'd'], ['e'], [], ['note below', 'keep']]);
    expect(await grid('Log')).toEqual({ rowCount: 1002, columnCount: 26 });
  });

  it.each(['OVERWRITE', 'INSERT_ROWS'])('%s grows the grid when the rows run past it (values.update refuses)', async (insertDataOption) => {
    await put(id, 'Small!A1', [['a', 'b'], ['c', 'd'], ['e', 'f']]);
    expectError(await put(id, 'Small!A4', [['x']]), 400, 'INVALID_ARGUMENT', /exceeds grid limits/);
    const res = await append('Small', [['g', 'h', 'i'], ['j']], { insertDataOption });
    expect(res.body.tableRange).toBe('Small!A1:B3');
    expect(res.body.updates.updatedRange).toBe('Small!A4:C5');
    expect(await grid('Small')).toEqual({ rowCount: 5, columnCount: 3 });
    expect(await read('Small')).toEqual([['a', 'b'], ['c', 'd'], ['e', 'f'], ['g', 'h', 'i'], ['j']]);
  });

  it.each(['OVERWRITE', 'INSERT_ROWS'])('%s adds the columns a row wider than the sheet needs, where values.update refuses the cell', async (insertDataOption) => {
    // home-assistant/core#104198: 'Range (Solar!Y1) exceeds grid limits' came from values.update (gspread update_cell
    // writing a header), not from the append after it; InsertDataOption: "adding data to the end of the sheet will
    // still insert new rows or columns so the data can be written".
    await put(id, 'Small!A1', [['h1', 'h2']]);
    expectError(await put(id, 'Small!C1', [['h3']]), 400, 'INVALID_ARGUMENT', 'Range (Small!C1) exceeds grid limits. Max rows: 3, max columns: 2');
    const res = await append('Small', [['a', 'b', 'c']], { insertDataOption });
    expect(res.body).toEqual({
      spreadsheetId: id,
      tableRange: 'Small!A1:B1',
      updates: { spreadsheetId: id, updatedRange: 'Small!A2:C2', updatedRows: 1, updatedColumns: 3, updatedCells: 3 },
    });
    expect(await grid('Small')).toEqual({ rowCount: insertDataOption === 'INSERT_ROWS' ? 4 : 3, columnCount: 3 });
    expect(await read('Small')).toEqual([['h1', 'h2'], ['a', 'b', 'c']]);
  });

  it.each(['OVERWRITE', 'INSERT_ROWS'])("%s refuses rows that would take the spreadsheet past its 10 million cells, in Google's words, writing nothing", async (insertDataOption) => {
    // Full holds 9,999,980 cells and Small 3 x 2: Small may grow to 20 cells (10 rows of 2), not to 22.
    const book = await create({ sheets: [{ properties: { title: 'Full', gridProperties: { rowCount: 499_999, columnCount: 20 } } }, { properties: { title: 'Small', gridProperties: { rowCount: 3, columnCount: 2 } } }] });
    id = book.spreadsheetId;
    await put(id, 'Small!A1', [['a', 'b'], ['c', 'd'], ['e', 'f']]);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => [`r${i}`, 'x']);
    expectError(
      await append('Small', rows(8), { insertDataOption }),
      400,
      'INVALID_ARGUMENT',
      'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
    );
    expect(await grid('Small')).toEqual({ rowCount: 3, columnCount: 2 });
    expect(await read('Small')).toEqual([['a', 'b'], ['c', 'd'], ['e', 'f']]);
    // A wider row adds its columns to every row of the sheet: 4 rows of 6 is 24.
    expectError(await append('Small', [['g', 'h', 'i', 'j', 'k', 'l']], { insertDataOption }), 400, 'INVALID_ARGUMENT', /above the limit of 10000000 cells/);
    const res = await append('Small', rows(7), { insertDataOption });
    expect(res.status).toBe(200);
    expect(await grid('Small')).toEqual({ rowCount: 10, columnCount: 2 });
  });

  it('includeValuesInResponse returns the appended values in updates.updatedData', async () => {
    await put(id, 'Log!A1', [['qty'], ['2']]);
    const res = await append('Log', [['3', '=A2+A3']], { includeValuesInResponse: 'true' });
    expect(res.body.updates.updatedData).toEqual({ range: 'Log!A3:B3', majorDimension: 'ROWS', values: [['3', '5']] });
  });

  it('refuses a cell of more than 50,000 characters, an unknown sheet, and a read-only scope, changing nothing', async () => {
    expectError(await append('Log', [['ok', 'x'.repeat(50_001)]]), 400, 'INVALID_ARGUMENT', 'Your input contains more than the maximum of 50000 characters in a single cell.');
    expectError(await append('Nope!A1', [['x']]), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Nope!A1');
    const res = await call('POST', appendPath('Log'), {
      query: { valueInputOption: 'RAW' },
      body: { values: [['x']] },
      scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
    });
    expectError(res, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
    expect(await read('Log')).toBeUndefined();
  });

  it("refuses a name a ValueRange does not have, as values.update does, before appending anything", async () => {
    const post = (body: unknown, query: Record<string, string> = { valueInputOption: 'RAW' }) => call('POST', appendPath('Log'), { query, body });
    expectError(await post({ values: [['x']], insertDataOption: 'INSERT_ROWS', rows: [] }), 400, 'INVALID_ARGUMENT', `${unknown('insertDataOption', 'data')}\n${unknown('rows', 'data')}`);
    expectError(await post({ value: [['x']] }, {}), 400, 'INVALID_ARGUMENT', unknown('value', 'data'));
    expect(await read('Log')).toBeUndefined();
    expect((await post({ range: 'Log', major_dimension: 'ROWS', values: [['x']] })).status).toBe(200);
    expect(await read('Log')).toEqual([['x']]);
  });

  it('answers an unknown custom method as an unknown route', async () => {
    expectError(await call('POST', `${valuesPath(id, 'Log')}:prepend`, { query: { valueInputOption: 'RAW' }, body: { values: [['x']] } }), 404, 'NOT_FOUND', /Method not found/);
  });
});

describe('spreadsheets.batchUpdate: addSheet', () => {
  const batch = (id: string, body: unknown, opts: { user?: string; scopes?: string[] } = {}) => call('POST', `/v4/spreadsheets/${id}:batchUpdate`, { body, ...opts });
  const addSheet = (properties?: Body) => ({ addSheet: properties === undefined ? {} : { properties } });
  const titles = async (id: string) => ((await call('GET', `/v4/spreadsheets/${id}`)).body.sheets as Body[]).map((s) => s.properties.title);

  it("adds a sheet with Google's defaults: the next free Sheet<n>, 1000 x 26, at the end, a new sheetId", async () => {
    const book = await create();
    const res = await batch(book.spreadsheetId, { requests: [addSheet()] });
    expect(res.status).toBe(200);
    expect(res.body.spreadsheetId).toBe(book.spreadsheetId);
    expect(res.body.replies).toHaveLength(1);
    const props = res.body.replies[0].addSheet.properties;
    expect(props).toMatchObject({ title: 'Sheet2', index: 1, sheetType: 'GRID', gridProperties: { rowCount: 1000, columnCount: 26 } });
    expect(props.sheetId).not.toBe(0);
    expect(await titles(book.spreadsheetId)).toEqual(['Sheet1', 'Sheet2']);
    // A title given "" is unset, as proto3 reads it; the next free name is taken.
    expect((await batch(book.spreadsheetId, { requests: [addSheet({ title: '' })] })).body.replies[0].addSheet.properties.title).toBe('Sheet3');
  });

  it('takes a title, an index (the tabs from there move right) and a size, and the new sheet holds values', async () => {
    const book = await create({ sheets: [{ properties: { title: 'A' } }, { properties: { title: 'B' } }] });
    const res = await batch(book.spreadsheetId, { requests: [addSheet({ title: 'Week 48', index: 1, gridProperties: { rowCount: 20, columnCount: 3 } })] });
    expect(res.body.replies[0].addSheet.properties).toMatchObject({ title: 'Week 48', index: 1, gridProperties: { rowCount: 20, columnCount: 3 } });
    const got = (await call('GET', `/v4/spreadsheets/${book.spreadsheetId}`)).body.sheets as Body[];
    expect(got.map((s) => [s.properties.title, s.properties.index])).toEqual([['A', 0], ['Week 48', 1], ['B', 2]]);
    expect((await put(book.spreadsheetId, "'Week 48'!A1", [['x']])).status).toBe(200);
    expectError(await put(book.spreadsheetId, "'Week 48'!D1", [['x']]), 400, 'INVALID_ARGUMENT', "Range ('Week 48'!D1) exceeds grid limits. Max rows: 20, max columns: 3");
  });

  it('reads an int32 given as a string of digits, as proto3 JSON does, and quotes any other string it refuses', async () => {
    const book = await create();
    const res = await batch(book.spreadsheetId, { requests: [addSheet({ title: 'S', index: '1', gridProperties: { rowCount: '20', columnCount: '3' } })] });
    expect(res.status).toBe(200);
    expect(res.body.replies[0].addSheet.properties).toMatchObject({ title: 'S', index: 1, gridProperties: { rowCount: 20, columnCount: 3 } });
    expectError(
      await batch(book.spreadsheetId, { requests: [addSheet({ title: 'T', gridProperties: { rowCount: 'many' } })] }),
      400,
      'INVALID_ARGUMENT',
      `Invalid value at 'requests[0].add_sheet.properties.grid_properties.row_count' (TYPE_INT32), "many"`,
    );
  });

  it('refuses a title already used, whatever its case, in Google\'s words, and adds nothing', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Week 48' } }] });
    const res = await batch(book.spreadsheetId, { requests: [addSheet({ title: 'WEEK 48' })] });
    expectError(res, 400, 'INVALID_ARGUMENT', 'Invalid requests[0].addSheet: A sheet with the name "WEEK 48" already exists. Please enter another name.');
    expect(await titles(book.spreadsheetId)).toEqual(['Week 48']);
  });

  it('is all or nothing: a refused request leaves the earlier ones of the batch unapplied', async () => {
    const book = await create();
    const res = await batch(book.spreadsheetId, { requests: [addSheet({ title: 'One' }), addSheet({ title: 'one' })] });
    expectError(res, 400, 'INVALID_ARGUMENT', 'Invalid requests[1].addSheet: A sheet with the name "one" already exists. Please enter another name.');
    expect(await titles(book.spreadsheetId)).toEqual(['Sheet1']);
  });

  it("refuses a title longer than 100 characters and a sheet past the spreadsheet's 10 million cells", async () => {
    const book = await create();
    expectError(await batch(book.spreadsheetId, { requests: [addSheet({ title: 'x'.repeat(101) })] }), 400, 'INVALID_ARGUMENT', 'Invalid requests[0].addSheet: The sheet name cannot be greater than 100 characters.');
    expect((await batch(book.spreadsheetId, { requests: [addSheet({ title: 'x'.repeat(100) })] })).status).toBe(200);
    // Sheet1 and the sheet above hold 2 x 26,000 cells: 9,948,000 more fit (497,400 rows of 20), one row more does not.
    const big = { rowCount: 497_400, columnCount: 20 };
    expectError(
      await batch(book.spreadsheetId, { requests: [addSheet({ title: 'Big', gridProperties: { ...big, rowCount: big.rowCount + 1 } })] }),
      400,
      'INVALID_ARGUMENT',
      'Invalid requests[0].addSheet: This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
    );
    expect((await batch(book.spreadsheetId, { requests: [addSheet({ title: 'Big', gridProperties: big })] })).status).toBe(200);
  });

  it('refuses an empty batch, and unknown names (a field, a request kind) before applying anything, as the JSON front end does', async () => {
    const book = await create();
    expectError(await batch(book.spreadsheetId, { requests: [] }), 400, 'INVALID_ARGUMENT', 'Must specify at least one request.');
    expectError(await batch(book.spreadsheetId, {}), 400, 'INVALID_ARGUMENT', 'Must specify at least one request.');
    expectError(await batch(book.spreadsheetId, { requests: [addSheet({ title: 'T' })], request: [] }), 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "request": Cannot find field.');
    expectError(
      await batch(book.spreadsheetId, { requests: [{ addSheet: { title: 'T' } }, { addTab: { properties: { title: 'U' } } }, addSheet({ title: 'V', gridProperties: { rows: 5 } })] }),
      400,
      'INVALID_ARGUMENT',
      [unknown('title', 'requests[0].add_sheet'), unknown('addTab', 'requests[1]'), unknown('rows', 'requests[2].add_sheet.properties.grid_properties')].join('\n'),
    );
    expectError(await batch(book.spreadsheetId, { requests: [{}] }), 400, 'INVALID_ARGUMENT', 'Invalid requests[0]: The request must specify exactly one kind of request.');
    expect(await titles(book.spreadsheetId)).toEqual(['Sheet1']);
  });

  it('reads proto names (add_sheet, grid_properties, row_count) as their JSON names', async () => {
    const book = await create();
    const res = await batch(book.spreadsheetId, { requests: [{ add_sheet: { properties: { title: 'P', grid_properties: { row_count: 7 } } } }] });
    expect(res.body.replies[0].addSheet.properties).toMatchObject({ title: 'P', gridProperties: { rowCount: 7, columnCount: 26 } });
  });

  it('a request kind Google has and the sandbox does not model is refused naming it, recorded as unmodelled, and nothing is applied', async () => {
    const book = await create();
    const res = await api.handle({
      method: 'POST',
      path: `/v4/spreadsheets/${book.spreadsheetId}:batchUpdate`,
      query: new URLSearchParams(),
      headers: {},
      body: { requests: [addSheet({ title: 'T' }), { deleteSheet: { sheetId: 0 } }] },
      user: USER,
      scopes: ['https://www.googleapis.com/auth/spreadsheets'],
      now: Date.parse('2024-03-01T12:00:00Z'),
    });
    expect(res).toMatchObject({ status: 400, unmodelled: true, body: { error: { message: 'Invalid requests[1].deleteSheet: The sandbox does not model deleteSheet requests.' } } });
    expect(await titles(book.spreadsheetId)).toEqual(['Sheet1']);
    // A SheetProperties field Google has and the sandbox does not store is refused the same way, never dropped.
    expectError(await batch(book.spreadsheetId, { requests: [addSheet({ title: 'T', hidden: true })] }), 400, 'INVALID_ARGUMENT', 'Invalid requests[0].addSheet: The sandbox does not model properties.hidden of a new sheet.');
  });

  it('answers 404 for an unknown spreadsheet, 403 for one not shared with the caller, 403 without a write scope', async () => {
    const book = await create();
    expectError(await batch('missing', { requests: [addSheet()] }), 404, 'NOT_FOUND');
    expectError(await batch(book.spreadsheetId, { requests: [addSheet()] }, { user: 'eve@example.com' }), 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    expectError(await batch(book.spreadsheetId, { requests: [addSheet()] }, { scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'] }), 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
  });
});

describe('spreadsheets.values.clear / batchClear', () => {
  const clear = (id: string, range: string, body?: unknown, opts: { user?: string; scopes?: string[] } = {}) => call('POST', `${valuesPath(id, range)}:clear`, { body, ...opts });
  const batchClear = (id: string, body: unknown) => call('POST', `/v4/spreadsheets/${id}/values:batchClear`, { body });
  const read = async (id: string, range: string) => (await call('GET', valuesPath(id, range), { query: { valueRenderOption: 'FORMULA' } })).body.values;

  it('clears the values of a range and answers the range, whatever it held; the cells around it and the grid stay', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Week', gridProperties: { rowCount: 20, columnCount: 5 } } }] });
    const id = book.spreadsheetId as string;
    await put(id, 'Week!A1', [['Item', 'Qty'], ['Anvil', 2], ['Rope', '=B2*3']]);
    const res = await clear(id, 'Week!A2:B3');
    expect(res).toEqual({ status: 200, body: { spreadsheetId: id, clearedRange: 'Week!A2:B3' } });
    expect(await read(id, 'Week!A1:B3')).toEqual([['Item', 'Qty']]);
    // A range past the data is cleared and named as asked: the answer says nothing of what the cells held.
    expect((await clear(id, 'Week!C5:D9')).body.clearedRange).toBe('Week!C5:D9');
    const sheet = (await call('GET', `/v4/spreadsheets/${id}`)).body.sheets[0].properties;
    expect(sheet.gridProperties).toEqual({ rowCount: 20, columnCount: 5 });
  });

  it('a whole sheet, a range running past the grid and an open range are named bounded to the grid; a quoted title echoes as Sheets writes it', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Sheet1' } }, { properties: { title: 'My Sheet', gridProperties: { rowCount: 20, columnCount: 4 } } }] });
    const id = book.spreadsheetId as string;
    await put(id, "'My Sheet'!A1", [['a', 'b', 'c', 'd']]);
    // gspread's cassettes (recorded live): values/'Sheet1':clear on a new sheet answered Sheet1!A1:Z1000.
    expect((await clear(id, "'Sheet1'")).body.clearedRange).toBe('Sheet1!A1:Z1000');
    expect((await clear(id, "'My Sheet'!C1:Z5000")).body.clearedRange).toBe("'My Sheet'!C1:D20");
    expect((await clear(id, "'My Sheet'!B:B")).body.clearedRange).toBe("'My Sheet'!B1:B20");
    expect((await clear(id, 'My Sheet!A2:C')).body.clearedRange).toBe("'My Sheet'!A2:C20");
    expect(await read(id, "'My Sheet'!A1:D1")).toEqual([['a']]);
  });

  it("refuses a sheet the spreadsheet does not have, a range that is not A1, and one starting past the grid, in Google's words, clearing nothing", async () => {
    const book = await create({ sheets: [{ properties: { title: 'Small', gridProperties: { rowCount: 3, columnCount: 2 } } }] });
    const id = book.spreadsheetId as string;
    await put(id, 'Small!A1', [['keep']]);
    expectError(await clear(id, 'Nope!A1:B2'), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Nope!A1:B2');
    expectError(await clear(id, 'Small!A1:B2:C3'), 400, 'INVALID_ARGUMENT', 'Unable to parse range: Small!A1:B2:C3');
    expectError(await clear(id, 'Small!A4:B9'), 400, 'INVALID_ARGUMENT', 'Range (Small!A4:B9) exceeds grid limits. Max rows: 3, max columns: 2');
    expectError(await clear(id, 'Small!A4:ZZ'), 400, 'INVALID_ARGUMENT', 'Range (Small!A4:ZZ) exceeds grid limits. Max rows: 3, max columns: 2');
    expectError(await clear(id, 'Small!A1', { range: 'Small!A1' }), 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "range": Cannot find field.');
    expect(await read(id, 'Small!A1')).toEqual([['keep']]);
  });

  it('batchClear clears several ranges in one call, answering each in the order sent', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Sheet1' } }, { properties: { title: 'Totals' } }] });
    const id = book.spreadsheetId as string;
    await put(id, 'A1', [['12345', 'ThisIsText'], ['', '', '5678', 'Second', 'Text']]);
    await put(id, 'Totals!A1', [['Sum'], [42]]);
    // As gspread's batch_clear recorded it live: quoted names come back bare where Sheets writes them bare.
    const res = await batchClear(id, { ranges: ["'Sheet1'!A1:B1", "'Sheet1'!C2:E2", 'Totals!A2'] });
    expect(res).toEqual({ status: 200, body: { spreadsheetId: id, clearedRanges: ['Sheet1!A1:B1', 'Sheet1!C2:E2', 'Totals!A2'] } });
    expect(await read(id, 'Sheet1!A1:E2')).toBeUndefined();
    expect(await read(id, 'Totals!A1:A2')).toEqual([['Sum']]);
  });

  it('batchClear is all or nothing: a refused range, named by its place as range[i], leaves every range uncleared', async () => {
    const book = await create({ sheets: [{ properties: { title: 'Log', gridProperties: { rowCount: 220, columnCount: 18 } } }] });
    const id = book.spreadsheetId as string;
    await put(id, 'Log!A1', [['a'], ['b']]);
    expectError(await batchClear(id, { ranges: ['Log!A1', 'Invalid Date!A:B'] }), 400, 'INVALID_ARGUMENT', 'Invalid range[1]: Unable to parse range: Invalid Date!A:B');
    // The live answer to a batch_clear of A221:ZZ on a sheet of 220 rows and 18 columns.
    expectError(await batchClear(id, { ranges: ['Log!A1', 'Log!A221:ZZ'] }), 400, 'INVALID_ARGUMENT', 'Invalid range[1]: Range (Log!A221:ZZ) exceeds grid limits. Max rows: 220, max columns: 18');
    expectError(await batchClear(id, { ranges: ['Log!A1'], range: 'Log!A2' }), 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "range": Cannot find field.');
    expectError(await batchClear(id, { ranges: ['Log!A1', 7] }), 400, 'INVALID_ARGUMENT', "Invalid value at 'ranges[1]' (TYPE_STRING), 7");
    expect(await read(id, 'Log!A1:A2')).toEqual([['a'], ['b']]);
  });

  it('batchClear without ranges is refused as not modelled; an unknown spreadsheet is 404, a read-only scope 403', async () => {
    const book = await create();
    const id = book.spreadsheetId as string;
    const empty = await api.handle({
      method: 'POST',
      path: `/v4/spreadsheets/${id}/values:batchClear`,
      query: new URLSearchParams(),
      headers: {},
      body: { ranges: [] },
      user: USER,
      scopes: ['https://www.googleapis.com/auth/spreadsheets'],
      now: Date.parse('2024-03-01T12:00:00Z'),
    });
    expect(empty).toMatchObject({ status: 400, unmodelled: true });
    expectError(await batchClear('missing', { ranges: ['A1'] }), 404, 'NOT_FOUND');
    expectError(await clear(id, 'A1', undefined, { user: 'eve@example.com' }), 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    expectError(await clear(id, 'A1', undefined, { scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'] }), 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.');
  });
});
