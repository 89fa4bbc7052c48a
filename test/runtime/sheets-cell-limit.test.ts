/**
 * Google Sheets holds at most 50,000 characters in a cell and refuses a longer input with a 400. sheets_update_values
 * refuses such a cell itself, at the cell's pointer, before anything is sent; the sandbox, which refuses it as Google
 * does, is what the limit is checked against.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
let spreadsheetId: string;
const update = (values: unknown[][]) =>
  h.env.executeTool({ tool_name: 'sheets_update_values', connection_name: 'sh', identifier: 'ana', tool_input: { spreadsheet_id: spreadsheetId, range: 'Sheet1!A1', values, value_input_option: 'RAW' } });

beforeAll(async () => {
  h = await startHarness();
  await h.connection('sheets', 'sh');
  await h.authorize('sh', 'ana');
  const made = await h.env.executeTool({ tool_name: 'sheets_create_spreadsheet', connection_name: 'sh', identifier: 'ana', tool_input: { title: 'Limits' } });
  spreadsheetId = (made.data as { spreadsheetId: string }).spreadsheetId;
});
afterAll(() => h.close());

describe('sheets_update_values: a cell of more than 50,000 characters', () => {
  it('is refused as invalid_input at the cell, with nothing sent upstream', async () => {
    h.sandbox.control.clearRequests();
    const error = await update([['a'], ['b'], ['c'], ['d', 'x'.repeat(50_001)]]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    const violations = (error as { details: { violations: Array<{ pointer: string; message: string }> } }).details.violations;
    expect(violations).toEqual([expect.objectContaining({ pointer: '/values/3/1', message: expect.stringContaining('50000') })]);
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('counts UTF-16 units as the sandbox does: 50,000 pass and are stored, one more is refused by both', async () => {
    const full = `${'x'.repeat(49_998)}\u{1F600}`;
    const over = `${'x'.repeat(49_999)}\u{1F600}`;
    expect([full.length, over.length, [...over].length]).toEqual([50_000, 50_001, 50_000]);
    const written = await update([[full]]);
    expect(written.data).toMatchObject({ updatedCells: 1 });
    await expect(update([[over]])).rejects.toMatchObject({ code: 'invalid_input' });

    // Sent past the tool, the sandbox refuses the same cell as Google does: the two limits agree.
    const direct = await h.env.proxy({
      connection_name: 'sh',
      identifier: 'ana',
      method: 'PUT',
      path: `/v4/spreadsheets/${spreadsheetId}/values/Sheet1!A1`,
      query: { valueInputOption: 'RAW' },
      body: { values: [[over]] },
    });
    expect(direct.status).toBe(400);
    expect(JSON.stringify(direct.body)).toContain('maximum of 50000 characters in a single cell');
  });
});

describe('sheets_create_spreadsheet: initial data with a cell of more than 50,000 characters', () => {
  const create = (userEnteredValue: Record<string, unknown>) =>
    h.env.executeTool({
      tool_name: 'sheets_create_spreadsheet',
      connection_name: 'sh',
      identifier: 'ana',
      tool_input: { title: 'Initial', sheets: [{ data: [{ rowData: [{ values: [{}] }, { values: [{}, { userEnteredValue }] }] }] }] },
    });

  it.each([
    ['stringValue', 'x'.repeat(50_001)],
    ['formulaValue', `="${'x'.repeat(49_999)}"`],
  ])('a %s is refused as invalid_input at the cell, with nothing sent upstream', async (field, value) => {
    h.sandbox.control.clearRequests();
    const error = await create({ [field]: value }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    const violations = (error as { details: { violations: Array<{ pointer: string; message: string }> } }).details.violations;
    expect(violations).toEqual([
      expect.objectContaining({ pointer: `/sheets/0/data/0/rowData/1/values/1/userEnteredValue/${field}`, message: expect.stringContaining('50000') }),
    ]);
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('50,000 characters are created and stored', async () => {
    const made = await create({ stringValue: 'x'.repeat(50_000) });
    const id = (made.data as { spreadsheetId: string }).spreadsheetId;
    const read = await h.env.executeTool({ tool_name: 'sheets_get_values', connection_name: 'sh', identifier: 'ana', tool_input: { spreadsheet_id: id, range: 'Sheet1!B2' } });
    expect(JSON.stringify(read.data)).toContain('x'.repeat(50_000));
  });
});
