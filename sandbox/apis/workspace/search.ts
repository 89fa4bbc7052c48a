import type { ApiRequest, ApiResponse } from '../../types.js';
import { isObject, validation } from './errors.js';
import { list, pageTitle, paginate, renderDatabase, renderPage } from './render.js';
import { plainText } from './rich-text.js';
import type { DatabaseRecord, PageRecord, Workspace } from './state.js';

/**
 * `POST /v1/search`: title-only matching over what is shared with the integration, optional object filter
 * (`page`|`database`), sort by `last_edited_time`, cursor pagination.
 */
export function search(ws: Workspace, req: ApiRequest): ApiResponse {
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  if (body.query !== undefined && typeof body.query !== 'string') throw validation('body.query should be a string.');
  const q = (body.query ?? '').toLowerCase();
  let kind: 'page' | 'database' | null = null;
  if (body.filter !== undefined) {
    const f = body.filter;
    if (!isObject(f) || f.property !== 'object' || (f.value !== 'page' && f.value !== 'database')) {
      throw validation('body.filter.value should be `"page"` or `"database"`, and body.filter.property should be `"object"`.');
    }
    kind = f.value;
  }
  let sign = -1;
  if (body.sort !== undefined) {
    const s = body.sort;
    if (!isObject(s) || s.timestamp !== 'last_edited_time' || (s.direction !== 'ascending' && s.direction !== 'descending')) {
      throw validation('body.sort.timestamp should be `"last_edited_time"` and body.sort.direction `"ascending"` or `"descending"`.');
    }
    sign = s.direction === 'ascending' ? 1 : -1;
  }
  const items: (PageRecord | DatabaseRecord)[] = [];
  if (kind !== 'database') for (const p of ws.pages.values()) if (p.shared && !p.archived && pageTitle(ws, p).toLowerCase().includes(q)) items.push(p);
  if (kind !== 'page') for (const d of ws.databases.values()) if (d.shared && !d.archived && plainText(d.title).toLowerCase().includes(q)) items.push(d);
  items.sort((a, b) => (a.last_edited_time === b.last_edited_time ? b.seq - a.seq : a.last_edited_time < b.last_edited_time ? -sign : sign));
  const page = paginate(items, (x) => x.id, body.start_cursor, body.page_size, 'body');
  return {
    status: 200,
    body: list('page_or_database', { ...page, results: page.results.map((x) => (x.object === 'page' ? renderPage(ws, x) : renderDatabase(x))) }),
  };
}
