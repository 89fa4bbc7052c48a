/**
 * `spreadsheets.values.get`, `.update`, `.append`, `.clear` and `.batchClear`.
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/get
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/update
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/append
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/clear
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/batchClear
 */
import type { ApiResponse } from '../../types.js';
import { GoogleApiError, valueText } from '../google-common/errors.js';
import { refuseUnknownFields, unknownFieldProblems, withJsonNames, type ProtoMessage } from '../google-common/proto-json.js';
import { boolParam, isRecord } from '../google-common/request.js';
import { columnLetters, formatRange } from './a1.js';
import { checkCellLength, inputToCell, renderCell, type DateTimeRenderOption, type ValueInputOption, type ValueRenderOption } from './cell-values.js';
import { cellKey, checkCellLimit, type GridBox, type Spreadsheet } from './spreadsheet-model.js';

type Dimension = 'ROWS' | 'COLUMNS';
const RENDER_OPTIONS: readonly ValueRenderOption[] = ['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'];
const DATE_TIME_OPTIONS: readonly DateTimeRenderOption[] = ['SERIAL_NUMBER', 'FORMATTED_STRING'];

/** Enum parameters fail like Google's proto parser: naming the snake_case field and the bad value. */
function enumValue<T extends string>(query: URLSearchParams, name: string, field: string, type: string, allowed: readonly T[], fallback: T): T {
  const v = query.get(name);
  if (v === null) return fallback;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new GoogleApiError(400, `Invalid value at '${field}' (type.googleapis.com/google.apps.sheets.v4.${type}), "${v}"`);
}

function boxRange(box: GridBox): string {
  return formatRange(box.sheet.properties.title, box.startRow, box.endRow, box.startCol, box.endCol);
}

/** The values of a box, trimmed of trailing empty rows and cells, in the requested major dimension. */
function readValues(book: Spreadsheet, box: GridBox, dim: Dimension, render: ValueRenderOption, dateTime: DateTimeRenderOption): unknown[][] {
  const { rows, cols } = book.usedExtent(box);
  const outer = dim === 'ROWS' ? rows : cols;
  const inner = dim === 'ROWS' ? cols : rows;
  const out: unknown[][] = [];
  for (let i = 0; i < outer; i++) {
    const line: unknown[] = [];
    let last = -1;
    for (let j = 0; j < inner; j++) {
      const r = box.startRow + (dim === 'ROWS' ? i : j);
      const c = box.startCol + (dim === 'ROWS' ? j : i);
      const cell = box.sheet.cells.get(cellKey(r, c));
      const v = renderCell(cell, cell ? book.effective(box.sheet, r, c) : null, render, dateTime);
      if (v !== '') last = j;
      line.push(v);
    }
    out.push(line.slice(0, last + 1));
  }
  while (out.length > 0 && (out[out.length - 1] as unknown[]).length === 0) out.pop();
  return out;
}

export function getValues(book: Spreadsheet, a1: string, query: URLSearchParams): ApiResponse {
  const dim = enumValue<Dimension>(query, 'majorDimension', 'major_dimension', 'Dimension', ['ROWS', 'COLUMNS'], 'ROWS');
  const render = enumValue(query, 'valueRenderOption', 'value_render_option', 'ValueRenderOption', RENDER_OPTIONS, 'FORMATTED_VALUE');
  const dateTime = enumValue(query, 'dateTimeRenderOption', 'date_time_render_option', 'DateTimeRenderOption', DATE_TIME_OPTIONS, 'SERIAL_NUMBER');
  // R1C1 is taken here only: values.get's reference names it beside A1 ("The A1 notation or R1C1 notation of the range
  // to retrieve values from"), and it was measured there; update's and append's name A1 alone, unmeasured with R1C1.
  const box = book.readBox(a1, { r1c1: true });
  const values = readValues(book, box, dim, render, dateTime);
  const body: Record<string, unknown> = { range: boxRange(box), majorDimension: dim };
  if (values.length > 0) body.values = values;
  return { status: 200, body };
}

