import { randomUUID } from 'node:crypto';
import { findPropertyByWireId, renderValue } from './properties.js';
import { plainText, type RichText } from './rich-text.js';
import { validation } from './errors.js';
import { hasDataSources, type CommentRecord, type DatabaseRecord, type DataSourceRecord, type PageRecord, type Workspace } from './state.js';

function notionUrl(title: string, id: string): string {
  const slug = title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `https://www.notion.so/${slug ? `${slug}-` : ''}${id.replace(/-/g, '')}`;
}

export function pageTitle(ws: Workspace, page: PageRecord): string {
  return plainText((page.values.title as RichText[] | undefined) ?? []);
}

/**
 * A page object in `version`'s shape (a row's parent names its database up to 2022-06-28, its data source and
 * database from 2025-09-03; `in_trash` beside `archived`, the same flag, in every version). `only` (decoded property
 * ids) limits the returned properties, as `filter_properties` does.
 */
export function renderPage(ws: Workspace, page: PageRecord, version: string | undefined, only?: string[]): Record<string, unknown> {
  const schema = ws.schemaOf(page);
  let props = Object.values(schema);
  if (only && only.length) {
    const wanted = new Set(
      only.map((key) => {
        const p = findPropertyByWireId(schema, key);
        if (!p) throw validation(`filter_properties: property \`${key}\` does not exist.`);
        return p.id;
      }),
    );
    props = props.filter((p) => wanted.has(p.id));
  }
  const p = page.parent;
  const parent =
    p.type === 'page_id'
      ? { type: 'page_id', page_id: p.page_id }
      : p.type === 'data_source_id'
        ? hasDataSources(version)
          ? { type: 'data_source_id', data_source_id: p.data_source_id, database_id: p.database_id }
          : { type: 'database_id', database_id: p.database_id }
        : { type: 'workspace', workspace: true };
  return {
    object: 'page',
    id: page.id,
    created_time: page.created_time,
    last_edited_time: page.last_edited_time,
    created_by: page.created_by,
    last_edited_by: page.last_edited_by,
    cover: page.cover,
    icon: page.icon,
    parent,
    archived: page.archived,
    in_trash: page.archived,
    properties: Object.fromEntries(props.map((p) => [p.name, renderValue(p, page.values[p.id], page)])),
    url: notionUrl(pageTitle(ws, page), page.id),
    public_url: null,
  };
}

/**
 * Up to 2022-06-28 a database's schema is its own `properties`, which only a database with one data source can
 * answer (Notion: integrations on the old version fail on databases with several); from 2025-09-03 the database
 * lists its `data_sources` and has no `properties`.
 */
export function renderDatabase(ws: Workspace, db: DatabaseRecord, version: string | undefined): Record<string, unknown> {
  const sources = ws.sourcesOf(db);
  const shape = hasDataSources(version)
    ? { data_sources: sources.map((d) => ({ id: d.id, name: plainText(d.title) })) }
    : { properties: legacySource(ws, db).properties };
  return {
    object: 'database',
    id: db.id,
    cover: db.cover,
    icon: db.icon,
    created_time: db.created_time,
    created_by: db.created_by,
    last_edited_by: db.last_edited_by,
    last_edited_time: db.last_edited_time,
    title: db.title,
    description: db.description,
    is_inline: db.is_inline,
    ...shape,
    parent: db.parent,
    url: notionUrl(plainText(db.title), db.id),
    public_url: null,
    archived: db.archived,
    in_trash: db.archived,
  };
}

/**
 * The one data source a 2022-06-28 call may treat as "the database". The wording of Notion's refusal is not
 * documented; the status and code are those of its other validation errors.
 */
export function legacySource(ws: Workspace, db: DatabaseRecord): DataSourceRecord {
  const sources = ws.sourcesOf(db);
  if (sources.length !== 1) {
    throw validation(`Database ${db.id} has ${sources.length} data sources, which this API version cannot address; use Notion-Version 2025-09-03 or later and its data source endpoints.`);
  }
  return sources[0]!;
}

/** A data source object (2025-09-03): its schema, its database as parent, and the database's own parent. */
export function renderDataSource(ws: Workspace, ds: DataSourceRecord): Record<string, unknown> {
  const db = ws.databases.get(ds.database_id)!;
  return {
    object: 'data_source',
    id: ds.id,
    created_time: ds.created_time,
    last_edited_time: ds.last_edited_time,
    created_by: ds.created_by,
    last_edited_by: ds.last_edited_by,
    title: ds.title,
    description: ds.description,
    icon: db.icon,
    cover: db.cover,
    properties: ds.properties,
    parent: { type: 'database_id', database_id: db.id },
    database_parent: db.parent,
    is_inline: db.is_inline,
    archived: ds.archived,
    in_trash: ds.archived,
    url: notionUrl(plainText(ds.title), ds.id),
    public_url: null,
  };
}

export function renderComment(c: CommentRecord): Record<string, unknown> {
  return { ...c };
}

/** Notion's list envelope. */
export function list(type: string, page: { results: unknown[]; next_cursor: string | null; has_more: boolean }): Record<string, unknown> {
  return { object: 'list', results: page.results, next_cursor: page.next_cursor, has_more: page.has_more, type, [type]: {}, request_id: randomUUID() };
}

/**
 * Cursor pagination: a cursor is the id of the first item of the next page, as Notion's are, and clients must treat
 * it as opaque. `page_size` defaults to 100 and may not exceed 100.
 */
export function paginate<T>(items: T[], idOf: (t: T) => string, startCursor: unknown, pageSize: unknown, where: 'body' | 'query'): { results: T[]; next_cursor: string | null; has_more: boolean } {
  let size = 100;
  if (pageSize !== undefined && pageSize !== null) {
    const n = typeof pageSize === 'string' && where === 'query' ? Number(pageSize) : pageSize;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw validation(`${where}.page_size should be a number, instead was \`${JSON.stringify(pageSize)}\`.`);
    if (n < 1) throw validation(`${where}.page_size should be ≥ \`1\`, instead was \`${n}\`.`);
    if (n > 100) throw validation(`${where}.page_size should be ≤ \`100\`, instead was \`${n}\`.`);
    size = n;
  }
  let start = 0;
  if (startCursor !== undefined && startCursor !== null) {
    if (typeof startCursor !== 'string') throw validation(`${where}.start_cursor should be a string.`);
    start = items.findIndex((t) => idOf(t) === startCursor);
    if (start < 0) throw validation(`${where}.start_cursor should be a valid cursor, instead was \`"${startCursor}"\`.`);
  }
  const results = items.slice(start, start + size);
  const next = items[start + size];
  return { results, next_cursor: next ? idOf(next) : null, has_more: next !== undefined };
}
