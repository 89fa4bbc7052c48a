/**
 * `spreadsheets.batchUpdate`, for `addSheet` requests only. The whole body is parsed first, as Google's JSON front end
 * does: a field name the messages do not have is refused before anything is applied (`Invalid JSON payload received.
 * Unknown name ...`), a request kind the API does not have among them. A kind the API has and the sandbox does not
 * model (updateCells, deleteSheet, ...) is refused naming it, marked unmodelled, never applied or faked. The batch is
 * all or nothing: the requests are applied to a copy of the sheet list, committed when every one succeeded.
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/batchUpdate
 * @see https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#AddSheetRequest
 */
import { randomInt } from 'node:crypto';
import type { ApiResponse } from '../../types.js';
import { GoogleApiError, valueText } from '../google-common/errors.js';
import { batchRequestKind, int32Value, jsonName, protoName, refuseUnknownFields, unknownFieldProblem, unknownFieldProblems, withJsonNames, type ProtoMessage } from '../google-common/proto-json.js';
import { isRecord } from '../google-common/request.js';
import { checkCellLimit, sheetTitled, Spreadsheet, type Sheet } from './spreadsheet-model.js';

/** A BatchUpdateSpreadsheetRequest's fields (Sheets v4 reference). */
const BATCH_FIELDS = ['requests', 'includeSpreadsheetInResponse', 'responseRanges', 'responseIncludeGridData'];

/** Every kind a Sheets v4 `Request` has (the official SDK's `sheets_v4.Schema$Request`). */
const KNOWN_KINDS: ReadonlySet<string> = new Set([
  'addBanding', 'addChart', 'addConditionalFormatRule', 'addDataSource', 'addDimensionGroup', 'addFilterView', 'addNamedRange', 'addProtectedRange',
  'addSheet', 'addSlicer', 'addTable', 'appendCells', 'appendDimension', 'autoFill', 'autoResizeDimensions', 'cancelDataSourceRefresh',
  'clearBasicFilter', 'copyPaste', 'createDeveloperMetadata', 'cutPaste', 'deleteBanding', 'deleteConditionalFormatRule', 'deleteDataSource',
  'deleteDeveloperMetadata', 'deleteDimension', 'deleteDimensionGroup', 'deleteDuplicates', 'deleteEmbeddedObject', 'deleteFilterView',
  'deleteNamedRange', 'deleteProtectedRange', 'deleteRange', 'deleteSheet', 'deleteTable', 'duplicateFilterView', 'duplicateSheet', 'findReplace',
  'insertDimension', 'insertRange', 'mergeCells', 'moveDimension', 'pasteData', 'randomizeRange', 'refreshDataSource', 'repeatCell',
  'setBasicFilter', 'setDataValidation', 'sortRange', 'textToColumns', 'trimWhitespace', 'unmergeCells', 'updateBanding', 'updateBorders',
  'updateCells', 'updateChartSpec', 'updateConditionalFormatRule', 'updateDataSource', 'updateDeveloperMetadata', 'updateDimensionGroup',
  'updateDimensionProperties', 'updateEmbeddedObjectBorder', 'updateEmbeddedObjectPosition', 'updateFilterView', 'updateNamedRange',
  'updateProtectedRange', 'updateSheetProperties', 'updateSlicerSpec', 'updateSpreadsheetProperties', 'updateTable',
]);

/** The messages an addSheet request holds, by their JSON names (AddSheetRequest, SheetProperties, GridProperties). */
const MESSAGES: Readonly<Record<string, ProtoMessage>> = {
  AddSheetRequest: { properties: 'SheetProperties' },
  SheetProperties: {
    sheetId: null, title: null, index: null, sheetType: null, gridProperties: 'GridProperties', hidden: null, tabColor: null, tabColorStyle: null,
    rightToLeft: null, dataSourceSheetProperties: null,
  },
  GridProperties: {
    rowCount: null, columnCount: null, frozenRowCount: null, frozenColumnCount: null, hideGridlines: null, rowGroupControlAfter: null,
    columnGroupControlAfter: null,
  },
};

/** The fields the sandbox stores for a new sheet; any other field Google has is refused as not modelled. */
const MODELLED_PROPERTIES = new Set(['sheetId', 'title', 'index', 'sheetType', 'gridProperties']);
const MODELLED_GRID = new Set(['rowCount', 'columnCount', 'frozenRowCount', 'frozenColumnCount']);

/** Longest sheet title Sheets takes. */
const MAX_TITLE = 100;

const bad = (message: string): GoogleApiError => new GoogleApiError(400, message);
const unmodelled = (message: string): GoogleApiError => Object.assign(bad(message), { unmodelled: true });

/** Checks every name in the body (top-level fields, request kinds, addSheet's fields) before anything is applied. */
function checkFields(body: Record<string, unknown>): void {
  const problems = Object.keys(body).filter((key) => !BATCH_FIELDS.includes(jsonName(key))).map((key) => unknownFieldProblem(key, ''));
  const requests = withJsonNames(body, 1) as Record<string, unknown>;
  if (Array.isArray(requests.requests)) {
    requests.requests.forEach((request, i) => {
      if (!isRecord(request)) return;
      for (const [key, args] of Object.entries(request)) {
        const kind = jsonName(key);
        if (!KNOWN_KINDS.has(kind)) problems.push(unknownFieldProblem(key, `requests[${i}]`));
        else if (kind === 'addSheet') problems.push(...unknownFieldProblems(args, MESSAGES.AddSheetRequest as ProtoMessage, `requests[${i}].add_sheet`, MESSAGES));
      }
    });
  }
  refuseUnknownFields(problems);
}

/**
 * A whole number at least `min` (a JSON number or a string of digits, {@link int32Value}), or absent; else the parser's
 * refusal at `at`, the value as JSON (a string quoted: `(TYPE_INT32), "many"`).
 */