/**
 * The fields of a write's body, a ValueRange (Sheets v4 reference: `range`, `majorDimension`, `values`), by their JSON
 * names; `values` holds a ListValue of cells, not a message, so it is not looked into.
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values#ValueRange
 */
const VALUE_RANGE: ProtoMessage = { range: null, majorDimension: null, values: null };

/**
 * A write's body as sent, checked as Google's JSON front end checks it before the request reaches Sheets (so before
 * Sheets' own check of valueInputOption, and before anything is written; the order against the front end's parse of
 * the query is not documented), then read under its fields' JSON names
 * (`major_dimension` is `majorDimension`). The ValueRange is the request's `data`: sent a BatchUpdateValuesRequest,
 * values.update answered
 *   `Invalid JSON payload received. Unknown name "valueInputOption" at 'data': Cannot find field.`
 *   `Invalid JSON payload received. Unknown name "data" at 'data': Cannot find field.`
 * one line per name, 400 INVALID_ARGUMENT (https://github.com/googleapis/google-api-dotnet-client/issues/2161).
 * values.append's ValueRange is taken to be `data` too, as its other refusals here name it (`data.values`,
 * `data.major_dimension`); no public record of an unknown name on append was found, so its path is unconfirmed.
 * (A body that is the request itself, values.batchUpdate's, names no path: `Unknown name "requests": Cannot find
 * field.`, googleapis/google-api-nodejs-client#1380; the sandbox does not model values.batchUpdate.)
 */
function valueRangeBody(sent: unknown): unknown {
  refuseUnknownFields(unknownFieldProblems(sent, VALUE_RANGE, 'data', {}));
  return withJsonNames(sent);
}

interface WriteOptions {
  input: ValueInputOption;
  includeValues: boolean;
  responseRender: ValueRenderOption;
  responseDateTime: DateTimeRenderOption;
}

interface InputGrid {
  grid: unknown[][];
  rows: number;
  cols: number;
}

/** The query options of values.update and values.append, read before anything is written; valueInputOption is required. */
function writeOptions(query: URLSearchParams): WriteOptions {
  const option = query.get('valueInputOption');
  if (option === null || option === 'INPUT_VALUE_OPTION_UNSPECIFIED') {
    throw new GoogleApiError(400, 'Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED');
  }
  return {
    input: enumValue<ValueInputOption>(query, 'valueInputOption', 'value_input_option', 'ValueInputOption', ['RAW', 'USER_ENTERED'], 'RAW'),
    includeValues: boolParam(query, 'includeValuesInResponse'),
    responseRender: enumValue(query, 'responseValueRenderOption', 'response_value_render_option', 'ValueRenderOption', RENDER_OPTIONS, 'FORMATTED_VALUE'),
    responseDateTime: enumValue(query, 'responseDateTimeRenderOption', 'response_date_time_render_option', 'DateTimeRenderOption', DATE_TIME_OPTIONS, 'SERIAL_NUMBER'),
  };
}

/**
 * A write's body (ValueRange) as rows of the grid, whatever its major dimension, with Google's refusals: a bad
 * dimension, values that are not a list of lists, an object in a cell, a cell over the size limit, and a body range
 * that is not the URL's.
 */
