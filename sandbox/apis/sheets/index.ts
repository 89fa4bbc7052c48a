/**
 * The Google Sheets v4 fake. Requests arrive with paths like `/v4/spreadsheets/{id}/values/{range}` (what follows
 * `https://sheets.googleapis.com`); errors use the `{error:{code,message,status}}` shape.
 * @see https://developers.google.com/sheets/api/reference/rest
 */
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { findFile } from '../google-common/errors.js';
import { googleApiModule } from '../google-common/module.js';
import { notFoundRoute, pathSegments, requireScope } from '../google-common/request.js';
import type { Spreadsheet } from './spreadsheet-model.js';
import { batchUpdate } from './batch-update.js';
import { createSpreadsheet, getSpreadsheet } from './spreadsheets.js';
import { appendValues, batchClearValues, clearValues, getValues, updateValues } from './values.js';

const SERVICE = 'sheets.googleapis.com';
const READ = ['spreadsheets', 'spreadsheets.readonly', 'drive', 'drive.readonly', 'drive.file'];
const WRITE = ['spreadsheets', 'drive', 'drive.file'];
const APPEND = ':append';
const CLEAR = ':clear';
const BATCH_CLEAR = 'values:batchClear';
const BATCH_UPDATE = ':batchUpdate';

/** A user's spreadsheets: a user sees the ones they created; another user's is refused (403), not hidden. */
type UserSpreadsheets = Map<string, Spreadsheet>;

export function createSheetsApi(): ApiModule {
  return googleApiModule({ service: 'sheets', serviceName: SERVICE, errorShape: 'modern', seed: (): UserSpreadsheets => new Map(), route });
}

function route(req: ApiRequest, books: UserSpreadsheets, others: () => Iterable<UserSpreadsheets>): ApiResponse {
  const seg = pathSegments(req.path);
  const m = req.method.toUpperCase();
  const need = (scopes: string[]): void => requireScope(req.scopes, scopes, SERVICE);
  if (seg[0] !== 'v4' || seg[1] !== 'spreadsheets') throw notFoundRoute(req.method, req.path);
  if (seg.length === 2 && m === 'POST') {
    need(WRITE);
    const book = createSpreadsheet(req.body);
    books.set(book.spreadsheetId, book);
    return { status: 200, body: book.toResource() };
  }
  const find = (id: string): Spreadsheet => findFile(id, books, others());
  if (seg.length === 3 && m === 'POST' && (seg[2] as string).endsWith(BATCH_UPDATE)) {
    need(WRITE);
    return batchUpdate(find((seg[2] as string).slice(0, -BATCH_UPDATE.length)), req.body);
  }
  if (seg.length === 3 && m === 'GET') {
    need(READ);
    return getSpreadsheet(find(seg[2] as string), req.query);
  }
  if (seg.length === 4 && m === 'POST' && seg[3] === BATCH_CLEAR) {
    need(WRITE);
    return batchClearValues(find(seg[2] as string), req.body);
  }
  if (seg.length === 5 && seg[3] === 'values') {
    const range = seg[4] as string;
    // A custom method follows the range after a colon (`{range}:append`); the range's own colons come encoded or not.
    if (m === 'POST' && range.endsWith(APPEND)) {
      need(WRITE);
      return appendValues(find(seg[2] as string), range.slice(0, -APPEND.length), req.query, req.body);
    }
    if (m === 'POST' && range.endsWith(CLEAR)) {
      need(WRITE);
      return clearValues(find(seg[2] as string), range.slice(0, -CLEAR.length), req.body);
    }
    if (m === 'GET') {
      need(READ);
      return getValues(find(seg[2] as string), range, req.query);
    }
    if (m === 'PUT') {
      need(WRITE);
      return updateValues(find(seg[2] as string), range, req.query, req.body);
    }
  }
  throw notFoundRoute(req.method, req.path);
}
