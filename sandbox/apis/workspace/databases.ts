import type { ApiRequest, ApiResponse } from '../../types.js';
import { fileOrEmoji } from './blocks.js';
import { isObject, NotionApiError, normalizeId, notFound, validation } from './errors.js';
import { buildSchema } from './properties.js';
import { compileFilter, sortRows } from './query.js';
import { legacySource, list, paginate, renderDatabase, renderPage } from './render.js';
import { richText } from './rich-text.js';
import { hasDataSources, type DataSourceRecord, type Workspace } from './state.js';

/**
 * `POST /v1/databases`: parent page, title, and the schema with exactly one title property: top-level `properties`
 * up to 2022-06-28, `initial_data_source: {properties}` from 2025-09-03 (the database starts with that one data
 * source). The answer is the database in the call's version.
 */
export function createDatabase(ws: Workspace, req: ApiRequest): ApiResponse {
  const body = req.body;
  const version = req.headers['notion-version'];
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const parent = body.parent;
  if (!isObject(parent) || parent.page_id === undefined) throw validation('body.parent.page_id should be defined, instead was `undefined`.');
  const pageId = normalizeId(parent.page_id, 'body.parent.page_id');
  if (!ws.visiblePage(pageId)) throw notFound(pageId, 'page');
  let schemaInput: unknown;
  if (hasDataSources(version)) {
    if (body.properties !== undefined) throw validation('body.properties should be not present, instead was an object. From 2025-09-03 the schema goes in body.initial_data_source.properties.');
    const initial = body.initial_data_source;
    if (!isObject(initial)) throw validation('body.initial_data_source should be defined, instead was `undefined`.');
    schemaInput = initial.properties;
  } else {
    schemaInput = body.properties;
  }
  const properties = buildSchema(schemaInput);
  const db = ws.addDatabase(
    {
      title: body.title === undefined ? [] : richText(body.title, 'body.title'),
      description: body.description === undefined ? [] : richText(body.description, 'body.description'),
      icon: body.icon === undefined ? null : fileOrEmoji(body.icon, 'icon'),
      cover: body.cover === undefined ? null : fileOrEmoji(body.cover, 'cover'),
      parent: { type: 'page_id', page_id: pageId },
      archived: false,
      is_inline: body.is_inline === true,
      shared: true,
    },
    properties,
    req.now,
  );
  return { status: 200, body: renderDatabase(ws, db, version) };
}

/** `GET /v1/databases/{id}` */
export function getDatabase(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.database_id');
  const db = ws.visibleDatabase(id);
  if (!db) throw notFound(id, 'database');
  return { status: 200, body: renderDatabase(ws, db, req.headers['notion-version']) };
}

/**
 * `POST /v1/databases/{id}/query` (up to 2022-06-28; from 2025-09-03 queries go to the data source, and what Notion
 * answers this path with then is not documented: the sandbox refuses it as an invalid request URL).
 */
export function queryDatabase(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  if (hasDataSources(req.headers['notion-version'])) {
    throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL: from Notion-Version 2025-09-03 query a data source (POST /v1/data_sources/{data_source_id}/query).');
  }
  const id = normalizeId(rawId, 'path.database_id');
  const db = ws.visibleDatabase(id);
  if (!db) throw notFound(id, 'database');
  return queryRows(ws, req, legacySource(ws, db), 'page_or_database');
}

/**
 * A query over one data source's rows: filter, sorts, cursor pagination in the body; `filter_properties` (repeated
 * query parameter, decoded ids) limits the properties of each returned page.
 */
export function queryRows(ws: Workspace, req: ApiRequest, source: DataSourceRecord, listType: string): ApiResponse {
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  let rows = [...ws.pages.values()].filter((p) => p.shared && !p.archived && p.parent.type === 'data_source_id' && p.parent.data_source_id === source.id);
  if (body.filter !== undefined) {
    const pred = compileFilter(source.properties, body.filter, req.now);
    rows = rows.filter(pred);
  }
  rows = sortRows(source.properties, rows, body.sorts);
  const only = req.query.getAll('filter_properties');
  const page = paginate(rows, (p) => p.id, body.start_cursor, body.page_size, 'body');
  const version = req.headers['notion-version'];
  return { status: 200, body: list(listType, { ...page, results: page.results.map((p) => renderPage(ws, p, version, only.length ? only : undefined)) }) };
}
