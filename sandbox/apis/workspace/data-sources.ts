/**
 * Data sources (Notion-Version 2025-09-03 and later): a database's tables, each with its own schema and rows.
 * Under an older version these paths are refused as invalid request URLs (their answer then is not documented).
 * @see https://developers.notion.com/reference/retrieve-a-data-source
 * @see https://developers.notion.com/reference/query-a-data-source
 * @see https://developers.notion.com/reference/create-a-data-source
 */
import type { ApiRequest, ApiResponse } from '../../types.js';
import { queryRows } from './databases.js';
import { isObject, NotionApiError, normalizeId, notFound, validation } from './errors.js';
import { buildSchema } from './properties.js';
import { renderDataSource } from './render.js';
import { richText } from './rich-text.js';
import { hasDataSources, type DataSourceRecord, type Workspace } from './state.js';

function requireVersion(req: ApiRequest): void {
  if (!hasDataSources(req.headers['notion-version'])) {
    throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL: data sources need Notion-Version 2025-09-03 or later.');
  }
}

function visible(ws: Workspace, rawId: string): DataSourceRecord {
  const id = normalizeId(rawId, 'path.data_source_id');
  const ds = ws.visibleDataSource(id);
  if (!ds) throw notFound(id, 'data source');
  return ds;
}

/** `GET /v1/data_sources/{id}` */
export function getDataSource(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  requireVersion(req);
  return { status: 200, body: renderDataSource(ws, visible(ws, rawId)) };
}

/** `POST /v1/data_sources/{id}/query` */
export function queryDataSource(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  requireVersion(req);
  return queryRows(ws, req, visible(ws, rawId), 'page_or_data_source');
}

/** `POST /v1/data_sources`: a further data source in a database, `{parent: {database_id}, title?, properties}`. */
export function createDataSource(ws: Workspace, req: ApiRequest): ApiResponse {
  requireVersion(req);
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  if (!isObject(body.parent) || body.parent.database_id === undefined) throw validation('body.parent.database_id should be defined, instead was `undefined`.');
  const dbId = normalizeId(body.parent.database_id, 'body.parent.database_id');
  const db = ws.visibleDatabase(dbId);
  if (!db) throw notFound(dbId, 'database');
  const ds = ws.addDataSource(db, body.title === undefined ? [] : richText(body.title, 'body.title'), buildSchema(body.properties), req.now);
  return { status: 200, body: renderDataSource(ws, ds) };
}
