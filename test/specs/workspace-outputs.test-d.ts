/**
 * Type-level tests: the output type generated for every workspace tool names only fields the official Notion SDK
 * types have for that response, at the top and in the nested objects, array items and maps it describes, with types
 * the SDK admits (upstream-keys.ts); a misspelt or invented field fails the typecheck with its tool and path
 * (checked by `vitest --typecheck` and by `tsc`). Each tool also names the deep paths it must describe, so an output
 * that goes shallow again fails too.
 *
 * SDKs: both Notion versions the connector speaks (`workspace_version`), since one schema describes both:
 * @notionhq/client-v4 (4.0.2, Notion-Version 2022-06-28, the default) and @notionhq/client (5.x, 2025-09-03), the
 * type each client's method for the same call answers with; a field is real when either version's type has it.
 */
import type { Client as NotionV4 } from '@notionhq/client-v4';
import type { Client as NotionV5 } from '@notionhq/client';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolName, ToolOutputs, WorkspaceComment, WorkspaceDatabase, WorkspaceDatabaseOrDataSource, WorkspacePage, WorkspaceRichText } from '../../generated/types.gen.js';
import type { ClientResult as Result, DescribedPaths, InventedByTool, InventedFields } from './upstream-keys.js';

type Either<V4, V5> = Result<V4> | Result<V5>;

/** Each tool's upstream call, as the official client types its answer. */
interface Upstream {
  workspace_comment_create: Either<NotionV4['comments']['create'], NotionV5['comments']['create']>;
  workspace_comment_retrieve: Either<NotionV4['comments']['retrieve'], NotionV5['comments']['retrieve']>;
  workspace_comments_list: Either<NotionV4['comments']['list'], NotionV5['comments']['list']>;
  workspace_database_create: Either<NotionV4['databases']['create'], NotionV5['databases']['create']>;
  workspace_database_insert_row: Either<NotionV4['pages']['create'], NotionV5['pages']['create']>;
  workspace_database_query: Either<NotionV4['databases']['query'], NotionV5['dataSources']['query']>;
  workspace_database_query_properties: Either<NotionV4['databases']['query'], NotionV5['dataSources']['query']>;
  workspace_database_retrieve: Either<NotionV4['databases']['retrieve'], NotionV5['databases']['retrieve']>;
  workspace_page_create: Either<NotionV4['pages']['create'], NotionV5['pages']['create']>;
  workspace_page_append: Either<NotionV4['blocks']['children']['append'], NotionV5['blocks']['children']['append']>;
  workspace_page_update: Either<NotionV4['pages']['update'], NotionV5['pages']['update']>;
  workspace_page_read: Either<NotionV4['blocks']['children']['list'], NotionV5['blocks']['children']['list']>;
  workspace_search: Either<NotionV4['search'], NotionV5['search']>;
}

type Paths<N extends ToolName> = DescribedPaths<ToolOutputs[N]>;

describe('workspace tool outputs name only fields of the Notion SDK response types', () => {
  // A new tool needs no entry here to pass (a tool is its YAML file); naming its SDK response type adds this check.
  it('names tools that exist', () => {
    expectTypeOf<keyof Upstream>().toExtend<ToolName>();
  });

  it('every field exists in the SDK type, at every depth, with a type it admits', () => {
    // On a misspelt field the error names it: `{ workspace_search: "Expected: never, Actual: ... results.properties.*.title.plain_txt" }`.
    expectTypeOf<InventedByTool<ToolOutputs, Upstream>>().toEqualTypeOf<{}>();
  });

  it('fields of one Notion version only are that version\'s', () => {
    type Database4 = Extract<Result<NotionV4['databases']['retrieve']>, { title: unknown }>;
    type Database5 = Extract<Result<NotionV5['databases']['retrieve']>, { title: unknown }>;
    expectTypeOf<'properties'>().toExtend<keyof Database4>();
    expectTypeOf<'properties'>().not.toExtend<keyof Database5>();
    expectTypeOf<'data_sources'>().toExtend<keyof Database5>();
    expectTypeOf<'data_sources'>().not.toExtend<keyof Database4>();
  });
});

