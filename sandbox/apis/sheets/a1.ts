/**
 * A1 notation: parsing `Sheet1!A1:C10`, `'My Sheet'!A:C`, `2:4`, `A5:C`, a bare sheet name (and R1C1, `R1C1:R2C2`,
 * where values.get takes it), and writing ranges back the way Sheets does (`Sheet1!A1:C10`, quoted names when needed,
 * `''` escaping a quote).
 *
 * A name before `!` may go unquoted even with spaces (`Class Data!A2:E`), as Sheets reads it: Google's own quickstart
 * sends that range (googleworkspace/node-samples sheets/quickstart/index.js), and a public probe of the live API found
 * quoting optional for names with a space, a colon, brackets or a bang (brekkylab/backlot, backlot/routers/google.py).
 * @see https://developers.google.com/sheets/api/guides/concepts#cell
 */

/** A parsed range. Rows and columns are 0-based; `end*` is exclusive; undefined means open. */
export interface A1Range {
  /** Sheet title as written (unquoted), absent when the range names none. */
  sheetName?: string;
  startRow?: number;
  endRow?: number;
  startCol?: number;
  endCol?: number;
}

const MAX_COLUMNS = 18278; // ZZZ

/** Column index (0-based) from letters: A=0, Z=25, AA=26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

interface Ref {
  col?: number;
  row?: number;
}

function parseRef(text: string): Ref | undefined {
  const m = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return undefined;
  const ref: Ref = {};
  if (m[1] !== undefined) {
    ref.col = columnIndex(m[1]);
    if (ref.col >= MAX_COLUMNS) return undefined;
  }
  if (m[2] !== undefined) {
    const row = Number(m[2]);
    if (row < 1) return undefined;
    ref.row = row - 1;
  }
  return ref;
}

/** Parses the cell part (after `!`); undefined when it is not A1. */
export function parseCells(text: string): A1Range | undefined {
  const parts = text.split(':');
  if (parts.length > 2) return undefined;
  const a = parseRef(parts[0] as string);
  if (!a) return undefined;
  if (parts.length === 1) {
    // A lone reference must be a full cell: `A` or `5` alone are not ranges.
    if (a.col === undefined || a.row === undefined) return undefined;
    return { startRow: a.row, endRow: a.row + 1, startCol: a.col, endCol: a.col + 1 };
  }
  const b = parseRef(parts[1] as string);
  if (!b) return undefined;
  // Row-only and column-only halves must pair up (`2:4`, `A:C`); `A1:C` and `A:C10` are open-ended. `A5:A` is in
  // Google's guide; `A:C10` (read as A1:C10) is not documented, nor measured in A1 in public, though the R1C1 twins are
  // (`C3:R1C1` is A1:C1, `R1C1:C2` is A1:B1000); a column half with a row half (`A:1`) is refused, unconfirmed either way.
  if ((a.col === undefined) !== (b.col === undefined)) return undefined;
  const range: A1Range = {};
  if (a.col !== undefined && b.col !== undefined) {
    range.startCol = Math.min(a.col, b.col);
    range.endCol = Math.max(a.col, b.col) + 1;
  }
  if (a.row !== undefined && b.row !== undefined) {
    range.startRow = Math.min(a.row, b.row);
    range.endRow = Math.max(a.row, b.row) + 1;
  } else if (a.row !== undefined) {
    range.startRow = a.row;
  } else if (b.row !== undefined) {
    range.endRow = b.row + 1;
  }
  return range;
}

/** One R1C1 reference: `R` and `C`, each with an absolute number (`R2`), an offset from A1 (`R[1]`) or none. */
const R1C1_REF = /^(?:(R)(?:(\d+)|\[(\d+)\])?)?(?:(C)(?:(\d+)|\[(\d+)\])?)?$/i;

interface R1C1Ref {
  row?: number;
  col?: number;
  /** The number as written and its kind, for the reversed-range rule; absent when the letter carries none. */
  rawRow?: readonly [kind: 'abs' | 'rel', n: number];
  rawCol?: readonly [kind: 'abs' | 'rel', n: number];
}

function parseR1C1Ref(text: string): R1C1Ref | undefined {
  const m = R1C1_REF.exec(text);
  if (!m || (m[1] === undefined && m[4] === undefined)) return undefined;
  type Axis = { index: number; raw?: readonly ['abs' | 'rel', number] } | undefined;
  const axis = (letter: string | undefined, abs: string | undefined, rel: string | undefined): Axis | null => {
    if (abs !== undefined) return Number(abs) === 0 ? null : { index: Number(abs) - 1, raw: ['abs', Number(abs)] };
    if (rel !== undefined) return { index: Number(rel), raw: ['rel', Number(rel)] };
    return letter === undefined ? undefined : { index: 0 };
  };
  const r = axis(m[1], m[2], m[3]);
  const c = axis(m[4], m[5], m[6]);
  if (r === null || c === null) return undefined;
  // A letter left out is unbounded beside a letter with a number (`R2` is row 2), else 0 (`R` is A1).
  const ref: R1C1Ref = {};
  const row = r ? r.index : c?.raw ? undefined : 0;
  const col = c ? c.index : r?.raw ? undefined : 0;
  if (row !== undefined) ref.row = row;
  if (col !== undefined) ref.col = col;
  if (r?.raw) ref.rawRow = r.raw;
  if (c?.raw) ref.rawCol = c.raw;
  return ref;
}

