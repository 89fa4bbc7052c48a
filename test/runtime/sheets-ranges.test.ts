/**
 * What Sheets makes of a range, through the tools to the sandbox: a read running past the grid is cut to it, a write
 * running past it refused (sandbox/apis/sheets/spreadsheet-model.ts, readBox and checkGrid).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
let spreadsheetId: string;
const run = (tool_name: string, input: Record<string, unknown>) =>
  h.env.executeTool({ tool_name, connection_name: 'sh', identifier: 'ana', tool_input: { spreadsheet_id: spreadsheetId, ...input } });

beforeAll(async () => {
  h = await startHarness();
  await h.connection('sheets', 'sh');
  await h.authorize('sh', 'ana');
  const made = await h.env.executeTool({
    tool_name: 'sheets_create_spreadsheet',
    connection_name: 'sh',
    identifier: 'ana',
    tool_input: { title: 'Ranges', sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'Other' } }] },
  });
  spreadsheetId = (made.data as { spreadsheetId: string }).spreadsheetId;
  await run('sheets_update_values', { range: 'Data!Y1', values: [['y', 'z']] });
});
afterAll(() => h.close());

describe('the grid', () => {
  it('a read running past the last column is answered with the cells inside it, and says which', async () => {
    const read = await run('sheets_get_values', { range: 'Data!Y1:AC1' });
    expect(read.data).toEqual({ range: 'Data!Y1:Z1', majorDimension: 'ROWS', values: [['y', 'z']] });
    const book = await run('sheets_read_spreadsheet', { ranges: 'Data!Z1:AA3', include_grid_data: true });
    expect(book.data).toMatchObject({ sheets: [{ data: [{ startColumn: 25, rowData: [{ values: [{ formattedValue: 'z' }] }] }] }] });
  });

  it('a read starting past it, and a write running past it, are refused', async () => {
    const start = await run('sheets_get_values', { range: 'Data!AA1' }).catch((e: unknown) => e);
    expect(start).toMatchObject({ details: { status: 400, body: { error: { message: 'Range (Data!AA1) exceeds grid limits. Max rows: 1000, max columns: 26' } } } });
    const write = await run('sheets_update_values', { range: 'Data!Z1', values: [['a', 'b']] }).catch((e: unknown) => e);
    expect(write).toMatchObject({ details: { status: 400, body: { error: { message: 'Range (Data!Z1:AA1) exceeds grid limits. Max rows: 1000, max columns: 26' } } } });
  });
});
