/**
 * One spreadsheet in memory: sheets with grid sizes and sparse cells, formula evaluation (with cycle detection),
 * and A1 resolution against the sheets it has.
 */
import { GoogleApiError } from '../google-common/errors.js';
import { columnLetters, formatRange, parseA1, quoteSheetName, type A1Range, type ParseOptions } from './a1.js';
import { literalOf, type Cell } from './cell-values.js';
import { evaluateFormula, type Scalar } from './formula.js';

export interface SheetProperties {
  sheetId: number;
  title: string;
  index: number;
  sheetType: 'GRID';
  gridProperties: { rowCount: number; columnCount: number; frozenRowCount?: number; frozenColumnCount?: number };
}

export interface Sheet {
  properties: SheetProperties;
  /** Sparse cells keyed by {@link cellKey}. */
  cells: Map<number, Cell>;
}

/** A resolved, bounded box on one sheet; rows and columns 0-based, ends exclusive. */
export interface GridBox {
  sheet: Sheet;
  startRow: number;
  endRow: number;
  startCol: number;
  endCol: number;
}

const COLS_KEY = 100_000;
export const cellKey = (row: number, col: number): number => row * COLS_KEY + col;

/** The cells of a box that hold something (the sheet stores only those), each with its key, row and column. */
function storedCellsIn(box: GridBox): { key: number; r: number; c: number }[] {
  const out: { key: number; r: number; c: number }[] = [];
  for (const key of box.sheet.cells.keys()) {
    const r = Math.floor(key / COLS_KEY);
    const c = key % COLS_KEY;
    if (r >= box.startRow && r < box.endRow && c >= box.startCol && c < box.endCol) out.push({ key, r, c });
  }
  return out;
}

/**
 * Sheets' refusal of a range past the grid, naming it as Sheets writes it: whole columns by their letters (`AA:AB`,
 * `ZZ` for one), whole rows by their numbers (`1001:1002`), other ranges by their cells, one cell alone (`AA1`), in
 * capitals (`d09037` is named `D9037`: googleapis/google-api-ruby-client#715; brekkylab/backlot `_a1_axis_name`).
 */
function beyondGrid(box: GridBox, open: A1Range): GoogleApiError {
  const { rowCount, columnCount } = box.sheet.properties.gridProperties;
  const title = quoteSheetName(box.sheet.properties.title);
  const span = (a: string, b: string): string => (a === b ? a : `${a}:${b}`);
  let name: string;
  if (open.startRow === undefined && open.endRow === undefined) name = `${title}!${span(columnLetters(box.startCol), columnLetters(box.endCol - 1))}`;
  else if (open.startCol === undefined && open.endCol === undefined) name = `${title}!${span(String(box.startRow + 1), String(box.endRow))}`;
  // Columns from a row on, open below (`A221:ZZ`), named as written: "Invalid range[0]: Range (FORENSIC_LIVE!A221:ZZ)
  // exceeds grid limits. Max rows: 220, max columns: 18", the live answer to a values.batchClear of A221:ZZ on a sheet
  // of 220 rows and 18 columns, as quoted in a public incident note (gspread's batch_clear(["A221:ZZ"])).
  else if (open.startRow !== undefined && open.endRow === undefined) name = `${title}!${columnLetters(box.startCol)}${box.startRow + 1}:${columnLetters(box.endCol - 1)}`;
  else name = formatRange(box.sheet.properties.title, box.startRow, box.endRow, box.startCol, box.endCol);
  return new GoogleApiError(400, `Range (${name}) exceeds grid limits. Max rows: ${rowCount}, max columns: ${columnCount}`);
}

/**
 * The sheet among `sheets` with this title, case ignored, as Sheets reads a title ({@link Spreadsheet.sheetByTitle})
 * and refuses a second one differing only in case (createSpreadsheet, addSheet).
 */
export function sheetTitled(sheets: readonly Sheet[], title: string): Sheet | undefined {
  const lower = title.toLowerCase();
  return sheets.find((s) => s.properties.title.toLowerCase() === lower);
}

/** A spreadsheet holds at most 10 million cells, counted over every sheet's grid (filled or not). */
export const MAX_CELLS = 10_000_000;

/**
 * Refuses, in Google's words, a change after which `sheets` would hold more than {@link MAX_CELLS} cells: `sheet`
 * with a grid of `rows` x `columns` (a sheet not among `sheets`, as addSheet's new one, counts beside them). `where`
 * names the request as a batchUpdate's refusals do ("Invalid requests[0].addSheet: ..."); values.append's refusal
 * names none: "This action would increase the number of cells in the workbook above the limit of 10000000 cells."
 * (burnash/gspread#516, append_row, then at 2000000; UoaWDCC/uasc-web#833, appending rows).
 */
