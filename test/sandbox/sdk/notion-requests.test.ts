/**
 * For every workspace tool, in both Notion-Versions the tools are built for, the request the tool sends equals what
 * Notion's official client sends for the same operation (@notionhq/client 4.0.2 for 2022-06-28, 5.x for
 * 2025-09-03): method, path, query and JSON body, and the Notion-Version header. Both are captured by one local
 * recording server: the client's `baseUrl` and the connection's API base override point at it, and the tool runs
 * through the whole executor (validation, the column pre-check's schema reads, the builder, the upstream client).
 * The recorder answers the pre-check's schema reads with a fixed schema; the tool's own request is the last one
 * recorded for its call.
 */
import { Client as NotionV4 } from '@notionhq/client-v4';
import { Client as NotionV5 } from '@notionhq/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../../generated/tools.gen.js';
import { startHarness, type Harness } from '../../runtime/connector-harness.js';
import { asSeenUpstream, startRecordingServer, type RecordedCall, type RecordingServer } from './recording-server.js';
import { expectEveryToolCovered } from './tool-coverage.js';

const DB = 'd9824bdc-8445-4327-be8b-5b47500af6ce';
const DS = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const PAGE = '59833787-2cf9-4fdf-8782-e53db20768a5';
const COMMENT = '249911a1-25a3-4cd5-a9a8-bd7a7e0ab4c5';
const DISCUSSION = '5e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
const BLOCK = 'c02fc1d3-db8b-45c5-a222-27595b15aea7';
const COLUMNS = {
  Name: { id: 'title', name: 'Name', type: 'title', title: {} },
  Status: { id: '%5BJCR', name: 'Status', type: 'select', select: { options: [{ id: 'o1', name: 'Todo', color: 'red' }] } },
  Due: { id: 'M%3BBw', name: 'Due', type: 'date', date: {} },
};
const text = (content: string) => [{ type: 'text' as const, text: { content } }];
const row = { title: { title: text('Write the report') }, Status: { select: { name: 'Todo' } }, Due: { date: { start: '2026-03-01' } } };

/** The schema reads the pre-checks make (either version), answered from a fixed schema; anything else `{}`. */
function answer(call: RecordedCall): { status: number; body: unknown } {
  // The page workspace_page_update's pre-check reads: a row of the database, as each version names its parent.
  if (call.method === 'GET' && call.path === `/v1/pages/${PAGE}`) {
    const v25 = call.headers['notion-version'] === '2025-09-03';
    return { status: 200, body: { object: 'page', id: PAGE, parent: v25 ? { type: 'data_source_id', data_source_id: DS, database_id: DB } : { type: 'database_id', database_id: DB } } };
  }
  if (call.method === 'GET' && call.path === `/v1/databases/${DB}`) return { status: 200, body: { object: 'database', id: DB, properties: COLUMNS, data_sources: [{ id: DS, name: 'Tasks' }] } };
  if (call.method === 'GET' && call.path === `/v1/data_sources/${DS}`) return { status: 200, body: { object: 'data_source', id: DS, properties: COLUMNS } };
  return { status: 200, body: { object: 'list', results: [], next_cursor: null, has_more: false } };
}

interface Case {
  tool: string;
  input: Record<string, unknown>;
  /** The same operation with the official client. */
  v4: (n: NotionV4) => Promise<unknown>;
  v5: (n: NotionV5) => Promise<unknown>;
}

