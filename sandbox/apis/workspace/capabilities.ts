import type { NotionCapability } from '../../types.js';
import { NotionApiError } from './errors.js';

/**
 * The capability a Notion API call needs, or null (users, and paths the router refuses anyway). Reading pages,
 * blocks, databases and search need `read_content`; changing a page's properties or trash state needs
 * `update_content`; creating pages and databases and appending blocks need `insert_content`; comments need
 * `read_comments` / `insert_comments`.
 * @see https://developers.notion.com/reference/capabilities
 */
export function requiredCapability(method: string, segs: readonly string[]): NotionCapability | null {
  const [v1, resource, id, sub] = segs;
  if (v1 !== 'v1') return null;
  const read = method === 'GET';
  switch (resource) {
    case 'pages':
      if (!id) return method === 'POST' ? 'insert_content' : null;
      return read ? 'read_content' : method === 'PATCH' ? 'update_content' : null;
    case 'blocks':
      if (!id || sub !== 'children') return null;
      return read ? 'read_content' : method === 'PATCH' ? 'insert_content' : null;
    case 'databases':
      if (!id) return method === 'POST' ? 'insert_content' : null;
      return read || (sub === 'query' && method === 'POST') ? 'read_content' : null;
    case 'data_sources':
      if (!id) return method === 'POST' ? 'insert_content' : null;
      return read || (sub === 'query' && method === 'POST') ? 'read_content' : null;
    case 'comments':
      return read ? 'read_comments' : method === 'POST' ? 'insert_comments' : null;
    case 'search':
      return method === 'POST' ? 'read_content' : null;
    default:
      return null;
  }
}

/** Refuses a call whose integration lacks the capability: Notion's 403 `restricted_resource`. */
export function requireCapability(granted: readonly NotionCapability[] | undefined, needed: NotionCapability | null): void {
  if (granted === undefined || needed === null || granted.includes(needed)) return;
  throw new NotionApiError(403, 'restricted_resource', 'Insufficient permissions for this endpoint.');
}
