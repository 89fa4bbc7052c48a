/**
 * `workspacePageColumns`: the pre-check of `workspace_page_update`, the column check of `workspaceColumns` for a page
 * named by its id instead of its database. Notion checks a page's new property values against its parent's schema
 * and answers a wrong key with a bare "X is not a property that exists."; this check answers it with the valid names
 * and the closest one, and a value of the wrong shape, a select or status option in the wrong case or a status option
 * that does not exist with what to send, before anything is written.
 *
 * Only when `properties` names a key: the page is read (`GET /v1/pages/{page_id}`, its parent cached per account for
 * a short time, as schemas are) and, when it is a database row (parent `database_id`, from 2025-09-03
 * `data_source_id` with its `database_id`), its database's schema (the same cached read as the other tools'). A page
 * outside a database has one property, its title, keyed `title`
 * (developers.notion.com/reference/page-property-values: "If a page is not part of a data source, then its only
 * available property is its title"). A page that does not exist or is not shared fails the read as the update would,
 * with the tool's hints.
 * @see https://developers.notion.com/reference/retrieve-a-page
 * @see https://developers.notion.com/reference/patch-page
 */
import { workspaceId } from '../helpers/workspace-id.js';
import type { PrecheckIO, Violation } from '../types.js';
import { pointerToken } from '../validation/violations.js';
import { propertyViolations, throwViolations } from './workspace-columns.js';
import { columnValueProblem } from './workspace-values.js';
import { databaseSchema, type Column } from './workspace-schema.js';

/** The inputs this pre-check reads. */
export interface WorkspacePageColumnsInput {
  page_id: string;
  properties?: Record<string, unknown>;
}

/** Where a page is, as far as its properties go: the database (and data source) whose schema it has, or none. */
interface PageParent {
  database_id?: string;
  data_source_id?: string;
}

/** The page's title as a page outside a database has it. */
const TITLE: Column = { id: 'title', name: 'title', type: 'title', title: {} };

async function pageParent(io: PrecheckIO, version: string, pageId: string): Promise<PageParent> {
  const key = `workspace:${version}:page-parent:${pageId}`;
  const cached = io.cache.get(key) as PageParent | undefined;
  if (cached !== undefined) return cached;
  const page = (await io.get(`/v1/pages/${encodeURIComponent(pageId)}`, { 'Notion-Version': version })) as { parent?: Record<string, unknown> };
  const parent = page.parent ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const found: PageParent = {};
  const database = text(parent.database_id);
  const source = text(parent.data_source_id);
  if (database !== undefined) found.database_id = database;
  if (source !== undefined) found.data_source_id = source;
  io.cache.set(key, found);
  return found;
}

/** A page outside a database: its one property, `title`. */
function titleOnlyViolations(properties: Record<string, unknown>): Violation[] {
  const violations: Violation[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const at = `/properties/${pointerToken(key)}`;
    if (key !== 'title') {
      violations.push({
        pointer: at,
        message: `\`${key}\` is not a property of this page: a page outside a database has one property, its title, keyed \`title\`, e.g. {"title":{"title":[{"text":{"content":"New name"}}]}}`,
        keyword: 'column',
      });
      continue;
    }
    const problem = columnValueProblem(TITLE, value);
    if (problem) violations.push({ pointer: `${at}${problem.suffix}`, message: problem.message, keyword: 'column_type' });
  }
  return violations;
}

export async function workspacePageColumns<I extends WorkspacePageColumnsInput>(input: I, io: PrecheckIO): Promise<I> {
  if (input.properties === undefined || Object.keys(input.properties).length === 0) return input;
  const version = io.version ?? '2022-06-28';
  const parent = await pageParent(io, version, workspaceId(input.page_id));
  if (parent.database_id === undefined) {
    throwViolations(titleOnlyViolations(input.properties));
    return input;
  }
  const { columns } = await databaseSchema(io, version, parent.database_id, parent.data_source_id);
  throwViolations(propertyViolations(columns, input.properties));
  return input;
}