const CASES: Case[] = [
  {
    tool: 'workspace_search',
    input: { query: 'Tasks', page_size: 10, start_cursor: 'c1' },
    v4: (n) => n.search({ query: 'Tasks', page_size: 10, start_cursor: 'c1' }),
    v5: (n) => n.search({ query: 'Tasks', page_size: 10, start_cursor: 'c1' }),
  },
  { tool: 'workspace_search', input: {}, v4: (n) => n.search({}), v5: (n) => n.search({}) },
  {
    tool: 'workspace_database_retrieve',
    input: { database_id: DB.replace(/-/g, '') },
    v4: (n) => n.databases.retrieve({ database_id: DB }),
    v5: (n) => n.databases.retrieve({ database_id: DB }),
  },
  {
    tool: 'workspace_database_query',
    input: { database_id: DB, page_size: 50, start_cursor: 'c2', sorts: [{ property: 'Due', direction: 'ascending' }, { timestamp: 'created_time', direction: 'descending' }] },
    v4: (n) => n.databases.query({ database_id: DB, sorts: [{ property: 'Due', direction: 'ascending' }, { timestamp: 'created_time', direction: 'descending' }], start_cursor: 'c2', page_size: 50 }),
    v5: (n) => n.dataSources.query({ data_source_id: DS, sorts: [{ property: 'Due', direction: 'ascending' }, { timestamp: 'created_time', direction: 'descending' }], start_cursor: 'c2', page_size: 50 }),
  },
  {
    tool: 'workspace_database_query',
    input: { database_id: DB },
    v4: (n) => n.databases.query({ database_id: DB }),
    v5: (n) => n.dataSources.query({ data_source_id: DS }),
  },
  {
    tool: 'workspace_database_query_properties',
    input: { database_id: DB, property_id: '%5BJCR,M%3BBw,title' },
    v4: (n) => n.databases.query({ database_id: DB, filter_properties: ['%5BJCR', 'M%3BBw', 'title'] }),
    v5: (n) => n.dataSources.query({ data_source_id: DS, filter_properties: ['%5BJCR', 'M%3BBw', 'title'] }),
  },
  {
    tool: 'workspace_database_insert_row',
    input: { database_id: DB, properties: row, icon: { type: 'emoji', emoji: '🚀' } },
    v4: (n) => n.pages.create({ parent: { database_id: DB }, properties: row, icon: { type: 'emoji', emoji: '🚀' } }),
    v5: (n) => n.pages.create({ parent: { data_source_id: DS }, properties: row, icon: { type: 'emoji', emoji: '🚀' } }),
  },
  {
    tool: 'workspace_page_create',
    input: { database_id: DB, properties: row },
    v4: (n) => n.pages.create({ parent: { database_id: DB }, properties: row }),
    v5: (n) => n.pages.create({ parent: { data_source_id: DS }, properties: row }),
  },
  {
    tool: 'workspace_page_create',
    input: { parent_page_id: PAGE, properties: { title: { title: text('Plan') } }, child_blocks: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: text('First') } }] },
    v4: (n) => n.pages.create({ parent: { page_id: PAGE }, properties: { title: { title: text('Plan') } }, children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: text('First') } }] }),
    v5: (n) => n.pages.create({ parent: { page_id: PAGE }, properties: { title: { title: text('Plan') } }, children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: text('First') } }] }),
  },
  {
    tool: 'workspace_page_update',
    input: { page_id: PAGE.replace(/-/g, ''), properties: { Status: { select: { name: 'Todo' } }, Due: { date: { start: '2026-03-01' } } }, icon: { type: 'emoji', emoji: '✅' } },
    v4: (n) => n.pages.update({ page_id: PAGE, properties: { Status: { select: { name: 'Todo' } }, Due: { date: { start: '2026-03-01' } } }, icon: { type: 'emoji', emoji: '✅' } }),
    v5: (n) => n.pages.update({ page_id: PAGE, properties: { Status: { select: { name: 'Todo' } }, Due: { date: { start: '2026-03-01' } } }, icon: { type: 'emoji', emoji: '✅' } }),
  },
  {
    tool: 'workspace_page_update',
    input: { page_id: PAGE, in_trash: true },
    v4: (n) => n.pages.update({ page_id: PAGE, in_trash: true }),
    v5: (n) => n.pages.update({ page_id: PAGE, in_trash: true }),
  },
  {
    tool: 'workspace_database_create',
    input: { parent: { page_id: PAGE }, title: text('Tasks'), properties: { Name: { title: {} }, Status: { select: { options: [{ name: 'Open' }] } } } },
    // The clients type `parent` with its `type`; the API takes it without (the tools send `{page_id}`).
    v4: (n) => n.databases.create({ parent: { page_id: PAGE } as { type: 'page_id'; page_id: string }, title: text('Tasks'), properties: { Name: { title: {} }, Status: { select: { options: [{ name: 'Open' }] } } } }),
    v5: (n) => n.databases.create({ parent: { page_id: PAGE } as { type: 'page_id'; page_id: string }, title: text('Tasks'), initial_data_source: { properties: { Name: { title: {} }, Status: { select: { options: [{ name: 'Open' }] } } } } }),
  },
  {
    tool: 'workspace_comment_create',
    input: { parent: { page_id: PAGE }, comment: { rich_text: text('Looks good') } },
    v4: (n) => n.comments.create({ parent: { page_id: PAGE }, rich_text: text('Looks good') }),
    v5: (n) => n.comments.create({ parent: { page_id: PAGE }, rich_text: text('Looks good') }),
  },
  {
    tool: 'workspace_comment_create',
    input: { discussion_id: DISCUSSION, comment: { rich_text: text('Agreed') } },
    v4: (n) => n.comments.create({ discussion_id: DISCUSSION, rich_text: text('Agreed') }),
    v5: (n) => n.comments.create({ discussion_id: DISCUSSION, rich_text: text('Agreed') }),
  },
  {
    tool: 'workspace_comment_retrieve',
    input: { comment_id: COMMENT },
    v4: (n) => n.comments.retrieve({ comment_id: COMMENT }),
    v5: (n) => n.comments.retrieve({ comment_id: COMMENT }),
  },
  {
    tool: 'workspace_comments_list',
    input: { block_id: PAGE, page_size: 25, start_cursor: 'c3' },
    v4: (n) => n.comments.list({ block_id: PAGE, page_size: 25, start_cursor: 'c3' }),
    v5: (n) => n.comments.list({ block_id: PAGE, page_size: 25, start_cursor: 'c3' }),
  },
  {
    tool: 'workspace_users_list',
    input: { page_size: 50, start_cursor: 'c5' },
    v4: (n) => n.users.list({ page_size: 50, start_cursor: 'c5' }),
    v5: (n) => n.users.list({ page_size: 50, start_cursor: 'c5' }),
  },
  {
    tool: 'workspace_page_read',
    input: { block_id: PAGE.replace(/-/g, ''), page_size: 50, start_cursor: 'c4' },
    v4: (n) => n.blocks.children.list({ block_id: PAGE, page_size: 50, start_cursor: 'c4' }),
    v5: (n) => n.blocks.children.list({ block_id: PAGE, page_size: 50, start_cursor: 'c4' }),
  },
  {
    tool: 'workspace_page_append',
    input: { block_id: PAGE, child_blocks: [{ type: 'to_do', to_do: { rich_text: text('Send the minutes') } }], after_block_id: BLOCK.replace(/-/g, '') },
    v4: (n) => n.blocks.children.append({ block_id: PAGE, children: [{ type: 'to_do', to_do: { rich_text: text('Send the minutes') } }], after: BLOCK }),
    // Deprecated in the 5.x client for 2026-03-11's `position`; 2025-09-03 takes `after`.
    v5: (n) => n.blocks.children.append({ block_id: PAGE, children: [{ type: 'to_do', to_do: { rich_text: text('Send the minutes') } }], after: BLOCK }),
  },
  {
    tool: 'workspace_page_append',
    input: { block_id: PAGE, child_blocks: [{ type: 'paragraph', paragraph: { rich_text: text('At the end') } }] },
    v4: (n) => n.blocks.children.append({ block_id: PAGE, children: [{ type: 'paragraph', paragraph: { rich_text: text('At the end') } }] }),
    v5: (n) => n.blocks.children.append({ block_id: PAGE, children: [{ type: 'paragraph', paragraph: { rich_text: text('At the end') } }] }),
  },
];

