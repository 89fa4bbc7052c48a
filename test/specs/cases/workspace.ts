import type { BuildCase, RefuseCase } from '../harness.js';

export const PAGE = '59833787-2cf9-4fdf-8782-e53db20768a5';
export const PAGE_HEX = '598337872cf94fdf8782e53db20768a5';
export const DB = 'd9824bdc-8445-4327-be8b-5b47500af6ce';
export const DB_URL = 'https://www.notion.so/acme/Tasks-d9824bdc84454327be8b5b47500af6ce?v=0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const COMMENT = '249911a1-25a3-4cd5-a9a8-bd7a7e0ab4c5';
/** A data source id (Notion-Version 2025-09-03): the column pre-check resolves it from the database when absent. */
const DS = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const NV25 = { 'Notion-Version': '2025-09-03' };
const NV = { 'Notion-Version': '2022-06-28' };
const richText = [{ type: 'text', text: { content: 'Looks good' } }];
const title = { title: { title: [{ text: { content: 'Write the report' } }] } };

export const workspaceBuild: BuildCase[] = [
  {
    name: 'page-level comment, parent id given as 32 hex',
    tool: 'workspace_comment_create',
    input: { parent: { page_id: PAGE_HEX }, comment: { rich_text: richText } },
    want: { method: 'POST', path: '/v1/comments', query: {}, headers: NV, body: { parent: { page_id: PAGE }, rich_text: richText } },
  },
  {
    name: 'reply in a thread, with a workspace_version override',
    tool: 'workspace_comment_create',
    input: { discussion_id: 'disc-1', comment: { rich_text: richText }, workspace_version: '2025-09-03' },
    want: { method: 'POST', path: '/v1/comments', query: {}, headers: { 'Notion-Version': '2025-09-03' }, body: { discussion_id: 'disc-1', rich_text: richText } },
  },
  {
    name: 'retrieve by id',
    tool: 'workspace_comment_retrieve',
    input: { comment_id: COMMENT },
    want: { method: 'GET', path: `/v1/comments/${COMMENT}`, query: {}, headers: NV },
  },
  {
    name: 'list a page\'s comments with paging',
    tool: 'workspace_comments_list',
    input: { block_id: PAGE_HEX, page_size: 25, start_cursor: 'cur-2' },
    want: { method: 'GET', path: '/v1/comments', query: { block_id: PAGE, page_size: '25', start_cursor: 'cur-2' }, headers: NV },
  },
  {
    name: 'title search',
    tool: 'workspace_search',
    input: { query: 'Meeting notes', page_size: 10, start_cursor: 'c1' },
    want: { method: 'POST', path: '/v1/search', query: {}, headers: NV, body: { query: 'Meeting notes', page_size: 10, start_cursor: 'c1' } },
  },
  {
    name: 'no query: an empty JSON body (as the official client sends) lists everything shared',
    tool: 'workspace_search',
    input: {},
    want: { method: 'POST', path: '/v1/search', query: {}, headers: NV, body: {} },
  },
  {
    name: 'create a database under a page',
    tool: 'workspace_database_create',
    input: {
      parent: { page_id: PAGE },
      title: [{ type: 'text', text: { content: 'Tasks' } }],
      properties: { Name: { title: {} }, Status: { select: { options: [{ name: 'Open' }, { name: 'Done' }] } } },
    },
    want: {
      method: 'POST', path: '/v1/databases', query: {}, headers: NV,
      body: {
        parent: { page_id: PAGE },
        title: [{ type: 'text', text: { content: 'Tasks' } }],
        properties: { Name: { title: {} }, Status: { select: { options: [{ name: 'Open' }, { name: 'Done' }] } } },
      },
    },
  },
  {
    name: 'retrieve a database named by its address',
    tool: 'workspace_database_retrieve',
    input: { database_id: DB_URL },
    want: { method: 'GET', path: `/v1/databases/${DB}`, query: {}, headers: NV },
  },
  {
    name: 'insert a row: the parent is computed as {database_id}',
    tool: 'workspace_database_insert_row',
    input: {
      database_id: DB, properties: { ...title, Status: { select: { name: 'Open' } } },
      child_blocks: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: richText } }],
      icon: { type: 'emoji', emoji: '🚀' }, cover: { type: 'external', external: { url: 'https://example.com/c.png' } },
    },
    want: {
      method: 'POST', path: '/v1/pages', query: {}, headers: NV,
      body: {
        parent: { database_id: DB }, properties: { ...title, Status: { select: { name: 'Open' } } },
        children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: richText } }],
        icon: { type: 'emoji', emoji: '🚀' }, cover: { type: 'external', external: { url: 'https://example.com/c.png' } },
      },
    },
  },
  {
    name: 'several property ids become repeated filter_properties',
    tool: 'workspace_database_query_properties',
    input: { database_id: DB, property_id: 'title, bHwQ' },
    want: { method: 'POST', path: `/v1/databases/${DB}/query`, query: { filter_properties: ['title', 'bHwQ'] }, headers: NV, body: {} },
  },
  {
    name: 'property ids as Notion lists them (percent-encoded) are decoded once, as the official SDK does',
    tool: 'workspace_database_query_properties',
    input: { database_id: DB, property_id: '%5BJCR,AJP%7D,title' },
    want: { method: 'POST', path: `/v1/databases/${DB}/query`, query: { filter_properties: ['[JCR', 'AJP}', 'title'] }, headers: NV, body: {} },
  },
  {
    name: 'no property id: every property',
    tool: 'workspace_database_query_properties',
    input: { database_id: DB.replace(/-/g, '') },
    want: { method: 'POST', path: `/v1/databases/${DB}/query`, query: {}, headers: NV, body: {} },
  },
  {
    name: 'query with sorts and paging',
    tool: 'workspace_database_query',
    input: {
      database_id: DB, page_size: 50, start_cursor: 'c2',
      sorts: [{ property: 'Due', direction: 'ascending' }, { timestamp: 'created_time', direction: 'descending' }],
    },
    want: {
      method: 'POST', path: `/v1/databases/${DB}/query`, query: {}, headers: NV,
      body: { sorts: [{ property: 'Due', direction: 'ascending' }, { timestamp: 'created_time', direction: 'descending' }], start_cursor: 'c2', page_size: 50 },
    },
  },
  {
    name: 'first page of rows, no sorts: an empty JSON body',
    tool: 'workspace_database_query',
    input: { database_id: DB },
    want: { method: 'POST', path: `/v1/databases/${DB}/query`, query: {}, headers: NV, body: {} },
  },
  {
    name: '2025-09-03: a query goes to the data source',
    tool: 'workspace_database_query',
    input: { database_id: DB, data_source_id: DS.replace(/-/g, ''), workspace_version: '2025-09-03', page_size: 5 },
    want: { method: 'POST', path: `/v1/data_sources/${DS}/query`, query: {}, headers: NV25, body: { page_size: 5 } },
  },
  {
    name: '2025-09-03: a query limited to some properties goes to the data source',
    tool: 'workspace_database_query_properties',
    input: { database_id: DB, data_source_id: DS, workspace_version: '2025-09-03', property_id: '%5BJCR' },
    want: { method: 'POST', path: `/v1/data_sources/${DS}/query`, query: { filter_properties: ['[JCR'] }, headers: NV25, body: {} },
  },
  {
    name: '2025-09-03: a row\'s parent is its data source',
    tool: 'workspace_database_insert_row',
    input: { database_id: DB, data_source_id: DS, workspace_version: '2025-09-03', properties: title },
    want: { method: 'POST', path: '/v1/pages', query: {}, headers: NV25, body: { parent: { data_source_id: DS }, properties: title } },
  },
  {
    name: '2025-09-03: a child page keeps its page parent',
    tool: 'workspace_page_create',
    input: { parent_page_id: PAGE_HEX, workspace_version: '2025-09-03', properties: title },
    want: { method: 'POST', path: '/v1/pages', query: {}, headers: NV25, body: { parent: { page_id: PAGE }, properties: title } },
  },
  {
    name: '2025-09-03: a database\'s schema is its first data source\'s',
    tool: 'workspace_database_create',
    input: { parent: { page_id: PAGE }, title: [{ type: 'text', text: { content: 'Tasks' } }], properties: { Name: { title: {} } }, workspace_version: '2025-09-03' },
    want: {
      method: 'POST', path: '/v1/databases', query: {}, headers: NV25,
      body: { parent: { page_id: PAGE }, title: [{ type: 'text', text: { content: 'Tasks' } }], initial_data_source: { properties: { Name: { title: {} } } } },
    },
  },
  {
    name: 'page as a database row',
    tool: 'workspace_page_create',
    input: { database_id: DB_URL, properties: title },
    want: { method: 'POST', path: '/v1/pages', query: {}, headers: NV, body: { parent: { database_id: DB }, properties: title } },
  },
  {
    name: 'child page without properties',
    tool: 'workspace_page_create',
    input: { parent_page_id: PAGE_HEX, icon: { type: 'external', external: { url: 'https://example.com/i.png' } } },
    want: { method: 'POST', path: '/v1/pages', query: {}, headers: NV, body: { parent: { page_id: PAGE }, icon: { type: 'external', external: { url: 'https://example.com/i.png' } } } },
  },
];