/**
 * The cell part in R1C1 notation, where values.get takes it; undefined when it is not R1C1. The grammar is the one
 * brekkylab/backlot measured on the live API (brekkylab/backlot#174; backlot/routers/google.py `_R1C1_END`):
 * numbers from 1 (`R0C1` is refused), offsets `[n]` from A1 (no sign), a letter without a number is 0 (`RC` is A1), a
 * letter left out beside a numbered one is unbounded (`R1C1:R2` is A1:Z2, `C[1]` column B), both halves R1C1
 * (`A1:R2C2` is refused; `C3:R1C1` reads C3 as R1C1, A1:C1), a reversed range swapped (`R3C3:R1C1` is A1:C3) except
 * that halves one apart on an axis, both absolute or both offsets, are refused (`R2C2:R1C1`, `R2:R1C1`).
 */
export function parseR1C1(text: string): A1Range | undefined {
  const refs = text.split(':').map(parseR1C1Ref);
  if (refs.length > 2 || refs.some((r) => r === undefined)) return undefined;
  const [a, b = a] = refs as [R1C1Ref, R1C1Ref?];
  const oneApart = (x?: R1C1Ref['rawRow'], y?: R1C1Ref['rawRow']): boolean => !!x && !!y && x[0] === y[0] && x[1] === y[1] + 1;
  if (refs.length === 2 && (oneApart(a.rawRow, b.rawRow) || oneApart(a.rawCol, b.rawCol))) return undefined;
  const range: A1Range = {};
  // Per axis: open when neither half bounds it, from the first half on when only the first does, else the two halves
  // in either order (a first half with no bound on the axis starts at 0).
  if (a.row !== undefined || b.row !== undefined) {
    if (b.row === undefined) range.startRow = a.row;
    else [range.startRow, range.endRow] = [Math.min(a.row ?? 0, b.row), Math.max(a.row ?? 0, b.row) + 1];
  }
  if (a.col !== undefined || b.col !== undefined) {
    if (b.col === undefined) range.startCol = a.col;
    else [range.startCol, range.endCol] = [Math.min(a.col ?? 0, b.col), Math.max(a.col ?? 0, b.col) + 1];
  }
  return range;
}

/** Where a notation besides A1 is taken: R1C1 on values.get. */
export interface ParseOptions {
  r1c1?: boolean;
}

/** Cells in A1, else (where taken) in R1C1: a range is read in one notation, A1 first (`R1` is the cell R1). */
function cellsOf(text: string, opts: ParseOptions): A1Range | undefined {
  return parseCells(text) ?? (opts.r1c1 ? parseR1C1(text) : undefined);
}

/**
 * Parses an A1 string; undefined when it is none. Text without `!` is cells when it reads as cells, and a sheet title
 * only when it does not, whatever sheets the spreadsheet has: Sheets reads `A1` as cell A1 of the first sheet even
 * beside a sheet titled `A1` (brekkylab/backlot, measured; gspread-dataframe#54, google-api-ruby-client#715 on a
 * write, urbancups/node-sheets#5), so such a sheet is named quoted (`'A1'`).
 */
export function parseA1(text: string, opts: ParseOptions = {}): A1Range | undefined {
  // White space is part of no range: Sheets refuses ` A1` and `A1 ` as it refuses `Sheet1! A1` or `A1: B2`, rather
  // than trim (36 forms measured by brekkylab/backlot; n8n-io/n8n#13366 shows a trailing space refused on a write).
  if (text.length === 0 || /^\s|\s$/u.test(text)) return undefined;
  if (text.startsWith("'")) {
    let i = 1;
    let name = '';
    for (;;) {
      if (i >= text.length) return undefined;
      const ch = text[i] as string;
      if (ch === "'") {
        if (text[i + 1] === "'") {
          name += "'";
          i += 2;
          continue;
        }
        break;
      }
      name += ch;
      i++;
    }
    const rest = text.slice(i + 1);
    if (rest === '') return name === '' ? undefined : { sheetName: name };
    if (!rest.startsWith('!')) return undefined;
    return named(name, rest.slice(1), opts);
  }
  const bang = text.lastIndexOf('!');
  if (bang >= 0) return named(text.slice(0, bang), text.slice(bang + 1), opts);
  return cellsOf(text, opts) ?? { sheetName: text };
}

/**
 * `<name>!<cells>`. An empty name (`!A1`, `''!A1`) names no sheet, so the range is on the first, as Sheets reads it
 * before a range, and only there (`!` alone, `!Data` are refused): measured by brekkylab/backlot on values.get.
 */
function named(name: string, cellText: string, opts: ParseOptions): A1Range | undefined {
  const cells = cellsOf(cellText, opts);
  if (!cells) return undefined;
  return name === '' ? cells : { sheetName: name, ...cells };
}

/**
 * A sheet title as it appears in a range: quoted unless it is a plain identifier that cannot be read as a cell, in A1
 * or in R1C1 (`R1C1` and `RC` echo quoted, `A` bare: brekkylab/backlot, measured).
 */
export function quoteSheetName(title: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title) && parseR1C1(title) === undefined) return title;
  return `'${title.replaceAll("'", "''")}'`;
}

/** `Sheet1!A1:C10` (or `Sheet1!B2` for one cell) from a bounded 0-based, end-exclusive box. */
export function formatRange(title: string, startRow: number, endRow: number, startCol: number, endCol: number): string {
  const a = `${columnLetters(startCol)}${startRow + 1}`;
  const b = `${columnLetters(endCol - 1)}${endRow}`;
  return `${quoteSheetName(title)}!${a === b ? a : `${a}:${b}`}`;
}