let rec: RecordingServer;
let h: Harness;

beforeAll(async () => {
  rec = await startRecordingServer(answer);
  h = await startHarness();
  await h.connection('workspace', 'recorded', { overrides: { ...h.sandbox.endpoints('workspace'), apiBaseUrl: rec.url } });
  await h.authorize('recorded', 'recorded-user');
});
afterAll(async () => {
  await h?.close();
  await rec?.close();
});

/** The request as the upstream sees it, with the version header. */
function seen(call: RecordedCall) {
  return { ...asSeenUpstream(call), version: call.headers['notion-version'] };
}

async function viaTool(tool: string, input: Record<string, unknown>): Promise<ReturnType<typeof seen>> {
  rec.calls.length = 0;
  await h.env.executeTool({ tool_name: tool, identifier: 'recorded-user', tool_input: input });
  // The pre-check's schema reads come first; the tool's own request is the last.
  return seen(rec.calls.at(-1)!);
}

describe('every workspace tool sends what the official client sends', () => {
  it('covers every workspace tool', () => {
    expectEveryToolCovered('CASES in test/sandbox/sdk/notion-requests.test.ts', CASES.map((c) => c.tool), tools.filter((t) => t.connector === 'workspace').map((t) => t.name));
  });

  describe.each(CASES.map((c, i) => [`${c.tool} #${i}`, c] as const))('%s', (_name, c) => {
    it('2022-06-28, as @notionhq/client 4.0.2 sends it', async () => {
      rec.calls.length = 0;
      await c.v4(new NotionV4({ auth: 'token', baseUrl: rec.url }));
      const sdk = seen(rec.take());
      expect(sdk.version).toBe('2022-06-28');
      expect(await viaTool(c.tool, c.input)).toEqual(sdk);
    });

    it('2025-09-03, as @notionhq/client 5 sends it', async () => {
      rec.calls.length = 0;
      await c.v5(new NotionV5({ auth: 'token', baseUrl: rec.url, retry: false }));
      const sdk = seen(rec.take());
      expect(sdk.version).toBe('2025-09-03');
      expect(await viaTool(c.tool, { ...c.input, workspace_version: '2025-09-03' })).toEqual(sdk);
    });
  });
});