describe('the outputs are deep: they describe the notable fields, nested', () => {
  it('workspace: pages, databases, comments, blocks, lists and rich text', () => {
    type RichText<P extends string> = `${P}.plain_text` | `${P}.href` | `${P}.annotations.bold` | `${P}.text.content` | `${P}.text.link.url`;
    type Page<P extends string> =
      | `${P}object` | `${P}id` | `${P}url` | `${P}created_time` | `${P}last_edited_time` | `${P}archived` | `${P}in_trash`
      | `${P}parent.type` | `${P}parent.database_id` | `${P}parent.page_id` | `${P}parent.block_id` | `${P}parent.workspace`
      | `${P}properties.*.id` | `${P}properties.*.type` | RichText<`${P}properties.*.title`> | `${P}properties.*.select.name`;
    type Database<P extends string> =
      | `${P}object` | `${P}id` | `${P}url` | RichText<`${P}title`> | RichText<`${P}description`> | `${P}parent.page_id`
      | `${P}properties.*.id` | `${P}properties.*.name` | `${P}properties.*.type` | `${P}properties.*.select.options.name`;
    type Comment<P extends string> = `${P}object` | `${P}id` | `${P}discussion_id` | `${P}parent.page_id` | `${P}created_time` | `${P}created_by.id` | RichText<`${P}rich_text`>;
    type List = 'object' | 'next_cursor' | 'has_more' | 'type';
    expectTypeOf<Comment<''>>().toExtend<Paths<'workspace_comment_create'>>();
    expectTypeOf<Comment<''>>().toExtend<Paths<'workspace_comment_retrieve'>>();
    expectTypeOf<List | Comment<'results.'>>().toExtend<Paths<'workspace_comments_list'>>();
    expectTypeOf<Database<''> | 'data_sources.id'>().toExtend<Paths<'workspace_database_create'>>();
    expectTypeOf<Database<''> | 'data_sources.id'>().toExtend<Paths<'workspace_database_retrieve'>>();
    expectTypeOf<Page<''>>().toExtend<Paths<'workspace_database_insert_row'>>();
    expectTypeOf<Page<''> | 'parent.data_source_id'>().toExtend<Paths<'workspace_page_create'>>();
    expectTypeOf<Page<''> | 'parent.data_source_id' | `properties.*.status.name` | `properties.*.date.start`>().toExtend<Paths<'workspace_page_update'>>();
    expectTypeOf<List | Page<'results.'>>().toExtend<Paths<'workspace_database_query'>>();
    expectTypeOf<List | Page<'results.'>>().toExtend<Paths<'workspace_database_query_properties'>>();
    expectTypeOf<List | Page<'results.'> | Database<'results.'>>().toExtend<Paths<'workspace_search'>>();
    type Block<P extends string> =
      | `${P}object` | `${P}id` | `${P}type` | `${P}has_children` | `${P}parent.type` | `${P}parent.page_id` | `${P}parent.block_id` | `${P}in_trash`
      | RichText<`${P}paragraph.rich_text`> | RichText<`${P}heading_1.rich_text`> | RichText<`${P}to_do.rich_text`> | `${P}to_do.checked` | `${P}child_page.title`;
    expectTypeOf<List | Block<'results.'>>().toExtend<Paths<'workspace_page_read'>>();
    expectTypeOf<List | Block<'results.'>>().toExtend<Paths<'workspace_page_append'>>();
    // Search results are pages or databases (data sources from 2025-09-03), told apart by `object`.
    expectTypeOf<NonNullable<ToolOutputs['workspace_search']['results']>[number]['object']>().toEqualTypeOf<'page' | 'database' | 'data_source' | undefined>();
  });
});

describe('a shared schema is a named type, which the outputs that answer it use', () => {
  it('pages, databases, comments and rich text', () => {
    expectTypeOf<ToolOutputs['workspace_page_create']>().toEqualTypeOf<WorkspacePage>();
    expectTypeOf<ToolOutputs['workspace_page_update']>().toEqualTypeOf<WorkspacePage>();
    expectTypeOf<ToolOutputs['workspace_database_retrieve']>().toEqualTypeOf<WorkspaceDatabase>();
    expectTypeOf<ToolOutputs['workspace_comment_retrieve']>().toEqualTypeOf<WorkspaceComment>();
    expectTypeOf<NonNullable<ToolOutputs['workspace_search']['results']>[number]>().toEqualTypeOf<WorkspacePage | WorkspaceDatabaseOrDataSource>();
    expectTypeOf<NonNullable<WorkspaceDatabase['title']>[number]>().toEqualTypeOf<WorkspaceRichText>();
  });
});

describe('InventedFields over the Notion SDK unions', () => {
  type Open<T> = T & { [key: string]: unknown };
  it('a field no member of the SDK union has, nested, in array items and in map values', () => {
    expectTypeOf<InventedFields<Open<{ id: string; last_edit_time?: string }>, Upstream['workspace_page_create']>>().toEqualTypeOf<'last_edit_time'>();
    expectTypeOf<InventedFields<Open<{ parent?: Open<{ type?: string; database?: string }> }>, Upstream['workspace_page_create']>>().toEqualTypeOf<'parent.database'>();
    expectTypeOf<InventedFields<Open<{ rich_text?: Array<Open<{ text?: Open<{ url?: string }> }>> }>, Upstream['workspace_comment_retrieve']>>().toEqualTypeOf<'rich_text.text.url'>();
    expectTypeOf<InventedFields<Open<{ results?: Array<Open<{ properties?: Record<string, Open<{ value?: unknown }>> }>> }>, Upstream['workspace_database_query']>>().toEqualTypeOf<'results.properties.*.value'>();
    // A database found by search has no data_sources in either version (2025-09-03 search finds data sources instead).
    expectTypeOf<InventedFields<Open<{ results?: Array<Open<{ object?: 'database'; data_sources?: unknown[] }>> }>, Upstream['workspace_search']>>().toEqualTypeOf<'results.data_sources'>();
  });

  it('a const must be one of the SDK\'s literals, an open string stands for them; a wrong type is named', () => {
    expectTypeOf<InventedFields<Open<{ object?: 'pages'; parent?: Open<{ type?: string }> }>, Upstream['workspace_page_create']>>().toEqualTypeOf<'object (type)'>();
    expectTypeOf<InventedFields<Open<{ next_cursor?: string | null; has_more?: string }>, Upstream['workspace_search']>>().toEqualTypeOf<'has_more (type)'>();
  });
});
