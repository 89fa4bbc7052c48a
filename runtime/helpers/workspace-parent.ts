import { workspaceId } from './workspace-id.js';

/**
 * A caller's `{ page_id }` parent with the page id normalized to the hyphenated UUID (the comment and database
 * parents). Absent when `parent` is absent.
 * @see https://developers.notion.com/reference/parent-object
 */
export function pageParent(parent?: { page_id: string }): { page_id: string } | undefined {
  if (parent === undefined) return undefined;
  return { page_id: workspaceId(parent.page_id) };
}

/**
 * The host-computed `_parent` of a new page: `{ database_id }` for a database row, `{ page_id }` for a child page.
 * The validator has already ensured exactly one of the two ids is present; callers never supply `_parent`.
 * @see https://developers.notion.com/reference/post-page
 */
export function hostParent(databaseId?: string | null, parentPageId?: string | null): { database_id: string } | { page_id: string } | undefined {
  if (databaseId != null) return { database_id: workspaceId(databaseId) };
  if (parentPageId != null) return { page_id: workspaceId(parentPageId) };
  return undefined;
}

/**
 * The host-computed `_parent` of a new page from Notion-Version 2025-09-03: `{ data_source_id }` for a database row
 * (rows belong to data sources; the id is the caller's or the one the column pre-check resolved from the database),
 * `{ page_id }` for a child page.
 * @see https://developers.notion.com/reference/post-page
 */
export function hostDataSourceParent(dataSourceId?: string | null, parentPageId?: string | null): { data_source_id: string } | { page_id: string } | undefined {
  if (dataSourceId != null) return { data_source_id: workspaceId(dataSourceId) };
  if (parentPageId != null) return { page_id: workspaceId(parentPageId) };
  return undefined;
}