export function checkCellLimit(sheets: readonly Sheet[], sheet: Sheet | undefined, rows: number, columns: number, where?: string): void {
  const others = sheets.reduce((n, s) => (s === sheet ? n : n + s.properties.gridProperties.rowCount * s.properties.gridProperties.columnCount), 0);
  if (others + rows * columns > MAX_CELLS) {
    throw new GoogleApiError(400, `${where === undefined ? '' : `Invalid ${where}: `}This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`);
  }
}

export class Spreadsheet {
  constructor(
    readonly spreadsheetId: string,
    readonly properties: Record<string, unknown>,
    readonly sheets: Sheet[],
  ) {}

  /**
   * The sheet a range names, ignoring case as Sheets does: a public probe of the live API read `data!B1:B3` from the
   * sheet `Data` (brekkylab/backlot, backlot/routers/google.py); Sheets also refuses two titles differing only in case
   * (socialpoint-labs/sheetfu#26), as createSpreadsheet does.
   */
  sheetByTitle(title: string): Sheet | undefined {
    return sheetTitled(this.sheets, title);
  }

  /**
   * Resolves an A1 string to a box, bounded by the sheet's grid: on the sheet it names, or the first (parseA1 reads
   * text without `!` as cells before a title). Errors are Sheets' 400s.
   */
  resolve(a1: string, opts: ParseOptions = {}): { box: GridBox; open: A1Range } {
    const range = parseA1(a1, opts);
    const unable = (): GoogleApiError => new GoogleApiError(400, `Unable to parse range: ${a1}`);
    if (!range) throw unable();
    const sheet = range.sheetName === undefined ? this.sheets[0] : this.sheetByTitle(range.sheetName);
    if (!sheet) throw unable();
    const { rowCount, columnCount } = sheet.properties.gridProperties;
    const box: GridBox = {
      sheet,
      startRow: range.startRow ?? 0,
      endRow: range.endRow ?? rowCount,
      startCol: range.startCol ?? 0,
      endCol: range.endCol ?? columnCount,
    };
    return { box, open: range };
  }

  /**
   * A read's box: refused when it starts past the sheet's grid, cut to the grid when only its end runs past it
   * (`A1:AA5` on 26 columns reads, and answers, `A1:Z5`), as values.get answers: measured against the live API by
   * brekkylab/backlot (backlot/routers/google.py, `_a1_range`). spreadsheets.get's ranges take the same rule, as
   * backlot serves them (one resolver for every read); not measured there on its own.
   */
  readBox(a1: string, opts: ParseOptions = {}): GridBox {
    const { box, open } = this.resolve(a1, opts);
    const { rowCount, columnCount } = box.sheet.properties.gridProperties;
    if (box.startRow >= rowCount || box.startCol >= columnCount) throw beyondGrid(box, open);
    return { ...box, endRow: Math.min(box.endRow, rowCount), endCol: Math.min(box.endCol, columnCount) };
  }

  /**
   * Refuses a box reaching past the grid, as Sheets refuses a write there (values.update never grows the sheet):
   * pygsheets#124 (2,306 rows sent to a sheet of 2,280), Sage-Bionetworks/schematic#1318. `open` is the range as
   * written, for the name of whole columns or rows; without it the cells are named.
   */
  checkGrid(box: GridBox, open: A1Range = box): void {
    const { rowCount, columnCount } = box.sheet.properties.gridProperties;
    if (box.endRow > rowCount || box.endCol > columnCount) throw beyondGrid(box, open);
  }

  /** The effective value of a cell, evaluating formulas; a reference cycle is `#REF!`. */
  effective(sheet: Sheet, row: number, col: number, visiting = new Set<string>()): Scalar {
    const cell = sheet.cells.get(cellKey(row, col));
    if (!cell) return null;
    if (!('formulaValue' in cell.value)) return literalOf(cell.value);
    const id = `${sheet.properties.sheetId}:${row}:${col}`;
    if (visiting.has(id)) return { error: 'REF', message: 'Circular dependency detected. To resolve with iterative calculation, see File > Settings.' };
    visiting.add(id);
    const target = (name: string | undefined): Sheet | undefined => (name === undefined ? sheet : this.sheetByTitle(name));
    const result = evaluateFormula(
      cell.value.formulaValue,
      (name, r, c) => {
        const s = target(name);
        return s ? this.effective(s, r, c, visiting) : { error: 'REF', message: `Unresolved sheet name '${name}'.` };
      },
      (name, r0, r1, c0, c1) => {
        const s = target(name);
        if (!s) return [{ error: 'REF', message: `Unresolved sheet name '${name}'.` }];
        const { rowCount, columnCount } = s.properties.gridProperties;
        const out: Scalar[] = [];
        for (let r = r0; r < Math.min(r1, rowCount); r++) for (let c = c0; c < Math.min(c1, columnCount); c++) out.push(this.effective(s, r, c, visiting));
        return out;
      },
    );
    visiting.delete(id);
    return result;
  }

