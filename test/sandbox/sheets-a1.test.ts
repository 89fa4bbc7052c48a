import { describe, expect, it } from 'vitest';
import { columnIndex, columnLetters, formatRange, parseA1, quoteSheetName } from '../../sandbox/apis/sheets/a1.js';
import { evaluateFormula, type Scalar } from '../../sandbox/apis/sheets/formula.js';

describe('A1 parsing', () => {
  it.each([
    ['Sheet1!A1:C10', { sheetName: 'Sheet1', startRow: 0, endRow: 10, startCol: 0, endCol: 3 }],
    ["'My Sheet'!A1:C10", { sheetName: 'My Sheet', startRow: 0, endRow: 10, startCol: 0, endCol: 3 }],
    ["'It''s'!B2", { sheetName: "It's", startRow: 1, endRow: 2, startCol: 1, endCol: 2 }],
    ["'My Sheet'", { sheetName: 'My Sheet' }],
    ['A1', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['A:C', { startCol: 0, endCol: 3 }],
    ['2:4', { startRow: 1, endRow: 4 }],
    ['A5:C', { startRow: 4, startCol: 0, endCol: 3 }],
    ['C10:A1', { startRow: 0, endRow: 10, startCol: 0, endCol: 3 }],
    ['$B$2:$C$3', { startRow: 1, endRow: 3, startCol: 1, endCol: 3 }],
    ['Sheet1', { sheetName: 'Sheet1' }],
    // An empty name before a range names no sheet: the first is read (brekkylab/backlot, measured on values.get).
    ['!A1', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ["''!B2:C3", { startRow: 1, endRow: 3, startCol: 1, endCol: 3 }],
    ['!A:C', { startCol: 0, endCol: 3 }],
  ])('parses %s', (input, want) => {
    expect(parseA1(input)).toEqual(want);
  });

  // White space is read nowhere around a range, its `!` or its `:`, as Sheets reads it (brekkylab/backlot,
  // backlot/routers/google.py, 36 forms measured; n8n-io/n8n#13366, a trailing space refused on a write).
  it.each(["'unterminated!A1", 'Sheet1!', 'Sheet1!A1:B2:C3', 'Sheet1!1A', "'x'A1", '', 'Sheet1!A:1', ' A1', 'A1 ', '\tA1', ' Sheet1!A1', 'Sheet1!A1 ', "'My Sheet' !A1", 'Sheet1! A1', ' ', "'My Sheet' ", '!', "''", "''!", '!Sheet1', "''!Sheet1"])('refuses %j', (input) => {
    expect(parseA1(input)).toBeUndefined();
  });

  // R1C1, where values.get takes it (`{ r1c1: true }`): the grammar brekkylab/backlot measured on the live API
  // (brekkylab/backlot#174, backlot/routers/google.py `_R1C1_END`). Offsets are from A1.
  it.each([
    ['R1C1:R2C2', { startRow: 0, endRow: 2, startCol: 0, endCol: 2 }],
    ['r2c3', { startRow: 1, endRow: 2, startCol: 2, endCol: 3 }],
    ['R01C01', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['R[1]C[1]', { startRow: 1, endRow: 2, startCol: 1, endCol: 2 }],
    ['R1C1:R[2]C[2]', { startRow: 0, endRow: 3, startCol: 0, endCol: 3 }],
    ['RC', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['R', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['C', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['R1C', { startRow: 0, endRow: 1, startCol: 0, endCol: 1 }],
    ['R[1]', { startRow: 1, endRow: 2 }],
    ['C[1]', { startCol: 1, endCol: 2 }],
    ['R1C1:R2', { startRow: 0, endRow: 2, startCol: 0 }],
    ['R1C1:C2', { startRow: 0, startCol: 0, endCol: 2 }],
    ['C3:R1C1', { startRow: 0, endRow: 1, startCol: 0, endCol: 3 }],
    ['R3C3:R1C1', { startRow: 0, endRow: 3, startCol: 0, endCol: 3 }],
    ['R[2]C[2]:R[0]C[0]', { startRow: 0, endRow: 3, startCol: 0, endCol: 3 }],
    ['R[1]C[1]:R1C1', { startRow: 0, endRow: 2, startCol: 0, endCol: 2 }],
    ['Sheet1!R[3]C[1]', { sheetName: 'Sheet1', startRow: 3, endRow: 4, startCol: 1, endCol: 2 }],
    ['!R[1]C[1]', { startRow: 1, endRow: 2, startCol: 1, endCol: 2 }],
    // A1 first: R1 is the cell R1, RC1 the cell RC1, R1:R2 and RC:RC A1 ranges.
    ['R1', { startRow: 0, endRow: 1, startCol: 17, endCol: 18 }],
    ['RC1', { startRow: 0, endRow: 1, startCol: 470, endCol: 471 }],
    ['RC:RC', { startCol: 470, endCol: 471 }],
  ])('parses %s in R1C1 where it is taken', (input, want) => {
    expect(parseA1(input, { r1c1: true })).toEqual(want);
  });

  it.each(['R0C1', 'R[-1]C1', 'R[+1]C1', 'A1:R2C2', 'R1C1:B2', 'R2C2:R1C1', 'R1C2:R1C1', 'R[1]C[1]:R[0]C[0]', 'R2:R1C1', 'R1 C1', 'R[ 1]C[1]', 'R1C1:R2C2:R3C3', 'R1R1', 'R1C1C1', 'RC[', ''])('refuses %j in R1C1', (input) => {
    expect(parseA1(`Sheet1!${input}`, { r1c1: true })).toBeUndefined();
  });

  it('reads no R1C1 where it is not taken: a bare token is a sheet title, after ! it is refused', () => {
    expect(parseA1('R1C1')).toEqual({ sheetName: 'R1C1' });
    expect(parseA1('Sheet1!R1C1')).toBeUndefined();
  });

  it('converts columns and writes ranges like Sheets', () => {
    expect([columnIndex('A'), columnIndex('Z'), columnIndex('AA'), columnIndex('AZ')]).toEqual([0, 25, 26, 51]);
    expect([columnLetters(0), columnLetters(25), columnLetters(26), columnLetters(701), columnLetters(702)]).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(quoteSheetName('Sheet1')).toBe('Sheet1');
    expect(quoteSheetName('My Sheet')).toBe("'My Sheet'");
    expect(quoteSheetName('AB12')).toBe("'AB12'");
    expect(quoteSheetName("It's")).toBe("'It''s'");
    // Titles that read as R1C1 echo quoted, as titles that read as A1 do; `A` does not (brekkylab/backlot, measured).
    expect([quoteSheetName('R1C1'), quoteSheetName('RC'), quoteSheetName('A')]).toEqual(["'R1C1'", "'RC'", 'A']);
    expect(formatRange('Sheet1', 0, 10, 0, 3)).toBe('Sheet1!A1:C10');
    expect(formatRange('My Sheet', 1, 2, 1, 2)).toBe("'My Sheet'!B2");
  });
});

describe('formula evaluation', () => {
  const grid: Record<string, Scalar> = { '0,0': 1, '0,1': 2, '1,0': 3, '1,1': 4, '2,0': 'text' };
  const readCell = (_s: string | undefined, r: number, c: number): Scalar => grid[`${r},${c}`] ?? null;
  // A grid of 5 rows by 3 columns: a range open at the bottom (C:C) ends at its last row, as the model's does.
  const readRange = (_s: string | undefined, r0: number, r1: number, c0: number, c1: number): Scalar[] => {
    const out: Scalar[] = [];
    for (let r = r0; r < Math.min(r1, 5); r++) for (let c = c0; c < Math.min(c1, 3); c++) out.push(readCell(undefined, r, c));
    return out;
  };
  it.each([
    ['=SUM(A1:B2)', 10],
    ['=A1+B1', 3],
    ['=A1+B1*B2', 9],
    ['=(A1+B1)*B2', 12],
    ['=2^3-1', 7],
    ['=-A2', -3],
    ['=AVERAGE(A1:B2)', 2.5],
    ['=MAX(A1:B2, 7)', 7],
    ['=COUNT(A1:A3)', 2],
    ['=COUNTA(A1:A3)', 3],
    ['=A3&"!"', 'text!'],
    ['=IF(A1>0, "yes", "no")', 'yes'],
    ['=ROUND(10/3, 2)', 3.33],
    ['=A1=1', true],
    ['=CONCATENATE("a", A1, "b")', 'a1b'],
    ['=SUM(A:A)', 4],
    ['=SUM(B2:B)', 4],
    ['=SUM($A:$B)', 10],
    ['=COUNTA(A:A)', 3],
    ['=SUM(A:A) + 1', 5],
  ])('%s = %s', (formula, want) => {
    expect(evaluateFormula(formula, readCell, readRange)).toEqual(want);
  });

  it.each([
    ['=A1/0', 'DIV_BY_ZERO'],
    ['=A3+1', 'VALUE'],
    ['=NOPE(1)', 'NAME'],
    ['=1+', 'ERROR'],
    ['=(1', 'ERROR'],
  ])('%s is a %s error', (formula, type) => {
    expect(evaluateFormula(formula, readCell, readRange)).toMatchObject({ error: type });
  });
});
