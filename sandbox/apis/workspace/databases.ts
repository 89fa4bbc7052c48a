import type { ApiRequest, ApiResponse } from '../../types.js';
import { fileOrEmoji } from './blocks.js';
import { isObject, normalizeId, notFound, validation } from './errors.js';
import { buildSchema } from './properties.js';
import { compileFilter, sortRows } from './query.js';
import { list, paginate, renderDatabase, renderPage } from './render.js';
import { richText } from './rich-text.js';
import type { Workspace } from './state.js';

/** `POST /v1/databases` (2022-06-28: parent page, title, properties with exactly one title property). */
export function createDatabase(ws: Workspace, req: ApiRequest): ApiResponse {
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const parent = body.parent;
  if (!isObject(parent) || parent.page_id === undefined) throw validation('body.parent.page_id should be defined, instead was `undefined`.');
  const pageId = normalizeId(parent.page_id, 'body.parent.page_id');
  if (!ws.visiblePage(pageId)) throw notFound(pageId, 'page');
  const properties = buildSchema(body.properties);
  const db = ws.addDatabase(
    {
      title: body.title === undefined ? [] : richText(body.title, 'body.title'),
      description: body.description === undefined ? [] : richText(body.description, 'body.description'),
      icon: body.icon === undefined ? null : fileOrEmoji(body.icon, 'icon'),
      cover: body.cover === undefined ? null : fileOrEmoji(body.cover, 'cover'),
      parent: { type: 'page_id', page_id: pageId },
      archived: false,
      is_inline: body.is_inline === true,
      properties,
      shared: true,
    },
    req.now,
  );
  return { status: 200, body: renderDatabase(db) };
}

/** `GET /v1/databases/{id}` */
export function getDatabase(ws: Workspace, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.database_id');
  const db = ws.visibleDatabase(id);
  if (!db) throw notFound(id, 'database');
  return { status: 200, body: renderDatabase(db) };
}

/**
 * `POST /v1/databases/{id}/query`: filter, sorts, cursor pagination in the body; `filter_properties` (repeated query
 * parameter) limits the properties of each returned page.
 */
export function queryDatabase(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.database_id');
  const db = ws.visibleDatabase(id);
  if (!db) throw notFound(id, 'database');
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  let rows = [...ws.pages.values()].filter((p) => p.shared && !p.archived && p.parent.type === 'database_id' && p.parent.database_id === id);
  if (body.filter !== undefined) {
    const pred = compileFilter(db.properties, body.filter);
    rows = rows.filter(pred);
  }
  rows = sortRows(db.properties, rows, body.sorts);
  const only = req.query.getAll('filter_properties');
  const page = paginate(rows, (p) => p.id, body.start_cursor, body.page_size, 'body');
  return { status: 200, body: list('page_or_database', { ...page, results: page.results.map((p) => renderPage(ws, p, only.length ? only : undefined)) }) };
}