function inputGrid(book: Spreadsheet, box: GridBox, body: unknown): InputGrid {
  const b = isRecord(body) ? body : {};
  const dim = b.majorDimension === undefined ? 'ROWS' : b.majorDimension;
  if (dim !== 'ROWS' && dim !== 'COLUMNS') {
    throw new GoogleApiError(400, `Invalid value at 'data.major_dimension' (type.googleapis.com/google.apps.sheets.v4.Dimension), ${JSON.stringify(dim)}`);
  }
  if (b.range !== undefined) {
    const other = typeof b.range === 'string' ? book.resolve(b.range).box : undefined;
    if (!other || boxRange(other) !== boxRange(box)) {
      throw new GoogleApiError(400, `Requested entity range [${valueText(b.range)}] does not match the request URL range [${boxRange(box)}].`);
    }
  }
  const raw = b.values === undefined ? [] : b.values;
  if (!Array.isArray(raw) || raw.some((row) => !Array.isArray(row))) {
    throw new GoogleApiError(400, "Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue)");
  }
  const grid: unknown[][] = [];
  (raw as unknown[][]).forEach((line, i) =>
    line.forEach((v, j) => {
      if (v !== null && typeof v === 'object') {
        throw new GoogleApiError(400, `Invalid values[${i}][${j}]: ${Array.isArray(v) ? 'list_value' : 'struct_value'}`);
      }
      checkCellLength(v);
      const [r, c] = dim === 'ROWS' ? [i, j] : [j, i];
      (grid[r] ??= [])[c] = v;
    }),
  );
  return { grid, rows: grid.length, cols: Math.max(0, ...grid.map((r) => (r ?? []).length)) };
}

/**
 * Writes the grid from the box's top-left cell and answers UpdateValuesResponse: the written range, the rows, columns
 * and cells given a value, and with includeValuesInResponse the written range read back.
 */
function writeGrid(book: Spreadsheet, box: GridBox, data: InputGrid, opts: WriteOptions): Record<string, unknown> {
  const { grid, rows, cols } = data;
  const out: Record<string, unknown> = { spreadsheetId: book.spreadsheetId };
  if (rows === 0 || cols === 0) {
    out.updatedRange = boxRange({ ...box, endRow: box.startRow + 1, endCol: box.startCol + 1 });
    return out;
  }
  const written: GridBox = { ...box, endRow: box.startRow + rows, endCol: box.startCol + cols };
  let updatedCells = 0;
  const touchedRows = new Set<number>();
  const touchedCols = new Set<number>();
  grid.forEach((line, r) =>
    (line ?? []).forEach((v, c) => {
      const cell = inputToCell(v, opts.input);
      if (cell === undefined) return;
      const key = cellKey(box.startRow + r, box.startCol + c);
      if (cell === null) box.sheet.cells.delete(key);
      else box.sheet.cells.set(key, cell);
      updatedCells++;
      touchedRows.add(r);
      touchedCols.add(c);
    }),
  );
  out.updatedRange = boxRange(written);
  if (touchedRows.size > 0) out.updatedRows = touchedRows.size;
  if (touchedCols.size > 0) out.updatedColumns = touchedCols.size;
  if (updatedCells > 0) out.updatedCells = updatedCells;
  if (opts.includeValues) {
    const echoed: Record<string, unknown> = { range: boxRange(written), majorDimension: 'ROWS' };
    const values = readValues(book, written, 'ROWS', opts.responseRender, opts.responseDateTime);
    if (values.length > 0) echoed.values = values;
    out.updatedData = echoed;
  }
  return out;
}

export function updateValues(book: Spreadsheet, a1: string, query: URLSearchParams, sent: unknown): ApiResponse {
  const body = valueRangeBody(sent);
  const opts = writeOptions(query);
  const { box, open } = book.resolve(a1);
  const data = inputGrid(book, box, body);
  const { rows, cols } = data;
  // A single-cell range is an anchor: the data may extend right and down from it.
  const anchored = open.endRow !== undefined && open.endCol !== undefined && open.endRow - (open.startRow ?? 0) === 1 && open.endCol - (open.startCol ?? 0) === 1;
  if (!anchored) {
    if (box.startRow + rows > box.endRow) {
      throw new GoogleApiError(400, `Requested writing within range [${boxRange(box)}], but tried writing to row [${box.endRow + 1}]`);
    }
    if (box.startCol + cols > box.endCol) {
      throw new GoogleApiError(400, `Requested writing within range [${boxRange(box)}], but tried writing to column [${columnLetters(box.endCol)}]`);
    }
  }
  if (rows > 0 && cols > 0) {
    // values.update never grows the sheet (values.append and a batchUpdate appendDimension do): data running past
    // the grid, from an anchor cell or not, is refused, where a read running past it is cut to it (readBox).
    const written: GridBox = { ...box, endRow: box.startRow + rows, endCol: box.startCol + cols };
    book.checkGrid(written);
  }
  return { status: 200, body: writeGrid(book, box, data, opts) };
}

