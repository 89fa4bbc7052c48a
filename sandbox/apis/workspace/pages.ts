import type { ApiRequest, ApiResponse } from '../../types.js';
import { buildBlocks, fileOrEmoji, IN_PAGE, renderBlock, withinBlock, type BlockRecord } from './blocks.js';
import { checkBoolean, isObject, normalizeId, notFound, validation } from './errors.js';
import { findProperty, PAGE_SCHEMA, writeValue, type Schema } from './properties.js';
import { legacySource, paginate, list, renderPage } from './render.js';
import { hasDataSources, notionTime, type PageRecord, type Parent, type Workspace } from './state.js';

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
  // Checked before the page exists; its id is the blocks' parent once it does.
  const children = body.children === undefined ? [] : buildBlocks(body.children, 'body.children', req.now, ws.bot, { type: 'page_id', page_id: '' });
  const page = ws.addPage(
    {
      icon: body.icon === undefined ? null : fileOrEmoji(body.icon, 'icon'),
      cover: body.cover === undefined ? null : fileOrEmoji(body.cover, 'cover'),
      parent,
      archived: false,
      values,
      children,
      shared: true,
    },
    req.now,
  );
  for (const block of children) block.parent = { type: 'page_id', page_id: page.id };
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version'], filterProperties(req)) };
}

/** `GET /v1/pages/{id}`: a page in the trash too, saying so (`in_trash: true`). */
export function getPage(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.page_id');
  const page = ws.sharedPage(id);
  if (!page) throw notFound(id, 'page');
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version'], filterProperties(req)) };
}

/** Notion's refusal of an edit to a page (a block) in the trash, as its live API words it. */
const IN_TRASH = "Can't edit block that is archived. You must unarchive the block before editing.";

/** `in_trash`, or its older name `archived` (an alias in every version up to 2026-03-11): true, false or absent. */
function trashFlag(body: Record<string, unknown>): boolean | undefined {
  for (const key of ['in_trash', 'archived'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    checkBoolean(value, `body.${key}`);
    return value;
  }
  return undefined;
}

/**
 * `PATCH /v1/pages/{id}`: properties (keyed by name or id, checked against the parent's schema; a page outside a
 * database has its title only), icon, cover, and `in_trash` (or `archived`). A page in the trash takes only an update
 * that restores it (`in_trash: false`); any other is refused in Notion's words, and changes nothing.
 * @see https://developers.notion.com/reference/patch-page
 */
export function updatePage(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.page_id');
  const page = ws.sharedPage(id);
  if (!page) throw notFound(id, 'page');
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const trash = trashFlag(body);
  if (page.archived && trash !== false) throw validation(IN_TRASH);
  const values = { ...page.values };
  writeProperties(ws.schemaOf(page), body.properties, values);
  const icon = body.icon === undefined ? page.icon : fileOrEmoji(body.icon, 'icon');
  const cover = body.cover === undefined ? page.cover : fileOrEmoji(body.cover, 'cover');
  page.values = values;
  page.icon = icon;
  page.cover = cover;
  if (trash !== undefined) page.archived = trash;
  page.last_edited_time = notionTime(req.now);
  return { status: 200, body: renderPage(ws, page, req.headers['notion-version']) };
}

/** A block within `blocks` or below them, at any depth. */
function findBlock(blocks: BlockRecord[], id: string): BlockRecord | undefined {
  for (const block of blocks) {
    if (block.id === id) return block;
    const below = Array.isArray(block.children) ? findBlock(block.children, id) : undefined;
    if (below) return below;
  }
  return undefined;
}

/**
 * What a block id names for `/v1/blocks/{id}/children`: a page the integration sees (a page is a block), or a block
 * of one's content at any depth. Anything else (unknown, unshared, in the trash) is Notion's 404.
 */
function container(ws: Workspace, id: string): { holder: PageRecord | BlockRecord; children: BlockRecord[] } {
  const page = ws.visiblePage(id);
  if (page) return { holder: page, children: page.children };
  for (const p of ws.pages.values()) {
    if (!ws.visiblePage(p.id)) continue;
    const block = findBlock(p.children, id);
    if (block && !block.archived) {
      if (!Array.isArray(block.children)) block.children = [];
      return { holder: block, children: block.children };
    }
  }
  throw notFound(id, 'block');
}

/**
 * `GET /v1/blocks/{id}/children`: the first level of a page's or block's content, paginated; and `PATCH` (append):
 * new blocks at the end, or right after `after` (a block of this parent; up to Notion-Version 2025-09-03, replaced by
 * `position` in 2026-03-11, which is not modelled), answering the new first-level blocks only.
 * @see https://developers.notion.com/reference/get-block-children
 * @see https://developers.notion.com/reference/patch-block-children
 */
export function blockChildren(ws: Workspace, req: ApiRequest, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.block_id');
  const { holder, children } = container(ws, id);
  if (req.method === 'PATCH') {
    const body = req.body;
    if (!isObject(body)) throw validation('body failed validation: body should be an object.');
    const parent = holder.object === 'page' ? { type: 'page_id' as const, page_id: id } : { type: 'block_id' as const, block_id: id };
    // A block that holds no children (a divider, a heading that is not a toggle heading, ...) is refused before its
    // new children are looked at; what the others take (a table its rows, a column_list its columns) is checked with
    // them. Nothing is added unless every block is taken.
    const within = holder.object === 'page' ? IN_PAGE : withinBlock(holder as BlockRecord);
    const added = buildBlocks(body.children, 'body.children', req.now, ws.bot, parent, within);
    let at = children.length;
    if (body.after !== undefined) {
      const after = normalizeId(body.after, 'body.after');
      const i = children.findIndex((b) => b.id === after);
      if (i < 0) throw validation(`Block ID (${after}) to append children after is not parented by ${id}.`);
      at = i + 1;
    }
    children.splice(at, 0, ...added);
    holder.last_edited_time = notionTime(req.now);
    return { status: 200, body: list('block', { results: added.map(renderBlock), next_cursor: null, has_more: false }) };
  }
  const p = paginate(children, (b) => b.id, req.query.get('start_cursor') ?? undefined, req.query.get('page_size') ?? undefined, 'query');
  return { status: 200, body: list('block', { ...p, results: p.results.map(renderBlock) }) };
}
