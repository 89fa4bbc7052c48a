/**
 * `spreadsheets.create` and `spreadsheets.get` (with `ranges` and `includeGridData`).
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/create
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/get
 */
import { randomInt } from 'node:crypto';
import type { ApiResponse } from '../../types.js';
import { GoogleApiError } from '../google-common/errors.js';
import { driveFileId } from '../google-common/ids.js';
import { boolParam, isRecord } from '../google-common/request.js';
import { refuseUnknownFields, unknownFieldProblems, withJsonNames, type ProtoMessage } from '../google-common/proto-json.js';
import { NUMBER_FORMATS, checkCellLength, effectiveToExtended, formattedOf, inputToCell, type Cell } from './cell-values.js';
import { cellKey, sheetTitled, Spreadsheet, type GridBox, type Sheet } from './spreadsheet-model.js';

const DEFAULT_FORMAT = {
  backgroundColor: { red: 1, green: 1, blue: 1 },
  padding: { top: 2, right: 3, bottom: 2, left: 3 },
  verticalAlignment: 'BOTTOM',
  wrapStrategy: 'OVERFLOW_CELL',
  textFormat: {
    foregroundColor: {},
    fontFamily: 'arial,sans,sans-serif',
    fontSize: 10,
    bold: false,
    italic: false,
    strikethrough: false,
    underline: false,
  },
};

function invalid(message: string): GoogleApiError {
  return new GoogleApiError(400, message);
}

function positiveInt(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid(`Invalid value at '${name}': must be a positive integer.`);
  return v;
}

/**
 * The fields of the messages a create body holds, by their JSON names (Sheets v4 reference: Spreadsheet,
 * SpreadsheetProperties, Sheet, SheetProperties). Google's JSON front end refuses any other name before creating
 * anything, `Invalid JSON payload received. Unknown name "title" at 'spreadsheet.sheets[0]': Cannot find field.`,
 * the path rooted at the request's `spreadsheet` (as in googleapis/google-api-nodejs-client#1220's
 * `... at 'spreadsheet.properties'`). Without this, `sheets: [{title: "Income"}]` (the title beside properties) made
 * a sheet named Sheet1.
 */
const fields = (names: readonly string[], holding: Readonly<Record<string, string>> = {}): ProtoMessage =>
  Object.fromEntries(names.map((name) => [name, holding[name] ?? null]));
const CREATE_MESSAGES: Readonly<Record<string, ProtoMessage>> = {
  Spreadsheet: fields(['spreadsheetId', 'properties', 'sheets', 'namedRanges', 'spreadsheetUrl', 'developerMetadata', 'dataSources', 'dataSourceSchedules'], {
    properties: 'SpreadsheetProperties',
    sheets: 'Sheet',
  }),
  SpreadsheetProperties: fields([
    'title', 'locale', 'autoRecalc', 'timeZone', 'defaultFormat', 'iterativeCalculationSettings', 'spreadsheetTheme', 'importFunctionsExternalUrlAccessAllowed',
  ]),
  Sheet: fields(
    [
      'properties', 'data', 'merges', 'conditionalFormats', 'filterViews', 'protectedRanges', 'basicFilter', 'charts', 'bandedRanges', 'developerMetadata',
      'rowGroups', 'columnGroups', 'slicers', 'tables',
    ],
    { properties: 'SheetProperties' },
  ),
  SheetProperties: fields(['sheetId', 'title', 'index', 'sheetType', 'gridProperties', 'hidden', 'tabColor', 'tabColorStyle', 'rightToLeft', 'dataSourceSheetProperties']),
};

/**
 * Creates a spreadsheet from an optional body, as sent (field names checked as given, so an unknown one is quoted as
 * sent, then read under their JSON names); defaults give one `Sheet1` of 1000 x 26 with sheetId 0.
 */
export function createSpreadsheet(sent: unknown): Spreadsheet {
  refuseUnknownFields(unknownFieldProblems(sent, CREATE_MESSAGES.Spreadsheet as ProtoMessage, 'spreadsheet', CREATE_MESSAGES));
  const body = withJsonNames(sent);
  const b = isRecord(body) ? body : {};
  const props = isRecord(b.properties) ? b.properties : {};
  if (props.title !== undefined && typeof props.title !== 'string') throw invalid("Invalid value at 'spreadsheet.properties.title'");
  const properties: Record<string, unknown> = {
    title: (props.title as string | undefined) ?? 'Untitled spreadsheet',
    locale: typeof props.locale === 'string' ? props.locale : 'en_US',
    autoRecalc: typeof props.autoRecalc === 'string' ? props.autoRecalc : 'ON_CHANGE',
    timeZone: typeof props.timeZone === 'string' ? props.timeZone : 'Etc/GMT',
    defaultFormat: DEFAULT_FORMAT,
    spreadsheetTheme: { primaryFontFamily: 'Arial' },
  };
  const requested = Array.isArray(b.sheets) && b.sheets.length > 0 ? b.sheets : [{}];
  const sheets: Sheet[] = [];
  const usedIds = new Set<number>();
  requested.forEach((raw, i) => {
    const s = isRecord(raw) ? raw : {};
    const p = isRecord(s.properties) ? s.properties : {};
    const title = p.title === undefined ? `Sheet${i + 1}` : p.title;
    if (typeof title !== 'string' || title.trim() === '') throw invalid(`Invalid sheets[${i}].properties.title`);
    if (sheetTitled(sheets, title)) {
      throw invalid(`Invalid requests[${i}].addSheet: A sheet with the name "${title}" already exists. Please enter another name.`);
    }
    let sheetId: number;
    if (p.sheetId !== undefined) {
      if (typeof p.sheetId !== 'number' || !Number.isInteger(p.sheetId) || p.sheetId < 0) throw invalid(`Invalid sheets[${i}].properties.sheetId`);
      sheetId = p.sheetId;
    } else {
      sheetId = i === 0 ? 0 : randomInt(1, 2 ** 31 - 1);
    }
    if (usedIds.has(sheetId)) throw invalid(`Invalid sheets[${i}]: duplicate sheetId ${sheetId}`);
    usedIds.add(sheetId);
    const grid = isRecord(p.gridProperties) ? p.gridProperties : {};
    const gridProperties: Sheet['properties']['gridProperties'] = {
      rowCount: positiveInt(grid.rowCount, `sheets[${i}].properties.gridProperties.rowCount`, 1000),
      columnCount: positiveInt(grid.columnCount, `sheets[${i}].properties.gridProperties.columnCount`, 26),
    };
    if (typeof grid.frozenRowCount === 'number' && grid.frozenRowCount > 0) gridProperties.frozenRowCount = grid.frozenRowCount;
    if (typeof grid.frozenColumnCount === 'number' && grid.frozenColumnCount > 0) gridProperties.frozenColumnCount = grid.frozenColumnCount;
    const sheet: Sheet = { properties: { sheetId, title, index: i, sheetType: 'GRID', gridProperties }, cells: new Map() };
    loadInitialData(sheet, s.data);
    sheets.push(sheet);
  });
  return new Spreadsheet(driveFileId(), properties, sheets);
}