const comment = { rich_text: richText };
export const workspaceRefuse: RefuseCase[] = [
  { name: 'parent and discussion_id together', tool: 'workspace_comment_create', input: { parent: { page_id: PAGE }, discussion_id: 'd', comment }, pointer: '/discussion_id', names: 'discussion_id' },
  { name: 'neither parent nor discussion_id', tool: 'workspace_comment_create', input: { comment }, pointer: '/parent', names: 'Neither parent nor discussion_id is given.' },
  { name: 'comment missing', tool: 'workspace_comment_create', input: { discussion_id: 'd' }, pointer: '/comment', names: 'comment' },
  { name: 'comment without rich_text', tool: 'workspace_comment_create', input: { discussion_id: 'd', comment: {} }, pointer: '/comment/rich_text', names: 'comment.rich_text' },
  { name: 'parent page id not an id', tool: 'workspace_comment_create', input: { parent: { page_id: 'my page' }, comment }, pointer: '/parent/page_id', names: 'page_id' },
  { name: 'workspace_version not a date', tool: 'workspace_comment_create', input: { discussion_id: 'd', comment, workspace_version: '2022-13-01' }, pointer: '/workspace_version', names: 'workspace_version' },
  { name: 'workspace_version without dashes', tool: 'workspace_comment_retrieve', input: { comment_id: COMMENT, workspace_version: '20220628' }, pointer: '/workspace_version', names: 'workspace_version' },
  { name: 'comment_id not a UUID', tool: 'workspace_comment_retrieve', input: { comment_id: '1234' }, pointer: '/comment_id', names: 'comment_id' },
  { name: 'page_size 0', tool: 'workspace_comments_list', input: { block_id: PAGE, page_size: 0 }, pointer: '/page_size', names: 'page_size' },
  { name: 'page_size 101', tool: 'workspace_comments_list', input: { block_id: PAGE, page_size: 101 }, pointer: '/page_size', names: 'page_size' },
  { name: 'block_id missing', tool: 'workspace_comments_list', input: {}, pointer: '/block_id', names: 'block_id' },
  { name: 'page_size 101', tool: 'workspace_search', input: { page_size: 101 }, pointer: '/page_size', names: 'page_size' },
  { name: 'page_size not an integer', tool: 'workspace_search', input: { page_size: 2.5 }, pointer: '/page_size', names: 'page_size' },
  { name: 'a Notion-Version the tools are not built for', tool: 'workspace_search', input: { workspace_version: '2026-03-11' }, pointer: '/workspace_version', names: '2022-06-28, 2025-09-03' },
  { name: 'title missing', tool: 'workspace_database_create', input: { parent: { page_id: PAGE }, properties: { Name: { title: {} } } }, pointer: '/title', names: 'title' },
  { name: 'parent without page_id', tool: 'workspace_database_create', input: { parent: {}, title: [{ text: { content: 'T' } }], properties: {} }, pointer: '/parent/page_id', names: 'parent.page_id' },
  { name: 'database_id not an id', tool: 'workspace_database_retrieve', input: { database_id: 'https://www.notion.so/acme/Tasks' }, pointer: '/database_id', names: 'database_id' },
  { name: '_parent supplied by the caller', tool: 'workspace_database_insert_row', input: { database_id: DB, properties: title, _parent: { database_id: DB } }, pointer: '/_parent', names: '_parent' },
  { name: 'properties missing', tool: 'workspace_database_insert_row', input: { database_id: DB }, pointer: '/properties', names: 'properties' },
  { name: 'icon of an unknown kind', tool: 'workspace_database_insert_row', input: { database_id: DB, properties: title, icon: { type: 'file', file: {} } }, pointer: '/icon', names: 'icon' },
  { name: 'an older Notion-Version is refused too', tool: 'workspace_database_query_properties', input: { database_id: DB, workspace_version: '2022-02-22' }, pointer: '/workspace_version', names: '2022-06-28, 2025-09-03' },
  { name: 'data_source_id with a child page', tool: 'workspace_page_create', input: { parent_page_id: PAGE, data_source_id: DS, workspace_version: '2025-09-03' }, pointer: '/data_source_id', names: 'data_source_id' },
  { name: 'page_size 0', tool: 'workspace_database_query', input: { database_id: DB, page_size: 0 }, pointer: '/page_size', names: 'page_size' },
  { name: 'page_size 101', tool: 'workspace_database_query', input: { database_id: DB, page_size: 101 }, pointer: '/page_size', names: 'page_size' },
  { name: 'sort item with property and timestamp', tool: 'workspace_database_query', input: { database_id: DB, sorts: [{ property: 'Due', timestamp: 'created_time', direction: 'ascending' }] }, pointer: '/sorts/0', names: 'timestamp' },
  { name: 'sort item with neither', tool: 'workspace_database_query', input: { database_id: DB, sorts: [{ property: 'Due', direction: 'ascending' }, { direction: 'ascending' }] }, pointer: '/sorts/1', names: 'property' },
  { name: 'sort timestamp not a page timestamp', tool: 'workspace_database_query', input: { database_id: DB, sorts: [{ timestamp: 'due_time', direction: 'ascending' }] }, pointer: '/sorts/0/timestamp', names: 'timestamp' },
  { name: 'sort direction unknown', tool: 'workspace_database_query', input: { database_id: DB, sorts: [{ property: 'Due', direction: 'up' }] }, pointer: '/sorts/0/direction', names: 'direction' },
  { name: 'sort item without direction', tool: 'workspace_database_query', input: { database_id: DB, sorts: [{ property: 'Due' }] }, pointer: '/sorts/0/direction', names: 'direction' },
  { name: 'database_id and parent_page_id together', tool: 'workspace_page_create', input: { database_id: DB, parent_page_id: PAGE, properties: title }, pointer: '/parent_page_id', names: 'parent_page_id' },
  { name: 'neither database_id nor parent_page_id', tool: 'workspace_page_create', input: { properties: title }, pointer: '/database_id', names: 'Neither database_id nor parent_page_id is given.' },
  { name: 'database_id without properties', tool: 'workspace_page_create', input: { database_id: DB }, pointer: '/properties', names: 'properties' },
  { name: '_parent supplied by the caller', tool: 'workspace_page_create', input: { parent_page_id: PAGE, _parent: { page_id: PAGE } }, pointer: '/_parent', names: '_parent' },
  { name: 'cover not external', tool: 'workspace_page_create', input: { parent_page_id: PAGE, cover: { type: 'emoji', emoji: 'x' } }, pointer: '/cover/type', names: 'cover.type' },
];