function intField(raw: unknown, at: string, min: number): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const v = int32Value(raw);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`Invalid value at '${at}' (TYPE_INT32), ${JSON.stringify(raw)}`);
  if (v < min) throw bad(`Invalid ${at}: must be ${min === 0 ? 'zero or more' : 'a positive integer'}.`);
  return v;
}

/** Applies one addSheet to `sheets` (a draft), returning its reply. */
function addSheet(sheets: Sheet[], args: Record<string, unknown>, i: number): Record<string, unknown> {
  const where = `requests[${i}].addSheet`;
  const at = `requests[${i}].add_sheet.properties`;
  const p = isRecord(args.properties) ? args.properties : {};
  for (const name of Object.keys(p)) if (!MODELLED_PROPERTIES.has(name)) throw unmodelled(`Invalid ${where}: The sandbox does not model properties.${name} of a new sheet.`);
  const grid = isRecord(p.gridProperties) ? p.gridProperties : {};
  for (const name of Object.keys(grid)) if (!MODELLED_GRID.has(name)) throw unmodelled(`Invalid ${where}: The sandbox does not model properties.gridProperties.${name} of a new sheet.`);
  if (p.sheetType !== undefined && p.sheetType !== 'GRID') throw unmodelled(`Invalid ${where}: The sandbox models GRID sheets only, not ${valueText(p.sheetType)}.`);
  if (p.title !== undefined && typeof p.title !== 'string') throw bad(`Invalid value at '${at}.title' (TYPE_STRING), ${valueText(p.title)}`);
  // proto3 reads "" as an unset title: Google names the sheet.
  let title = p.title as string | undefined;
  if (title === undefined || title === '') {
    let n = sheets.length + 1;
    while (sheetTitled(sheets, `Sheet${n}`)) n++;
    title = `Sheet${n}`;
  }
  if ([...title].length > MAX_TITLE) throw bad(`Invalid ${where}: The sheet name cannot be greater than ${MAX_TITLE} characters.`);
  // Titles differing only in case are the same name, as sheetByTitle reads them.
  if (sheetTitled(sheets, title)) {
    throw bad(`Invalid ${where}: A sheet with the name "${title}" already exists. Please enter another name.`);
  }
  const sheetId = intField(p.sheetId, `${at}.sheet_id`, 0);
  if (sheetId !== undefined && sheets.some((s) => s.properties.sheetId === sheetId)) throw bad(`Invalid ${where}: A sheet with the id ${sheetId} already exists.`);
  const index = intField(p.index, `${at}.index`, 0);
  const gridProperties: Sheet['properties']['gridProperties'] = {
    rowCount: intField(grid.rowCount, `${at}.grid_properties.row_count`, 1) ?? 1000,
    columnCount: intField(grid.columnCount, `${at}.grid_properties.column_count`, 1) ?? 26,
  };
  const frozenRows = intField(grid.frozenRowCount, `${at}.grid_properties.frozen_row_count`, 0);
  const frozenColumns = intField(grid.frozenColumnCount, `${at}.grid_properties.frozen_column_count`, 0);
  if (frozenRows) gridProperties.frozenRowCount = frozenRows;
  if (frozenColumns) gridProperties.frozenColumnCount = frozenColumns;
  checkCellLimit(sheets, undefined, gridProperties.rowCount, gridProperties.columnCount, where);
  let id = sheetId;
  while (id === undefined || sheets.some((s) => s.properties.sheetId === id)) id = randomInt(1, 2 ** 31 - 1);
  // Without an index, or past the last tab, the sheet goes last (a larger index is not known to be refused).
  const position = Math.min(index ?? sheets.length, sheets.length);
  const sheet: Sheet = { properties: { sheetId: id, title, index: position, sheetType: 'GRID', gridProperties }, cells: new Map() };
  sheets.splice(position, 0, sheet);
  sheets.forEach((s, n) => (s.properties.index = n));
  return { addSheet: { properties: structuredClone(sheet.properties) } };
}

export function batchUpdate(book: Spreadsheet, sent: unknown): ApiResponse {
  const raw = isRecord(sent) ? sent : {};
  checkFields(raw);
  const body = withJsonNames(raw, 1) as Record<string, unknown>;
  if (!Array.isArray(body.requests) || body.requests.length === 0) throw bad('Must specify at least one request.');
  if (body.responseRanges !== undefined || body.responseIncludeGridData !== undefined) {
    throw unmodelled('Invalid request: The sandbox does not model responseRanges or responseIncludeGridData.');
  }
  // A draft: each sheet's properties copied (indexes move), its cells shared (an addSheet writes none).
  const draft: Sheet[] = book.sheets.map((s) => ({ properties: structuredClone(s.properties), cells: s.cells }));
  const replies = body.requests.map((request, i) => {
    const { kind, sent: key } = batchRequestKind(request, i, 'google.apps.sheets.v4.Request');
    const args = withJsonNames((request as Record<string, unknown>)[key]);
    if (kind !== 'addSheet') throw unmodelled(`Invalid requests[${i}].${kind}: The sandbox does not model ${kind} requests.`);
    if (!isRecord(args)) throw bad(`Invalid value at 'requests[${i}].${protoName(kind)}' (type.googleapis.com/google.apps.sheets.v4.AddSheetRequest), ${valueText(args)}`);
    return addSheet(draft, args, i);
  });
  book.sheets.splice(0, book.sheets.length, ...draft);
  const out: Record<string, unknown> = { spreadsheetId: book.spreadsheetId, replies };
  if (body.includeSpreadsheetInResponse === true) out.updatedSpreadsheet = book.toResource();
  return { status: 200, body: out };
}