  /**
   * Empties the cells of a box (values.clear): values only. The sheet keeps its grid, and whatever else the model
   * stores stays; Google keeps a cleared cell's format and data validation, which the model does not hold.
   */
  clearCells(box: GridBox): void {
    for (const { key } of storedCellsIn(box)) box.sheet.cells.delete(key);
  }

  /** Rows and columns actually holding cells inside a box, for trimming: the last used row and column + 1. */
  usedExtent(box: GridBox): { rows: number; cols: number } {
    let rows = 0;
    let cols = 0;
    for (const { r, c } of storedCellsIn(box)) {
      rows = Math.max(rows, r - box.startRow + 1);
      cols = Math.max(cols, c - box.startCol + 1);
    }
    return { rows, cols };
  }

  /**
   * The "table" `values.append` writes after, as Google's guide describes it with its worked example (a sheet holding
   * the tables A1:C2 and B4:D6): a table is a block of data, the smallest box that holds a filled cell and every filled
   * cell next to its sides (above, below, left or right), so it can reach outside the range (C5:D5 finds B4:D6). The
   * range finds the last table it touches, in the order of their top-left cells (a whole sheet, B2:D4 or A3:G10 all
   * find B4:D6); a range touching no filled cell finds none (E4). Undefined then.
   * @see https://developers.google.com/workspace/sheets/api/guides/values#append_values
   */
  findTable(box: GridBox): GridBox | undefined {
    const filled = new Set(box.sheet.cells.keys());
    const inBox = (b: GridBox, r: number, c: number): boolean => r >= b.startRow && r < b.endRow && c >= b.startCol && c < b.endCol;
    const seeds = storedCellsIn(box).sort((a, b) => a.r - b.r || a.c - b.c);
    const rowFilled = (r: number, c0: number, c1: number): boolean => {
      for (let c = c0; c < c1; c++) if (filled.has(cellKey(r, c))) return true;
      return false;
    };
    const colFilled = (c: number, r0: number, r1: number): boolean => {
      for (let r = r0; r < r1; r++) if (filled.has(cellKey(r, c))) return true;
      return false;
    };
    const tables: GridBox[] = [];
    for (const { r, c } of seeds) {
      if (tables.some((t) => inBox(t, r, c))) continue;
      const t: GridBox = { sheet: box.sheet, startRow: r, endRow: r + 1, startCol: c, endCol: c + 1 };
      // Grows by one row or column at a time while a filled cell lies along a side.
      const grow = (): boolean => {
        if (t.startRow > 0 && rowFilled(t.startRow - 1, t.startCol, t.endCol)) t.startRow--;
        else if (rowFilled(t.endRow, t.startCol, t.endCol)) t.endRow++;
        else if (t.startCol > 0 && colFilled(t.startCol - 1, t.startRow, t.endRow)) t.startCol--;
        else if (colFilled(t.endCol, t.startRow, t.endRow)) t.endCol++;
        else return false;
        return true;
      };
      while (grow());
      tables.push(t);
    }
    return tables.sort((a, b) => a.startRow - b.startRow || a.startCol - b.startCol).at(-1);
  }

  /**
   * Inserts `count` empty rows before `row`: the cells at and below it move down, the grid gains the rows. Formulas
   * keep their references as written (Google rewrites those pointing at moved cells; the fake does not).
   */
  insertRows(sheet: Sheet, row: number, count: number): void {
    const moved = [...sheet.cells].filter(([key]) => Math.floor(key / COLS_KEY) >= row);
    for (const [key] of moved) sheet.cells.delete(key);
    for (const [key, cell] of moved) sheet.cells.set(key + count * COLS_KEY, cell);
    sheet.properties.gridProperties.rowCount += count;
  }

  /** Grows the grid, if needed, so that it holds `rows` rows and `cols` columns. */
  growGrid(sheet: Sheet, rows: number, cols: number): void {
    const grid = sheet.properties.gridProperties;
    grid.rowCount = Math.max(grid.rowCount, rows);
    grid.columnCount = Math.max(grid.columnCount, cols);
  }

  /** The resource `spreadsheets.get` returns without grid data. */
  toResource(sheets: Sheet[] = this.sheets): Record<string, unknown> {
    return {
      spreadsheetId: this.spreadsheetId,
      properties: structuredClone(this.properties),
      sheets: sheets.map((s) => ({ properties: structuredClone(s.properties) })),
      spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${this.spreadsheetId}/edit`,
    };
  }
}
