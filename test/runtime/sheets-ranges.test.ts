/**
 * What Sheets makes of a range, through the tools to the sandbox: a read running past the grid is cut to it, a write
 * running past it refused (sandbox/apis/sheets/spreadsheet-model.ts, readBox and checkGrid). What Sheets refuses in a
 * range, the a1-range format refuses before sending, saying what to send instead (runtime/validation/format-problems.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { A1_SHAPE, useSpreadsheet } from './sheets-fixture.js';

const sheet = useSpreadsheet('Ranges', ['Data', 'Other', 'Q1']);
const run = sheet.run;
beforeAll(async () => {
  await run('sheets_update_values', { range: 'Data!Y1', values: [['y', 'z']] });
});

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

const refusal = sheet.rangeRefusal;
const shape = A1_SHAPE;

describe('white space', () => {
  it('at the start or end of a range is refused before sending, with the range to send instead', async () => {
    expect(await refusal('sheets_get_values', { range: ' Data!A1:B2' })).toBe(`${shape}; Sheets reads no white space at its start or end: send Data!A1:B2`);
    expect(await refusal('sheets_update_values', { range: 'Data!B2 ', values: [['x']] })).toBe(`${shape}; Sheets reads no white space at its start or end: send Data!B2`);
    expect(await refusal('sheets_append_values', { range: '\tData\n', values: [['x']] })).toBe(`${shape}; Sheets reads no white space at its start or end: send Data`);
  });
});

describe('an empty sheet name', () => {
  it('before a range reads and writes the first sheet, as Sheets does', async () => {
    const written = await run('sheets_update_values', { range: "''!A3", values: [['first']] });
    expect(written.data).toMatchObject({ updatedRange: 'Data!A3' });
    const read = await run('sheets_get_values', { range: '!A3:B3' });
    expect(read.data).toEqual({ range: 'Data!A3:B3', majorDimension: 'ROWS', values: [['first']] });
  });

  it('before no cells is refused before sending', async () => {
    const cells = `${shape}; the cells must be one cell (A1) or two joined by a colon without spaces (A1:C10, A:C, 2:4)`;
    expect(await refusal('sheets_get_values', { range: '!' })).toBe(cells);
    expect(await refusal('sheets_get_values', { range: '!Other' })).toBe(cells);
  });
});

describe('a sheet titled like a cell', () => {
  it('is the cell of the first sheet when named alone, and the sheet when quoted or before !', async () => {
    await run('sheets_update_values', { range: "'Q1'", values: [['in Q1']] });
    expect((await run('sheets_get_values', { range: 'Q1!A1' })).data).toMatchObject({ range: "'Q1'!A1", values: [['in Q1']] });
    expect((await run('sheets_get_values', { range: "'Q1'" })).data).toMatchObject({ range: "'Q1'!A1:Z1000", values: [['in Q1']] });
    expect((await run('sheets_get_values', { range: 'Q1' })).data).toEqual({ range: 'Data!Q1', majorDimension: 'ROWS' });
  });
});

describe('a lone column or row after !', () => {
  it('is refused before sending, as Sheets refuses it, saying how a column or a row is written', async () => {
    expect(await refusal('sheets_get_values', { range: 'Data!B' })).toBe(`${shape}; one cell is written with its column and row (B1), a whole column as B:B`);
    expect(await refusal('sheets_get_values', { range: 'Data!2' })).toBe(`${shape}; one cell is written with its column and row (A2), a whole row as 2:2`);
  });
});

describe('R1C1 notation', () => {
  // Google's values.get takes R1C1 (the sandbox does too); the tools take A1 alone, one notation for reads and writes
  // (update's and append's references name A1 only), and say what to send instead.
  it('is refused before sending, with the same cells in A1 when every half is an absolute cell', async () => {
    expect(await refusal('sheets_get_values', { range: 'Data!R1C1:R2C2' })).toBe(`${shape}; R1C1 notation is not taken: send A1 notation, Data!A1:B2`);
    expect(await refusal('sheets_update_values', { range: "'My data'!R3C28", values: [['x']] })).toBe(`${shape}; R1C1 notation is not taken: send A1 notation, 'My data'!AB3`);
    expect(await refusal('sheets_get_values', { range: 'Data!R[1]C[1]:R2' })).toBe(
      `${shape}; R1C1 notation (R1C1, R[1]C[1]) is not taken: send A1 notation, column letters then row number (A1:C10; B:B for a column, 2:2 for a row)`,
    );
  });

  it('alone without !, which Sheets reads as cells before a sheet title, is refused too, saying how to name such a sheet', async () => {
    expect(await refusal('sheets_get_values', { range: 'R1C1' })).toBe(`${shape}; R1C1 notation is not taken: send A1 notation, A1 (a sheet titled R1C1 is written quoted: 'R1C1')`);
    expect(await refusal('sheets_append_values', { range: 'RC', values: [['x']] })).toBe(
      `${shape}; R1C1 notation (R1C1, R[1]C[1]) is not taken: send A1 notation, column letters then row number (A1:C10; B:B for a column, 2:2 for a row) (a sheet titled RC is written quoted: 'RC')`,
    );
  });
});
