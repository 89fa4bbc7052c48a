import type { ApiRequest, ApiResponse } from '../../types.js';
import { buildBlocks, fileOrEmoji } from './blocks.js';
import { isObject, normalizeId, notFound, validation } from './errors.js';
import { findProperty, PAGE_SCHEMA, writeValue, type Schema } from './properties.js';
import { legacySource, paginate, list, renderPage } from './render.js';
import { hasDataSources, notionTime, type Parent, type Workspace } from './state.js';

function filterProperties(req: ApiRequest): string[] | undefined {
  const all = req.query.getAll('filter_properties');
  return all.length ? all : undefined;
}

/** Writes property values keyed by name or id (the title's id is `title`). */
export function writeProperties(schema: Schema, input: unknown, values: Record<string, unknown>): void {
  if (input === undefined) return;
  if (!isObject(input)) throw validation('body.properties should be an object.');
  for (const [key, value] of Object.entries(input)) {
    const prop = findProperty(schema, key);
    if (!prop) throw validation(`${key} is not a property that exists.`);
    values[prop.id] = writeValue(prop, value, `body.properties.${key}`);
  }
}

/**
 * A new page's parent: a page, the workspace, a database (its one data source; a database with several cannot be
 * addressed that way) or, from 2025-09-03, a data source.
 */
function resolveParent(ws: Workspace, input: unknown, version: string | undefined): { parent: Parent; schema: Schema } {
  if (!isObject(input)) throw validation('body.parent should be an object, instead was `undefined`.');
  if (input.data_source_id !== undefined) {
    if (!hasDataSources(version)) throw validation('body.parent.data_source_id is not supported in this API version; use Notion-Version 2025-09-03 or later.');
    const id = normalizeId(input.data_source_id, 'body.parent.data_source_id');
    const ds = ws.visibleDataSource(id);
    if (!ds) throw notFound(id, 'data source');
    return { parent: { type: 'data_source_id', data_source_id: ds.id, database_id: ds.database_id }, schema: ds.properties };
  }
  if (input.database_id !== undefined) {
    const id = normalizeId(input.database_id, 'body.parent.database_id');
    const db = ws.visibleDatabase(id);
    if (!db) throw notFound(id, 'database');
    const ds = legacySource(ws, db);
    return { parent: { type: 'data_source_id', data_source_id: ds.id, database_id: id }, schema: ds.properties };
  }
  if (input.page_id !== undefined) {
    const id = normalizeId(input.page_id, 'body.parent.page_id');
    if (!ws.visiblePage(id)) throw notFound(id, 'page');
    return { parent: { type: 'page_id', page_id: id }, schema: PAGE_SCHEMA };
  }
  if (input.workspace === true) return { parent: { type: 'workspace', workspace: true }, schema: PAGE_SCHEMA };
  throw validation('body.parent should have page_id, database_id or workspace.');
}

/** `POST /v1/pages` */
export function createPage(ws: Workspace, req: ApiRequest): ApiResponse {
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const version = req.headers['notion-version'];
  const { parent, schema } = resolveParent(ws, body.parent, version);
  if (parent.type === 'data_source_id' && body.properties === undefined) throw validation('body.properties should be defined, instead was `undefined`.');
  const values: Record<string, unknown> = {};
  writeProperties(schema, body.properties, values);
  const page = ws.addPage(
    {
      icon: body.icon === undefined ? null : fileOrEmoji(body.icon, 'icon'),
      cover: body.cover === undefined ? null : fileOrEmoji(body.cover, 'cover'),
      parent,
      archived: false,
      values,
      children: body.children === undefined ? [] : buildBlocks(body.children, 'body.children', req.now, ws.bot),
      shared: true,
    },
    req.now,
  );
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version'], filterProperties(req)) };
}

/** `GET /v1/pages/{id}` */
export function getPage(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.page_id');
  const page = ws.visiblePage(id);
  if (!page) throw notFound(id, 'page');
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version'], filterProperties(req)) };
}

/** `PATCH /v1/pages/{id}`: properties, icon, cover, archived. */
export function updatePage(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.page_id');
  const page = ws.visiblePage(id);
  if (!page) throw notFound(id, 'page');
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const values = { ...page.values };
  writeProperties(ws.schemaOf(page), body.properties, values);
  const icon = body.icon === undefined ? page.icon : fileOrEmoji(body.icon, 'icon');
  const cover = body.cover === undefined ? page.cover : fileOrEmoji(body.cover, 'cover');
  page.values = values;
  page.icon = icon;
  page.cover = cover;
  if (typeof body.archived === 'boolean') page.archived = body.archived;
  page.last_edited_time = notionTime(req.now);
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version']) };
}

/** `GET /v1/blocks/{id}/children` and `PATCH` (append). */
export function blockChildren(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.block_id');
  const page = ws.visiblePage(id);
  if (!page) throw notFound(id, 'block');
  if (req.method === 'PATCH') {
    const body = req.body;
    if (!isObject(body)) throw validation('body failed validation: body should be an object.');
    const added = buildBlocks(body.children, 'body.children', req.now, ws.bot);
    page.children.push(...added);
    page.last_edited_time = notionTime(req.now);
    return { status: 200, body: list('block', { results: added, next_cursor: null, has_more: false }) };
  }
  const p = paginate(page.children, (b) => (b as { id: string }).id, req.query.get('start_cursor') ?? undefined, req.query.get('page_size') ?? undefined, 'query');
  return { status: 200, body: list('block', p) };
}