/**
 * values.append: finds the last table the range touches ({@link Spreadsheet.findTable}) and writes the rows after its last
 * row, from its first column (from the range's top-left cell when the range holds no data). INSERT_ROWS first
 * inserts as many rows there (what is below moves down); OVERWRITE (the default) writes over the rows that are
 * there. Either way the grid gains the rows and columns the data runs past it (growGrid), where values.update refuses:
 * InsertDataOption OVERWRITE in the Sheets reference, "adding data to the end of the sheet will still insert new rows
 * or columns so the data can be written". Columns under INSERT_ROWS are not documented on their own; they take the
 * same rule. (home-assistant/core#104198's 'Range (Solar!Y1) exceeds grid limits' is a values.update: gspread's
 * update_cell writing a header before append_rows.) Answers AppendValuesResponse `{spreadsheetId, tableRange,
 * updates}`, tableRange absent when no table was found; the shapes as gspread's cassettes recorded them live
 * (tableRange `Sheet1!C1` for a table of one cell, updatedRange `Sheet1!C2:E2` from its first column).
 * The range itself reaching past the grid is refused as a write's is (checkGrid); no public answer of Google's to
 * that on append was found, so that refusal is unconfirmed. Rows that would take the spreadsheet past its 10 million
 * cells are refused before anything is written, in Google's words for append (checkCellLimit).
 */
export function appendValues(book: Spreadsheet, a1: string, query: URLSearchParams, sent: unknown): ApiResponse {
  const body = valueRangeBody(sent);
  const opts = writeOptions(query);
  const insert = enumValue(query, 'insertDataOption', 'insert_data_option', 'AppendValuesRequest.InsertDataOption', ['OVERWRITE', 'INSERT_ROWS'] as const, 'OVERWRITE');
  const { box, open } = book.resolve(a1);
  book.checkGrid(box, open);
  const data = inputGrid(book, box, body);
  const { rows, cols } = data;
  const table = book.findTable(box);
  const at: GridBox = table
    ? { ...box, startRow: table.endRow, endRow: table.endRow + 1, startCol: table.startCol, endCol: table.startCol + 1 }
    : { ...box, endRow: box.startRow + 1, endCol: box.startCol + 1 };
  if (rows > 0 && cols > 0) {
    // The grid it would have (inserted rows, then grown to hold the data) must keep the spreadsheet within its cells.
    const { rowCount, columnCount } = box.sheet.properties.gridProperties;
    checkCellLimit(book.sheets, box.sheet, Math.max(rowCount + (insert === 'INSERT_ROWS' ? rows : 0), at.startRow + rows), Math.max(columnCount, at.startCol + cols));
    if (insert === 'INSERT_ROWS') book.insertRows(box.sheet, at.startRow, rows);
    book.growGrid(box.sheet, at.startRow + rows, at.startCol + cols);
  }
  const out: Record<string, unknown> = { spreadsheetId: book.spreadsheetId };
  if (table) out.tableRange = boxRange(table);
  out.updates = writeGrid(book, at, data, opts);
  return { status: 200, body: out };
}

