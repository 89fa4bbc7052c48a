import type { ApiRequest, ApiResponse } from '../../types.js';
import { isObject, validation } from './errors.js';
import { list, pageTitle, paginate, renderDatabase, renderDataSource, renderPage } from './render.js';
import { plainText } from './rich-text.js';
import { hasDataSources, type DatabaseRecord, type DataSourceRecord, type PageRecord, type Workspace } from './state.js';

/**
 * `POST /v1/search`: title-only matching over what is shared with the integration, optional object filter, sort by
 * `last_edited_time`, cursor pagination. Up to 2022-06-28 the objects are pages and databases (filter `page` or
 * `database`, list type `page_or_database`); from 2025-09-03 pages and data sources (`page` or `data_source`,
 * `page_or_data_source`).
 */
export function search(ws: Workspace, req: ApiRequest): ApiResponse {
  const version = req.headers['notion-version'];
  const modern = hasDataSources(version);
  const tableKind = modern ? 'data_source' : 'database';
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  if (body.query !== undefined && typeof body.query !== 'string') throw validation('body.query should be a string.');
  const q = (body.query ?? '').toLowerCase();
  let kind: string | null = null;
  if (body.filter !== undefined) {
    const f = body.filter;
    if (!isObject(f) || f.property !== 'object' || (f.value !== 'page' && f.value !== tableKind)) {
      throw validation(`body.filter.value should be \`"page"\` or \`"${tableKind}"\`, and body.filter.property should be \`"object"\`.`);
    }
    kind = f.value as string;
  }
  let sign = -1;
  if (body.sort !== undefined) {
    const s = body.sort;
    if (!isObject(s) || s.timestamp !== 'last_edited_time' || (s.direction !== 'ascending' && s.direction !== 'descending')) {
      throw validation('body.sort.timestamp should be `"last_edited_time"` and body.sort.direction `"ascending"` or `"descending"`.');
    }
    sign = s.direction === 'ascending' ? 1 : -1;
  }
  const items: (PageRecord | DatabaseRecord | DataSourceRecord)[] = [];
  if (kind !== tableKind) for (const p of ws.pages.values()) if (p.shared && !p.archived && pageTitle(ws, p).toLowerCase().includes(q)) items.push(p);
  if (kind !== 'page') {
    for (const d of ws.databases.values()) {
      if (!d.shared || d.archived) continue;
      if (!modern) {
        if (plainText(d.title).toLowerCase().includes(q)) items.push(d);
        continue;
      }
      for (const ds of ws.sourcesOf(d)) if (!ds.archived && plainText(ds.title).toLowerCase().includes(q)) items.push(ds);
    }
  }
  items.sort((a, b) => (a.last_edited_time === b.last_edited_time ? b.seq - a.seq : a.last_edited_time < b.last_edited_time ? -sign : sign));
  const page = paginate(items, (x) => x.id, body.start_cursor, body.page_size, 'body');
  return {
    status: 200,
    body: list(modern ? 'page_or_data_source' : 'page_or_database', {
      ...page,
      results: page.results.map((x) => (x.object === 'page' ? renderPage(ws, x, version) : x.object === 'database' ? renderDatabase(ws, x, version) : renderDataSource(ws, x))),
    }),
  };
}
