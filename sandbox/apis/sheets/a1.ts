/**
 * A1 notation: parsing `Sheet1!A1:C10`, `'My Sheet'!A:C`, `2:4`, `A5:C`, a bare sheet name, and writing ranges
 * back the way Sheets does (`Sheet1!A1:C10`, quoted names when needed, `''` escaping a quote).
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

/**
 * Parses an A1 string; undefined when it is none. Text without `!` is cells when it reads as cells, and a sheet title
 * only when it does not, whatever sheets the spreadsheet has: Sheets reads `A1` as cell A1 of the first sheet even
 * beside a sheet titled `A1` (brekkylab/backlot, measured; gspread-dataframe#54, google-api-ruby-client#715 on a
 * write, urbancups/node-sheets#5), so such a sheet is named quoted (`'A1'`).
 */
export function parseA1(text: string): A1Range | undefined {
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
    return named(name, rest.slice(1));
  }
  const bang = text.lastIndexOf('!');
  if (bang >= 0) return named(text.slice(0, bang), text.slice(bang + 1));
  return parseCells(text) ?? { sheetName: text };
}

/**
 * `<name>!<cells>`. An empty name (`!A1`, `''!A1`) names no sheet, so the range is on the first, as Sheets reads it
 * before a range, and only there (`!` alone, `!Data` are refused): measured by brekkylab/backlot on values.get.
 */
function named(name: string, cellText: string): A1Range | undefined {
  const cells = parseCells(cellText);
  if (!cells) return undefined;
  return name === '' ? cells : { sheetName: name, ...cells };
}

/** A sheet title as it appears in a range: quoted unless it is a plain identifier that cannot be read as a cell. */
export function quoteSheetName(title: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title)) return title;
  return `'${title.replaceAll("'", "''")}'`;
}

/** `Sheet1!A1:C10` (or `Sheet1!B2` for one cell) from a bounded 0-based, end-exclusive box. */
export function formatRange(title: string, startRow: number, endRow: number, startCol: number, endCol: number): string {
  const a = `${columnLetters(startCol)}${startRow + 1}`;
  const b = `${columnLetters(endCol - 1)}${endRow}`;
  return `${quoteSheetName(title)}!${a === b ? a : `${a}:${b}`}`;
}