/**
 * The box a clear covers: as a read's ({@link Spreadsheet.readBox}), cut to the grid when it runs past it and refused
 * when it starts past it. The reference says the cleared range is "bounded to the sheet's limits" for an unbounded
 * range or one larger than the sheet; a range starting past the grid was refused live ("Invalid range[0]: Range
 * (FORENSIC_LIVE!A221:ZZ) exceeds grid limits. Max rows: 220, max columns: 18", a batchClear). R1C1 is taken, as
 * values.get takes it: the references of clear and batchClear name it beside A1 ("The A1 notation or R1C1 notation of
 * the values to clear").
 */
function clearBox(book: Spreadsheet, a1: string): GridBox {
  return book.readBox(a1, { r1c1: true });
}

/**
 * values.clear: `{spreadsheetId, clearedRange}`, the range in A1 with the sheet's name, bounded to the grid (a whole
 * sheet, `'Sheet1'`, answers `Sheet1!A1:Z1000` on a new sheet: gspread's cassettes, recorded live), whether or not its
 * cells held anything. Its body is a ClearValuesRequest, which has no field: a name in it is refused as Google's JSON
 * front end refuses an unknown one (`Unknown name "x": Cannot find field.`), before anything is cleared.
 */
export function clearValues(book: Spreadsheet, a1: string, sent: unknown): ApiResponse {
  refuseUnknownFields(unknownFieldProblems(sent, {}, '', {}));
  const box = clearBox(book, a1);
  book.clearCells(box);
  return { status: 200, body: { spreadsheetId: book.spreadsheetId, clearedRange: boxRange(box) } };
}

/** A BatchClearValuesRequest's one field (Sheets v4 reference). */
const BATCH_CLEAR: ProtoMessage = { ranges: null };

/**
 * values.batchClear: every range is resolved first and the cells cleared only when all of them were (all or nothing),
 * answering `{spreadsheetId, clearedRanges}` in the order sent, each as values.clear names its range (gspread's
 * cassette, recorded live: `'Sheet1'!A1:B1` and `'Sheet1'!C2:E2` answered `Sheet1!A1:B1`, `Sheet1!C2:E2`). A range
 * refused is named by its place, `range[i]` (sic, not `ranges`), before values.clear's words: "Invalid range[0]: Unable
 * to parse range: Invalid Date!A:undefined" (kevinschaich/mintable#62, its clearRanges is a batchClear), "Invalid
 * range[0]: Range (...) exceeds grid limits. ...". An empty list is not documented: refused as not modelled.
 */
export function batchClearValues(book: Spreadsheet, sent: unknown): ApiResponse {
  refuseUnknownFields(unknownFieldProblems(sent, BATCH_CLEAR, '', {}));
  const body = withJsonNames(isRecord(sent) ? sent : {}, 1) as Record<string, unknown>;
  const ranges = body.ranges === undefined || body.ranges === null ? [] : body.ranges;
  // A list is required and each item a string; these two refusals are worded as the parser words a bad scalar
  // elsewhere (`Invalid value at 'x' (TYPE_INT32), ...`), not recorded on batchClear itself.
  if (!Array.isArray(ranges)) throw new GoogleApiError(400, `Invalid value at 'ranges' (TYPE_STRING), ${valueText(ranges)}`);
  ranges.forEach((r, i) => {
    if (typeof r !== 'string') throw new GoogleApiError(400, `Invalid value at 'ranges[${i}]' (TYPE_STRING), ${valueText(r)}`);
  });
  if (ranges.length === 0) {
    throw Object.assign(new GoogleApiError(400, 'Invalid request: The sandbox does not model a values.batchClear without ranges.'), { unmodelled: true });
  }
  const boxes = (ranges as string[]).map((a1, i) => {
    try {
      return clearBox(book, a1);
    } catch (err) {
      if (err instanceof GoogleApiError) throw new GoogleApiError(err.status, `Invalid range[${i}]: ${err.message}`, err.options);
      throw err;
    }
  });
  for (const box of boxes) book.clearCells(box);
  return { status: 200, body: { spreadsheetId: book.spreadsheetId, clearedRanges: boxes.map(boxRange) } };
}