/** `sheets[].data[]` on create: `userEnteredValue`s placed from `startRow`/`startColumn`. */
function loadInitialData(sheet: Sheet, data: unknown): void {
  if (!Array.isArray(data)) return;
  for (const grid of data) {
    if (!isRecord(grid) || !Array.isArray(grid.rowData)) continue;
    const r0 = typeof grid.startRow === 'number' ? grid.startRow : 0;
    const c0 = typeof grid.startColumn === 'number' ? grid.startColumn : 0;
    grid.rowData.forEach((row, r) => {
      if (!isRecord(row) || !Array.isArray(row.values)) return;
      row.values.forEach((cd, c) => {
        if (!isRecord(cd) || !isRecord(cd.userEnteredValue)) return;
        const v = cd.userEnteredValue;
        checkCellLength(v.formulaValue);
        checkCellLength(v.stringValue);
        let cell: Cell | null | undefined;
        if (typeof v.formulaValue === 'string') cell = { value: { formulaValue: v.formulaValue } };
        else cell = inputToCell(v.stringValue ?? v.numberValue ?? v.boolValue, 'RAW');
        if (cell) sheet.cells.set(cellKey(r0 + r, c0 + c), cell);
      });
    });
  }
}

/** `GridData` for a box: rows and cells trimmed after the last used one, metadata for every row and column. */
function gridData(book: Spreadsheet, box: GridBox): Record<string, unknown> {
  const { rows, cols } = book.usedExtent(box);
  const rowData: unknown[] = [];
  for (let r = 0; r < rows; r++) {
    const values: unknown[] = [];
    let last = -1;
    for (let c = 0; c < cols; c++) {
      const cell = box.sheet.cells.get(cellKey(box.startRow + r, box.startCol + c));
      if (!cell) {
        values.push({});
        continue;
      }
      last = c;
      const eff = book.effective(box.sheet, box.startRow + r, box.startCol + c);
      const cd: Record<string, unknown> = { userEnteredValue: cell.value };
      const ev = effectiveToExtended(eff);
      if (ev) cd.effectiveValue = ev;
      const fv = formattedOf(eff, cell);
      if (fv !== undefined) cd.formattedValue = fv;
      if (cell.numberFormat) cd.userEnteredFormat = { numberFormat: NUMBER_FORMATS[cell.numberFormat] };
      values.push(cd);
    }
    rowData.push(last >= 0 ? { values: values.slice(0, last + 1) } : {});
  }
  const out: Record<string, unknown> = {};
  if (box.startRow > 0) out.startRow = box.startRow;
  if (box.startCol > 0) out.startColumn = box.startCol;
  out.rowData = rowData;
  out.rowMetadata = Array.from({ length: box.endRow - box.startRow }, () => ({ pixelSize: 21 }));
  out.columnMetadata = Array.from({ length: box.endCol - box.startCol }, () => ({ pixelSize: 100 }));
  return out;
}

export function getSpreadsheet(book: Spreadsheet, query: URLSearchParams): ApiResponse {
  const includeGridData = boolParam(query, 'includeGridData');
  const ranges = query.getAll('ranges');
  const boxes = ranges.map((r) => book.readBox(r));
  const sheets = ranges.length === 0 ? book.sheets : book.sheets.filter((s) => boxes.some((b) => b.sheet === s));
  const resource = book.toResource(sheets);
  if (includeGridData) {
    resource.sheets = sheets.map((s) => {
      const mine: GridBox[] = ranges.length === 0
        ? [{ sheet: s, startRow: 0, endRow: s.properties.gridProperties.rowCount, startCol: 0, endCol: s.properties.gridProperties.columnCount }]
        : boxes.filter((b) => b.sheet === s);
      return { properties: structuredClone(s.properties), data: mine.map((b) => gridData(book, b)) };
    });
  }
  return { status: 200, body: resource };
}
