/**
 * `workspaceColumns`: the pre-check of the workspace (Notion) tools that name a database's columns. Before a row is
 * written, a query sorted by a property or a query limited to some properties, the keys are checked against the
 * database's real schema (read with the user's token, cached for a short time), so the most common agent mistake,
 * a wrong or wrong-case column name, is answered with the valid names and the closest one instead of Notion's bare
 * "X is not a property that exists". A value whose shape cannot fit its column's type is refused the same way.
 *
 * Key rules (the service specification's, and Notion's where it is wider): `title` names the title column (it is
 * that column's id); other keys are the exact, case-sensitive column names (the title column's display name too, as
 * Notion accepts any column's name) or property ids. Notion lists ids percent-encoded (`%5BJCR`); such an encoded
 * id is refused as a property key, naming the column to use instead.
 * @see https://developers.notion.com/reference/post-page
 * @see https://developers.notion.com/reference/page-property-values
 */
import { ConnectorError } from '../errors.js';
import { workspaceId } from '../helpers/workspace-id.js';
import { decodeOnce } from '../helpers/workspace-property-ids.js';
import type { PrecheckIO, Violation } from '../types.js';
import { pointerToken } from '../validation/violations.js';
import { conditionFor, filterConditions } from '../helpers/workspace-filter.js';
import { closestMatch } from '../validation/closest-match.js';
import { columnValueProblem, READ_ONLY_TYPES } from './workspace-values.js';
import { DATA_SOURCES_VERSION, databaseSchema, hasDataSources, refuse, type Column } from './workspace-schema.js';

/** The inputs this pre-check reads (each tool has some of them). */
export interface WorkspaceColumnsInput {
  database_id?: string;
  data_source_id?: string;
  properties?: Record<string, unknown>;
  sorts?: ReadonlyArray<{ property?: string }>;
  property_id?: string;
  /** A query's filter (workspace_database_query): its structure is checked by the validator, its columns here. */
  filter?: unknown;
}

function describeColumns(columns: readonly Column[]): string {
  return columns.map((c) => (c.type === 'title' ? `\`${c.name}\` (title; key \`title\`)` : `\`${c.name}\` (${c.type})`)).join(', ');
}

type Lookup = { column: Column } | { problem: string };

/** A property key (in `properties`, or a sort's `property`): a column name, `title`, or an id as Notion decodes it. */
function findColumn(columns: readonly Column[], key: string): Lookup {
  const byName = columns.find((c) => c.name === key);
  if (byName) return { column: byName };
  const byId = columns.find((c) => decodeOnce(c.id) === key);
  if (byId) return { column: byId };
  const encoded = columns.find((c) => c.id === key);
  if (encoded) {
    return { problem: `\`${key}\` is a URL-encoded property id; use the column name \`${encoded.name}\` instead` };
  }
  const near = closestMatch(key, columns.map((c) => c.name));
  const hint = near === undefined ? '' : ` did you mean \`${near}\`?`;
  return { problem: `\`${key}\` is not a column of this database;${hint} Columns: ${describeColumns(columns)}` };
}

/** One id of `property_id`: an id as Notion lists it (`%5BJCR`) or decoded (`[JCR`); a column name is pointed to its id. */
function idProblem(columns: readonly Column[], id: string): string | undefined {
  if (columns.some((c) => c.id === id || decodeOnce(c.id) === id)) return undefined;
  const named = columns.find((c) => c.name === id);
  if (named) return `\`${id}\` is a column name; property_id takes property ids: \`${named.id}\``;
  const near = closestMatch(id, columns.flatMap((c) => [c.id, c.name]));
  const nearColumn = near === undefined ? undefined : columns.find((c) => c.id === near || c.name === near);
  const hint = nearColumn === undefined ? '' : ` did you mean \`${nearColumn.id}\` (column \`${nearColumn.name}\`)?`;
  return `\`${id}\` is not a property id of this database;${hint} Property ids: ${columns.map((c) => `\`${c.id}\` (${c.name})`).join(', ')}`;
}

/**
 * Every problem of a `properties` input (keys and value shapes) against a database's columns, each at its pointer
 * below `/properties`: shared by the tools that write a row (insert, create) and the one that changes a page (update).
 */
export function propertyViolations(columns: readonly Column[], properties: Record<string, unknown> | undefined): Violation[] {
  const violations: Violation[] = [];
  for (const [key, value] of Object.entries(properties ?? {})) {
    const at = `/properties/${pointerToken(key)}`;
    const found = findColumn(columns, key);
    if ('problem' in found) {
      violations.push({ pointer: at, message: found.problem, keyword: 'column' });
      continue;
    }
    const column = found.column;
    if (READ_ONLY_TYPES.has(column.type)) {
      violations.push({ pointer: at, message: `\`${column.name}\` is a ${column.type} column, computed by Notion; it cannot be written`, keyword: 'column_type' });
      continue;
    }
    const problem = columnValueProblem(column, value);
    if (problem) violations.push({ pointer: `${at}${problem.suffix}`, message: problem.message, keyword: 'column_type' });
  }
  return violations;
}

/**
 * Every problem of a query's filter against the columns: each property filter's `property` must name a column (as a
 * sort's does, at `/filter/.../property`), and its condition must sit under that column's type (at the condition's
 * key): `status` for a status column, `select` for a select, the most common mistake being one for the other, as both
 * hold `{"equals": "<option>"}`. The structure itself (operators, values, nesting) is the validator's check
 * (`workspaceFilter`, runtime/helpers/workspace-filter.ts).
 */
export function filterViolations(columns: readonly Column[], filter: unknown): Violation[] {
  const violations: Violation[] = [];
  for (const { at, property, key, condition } of filterConditions(filter)) {
    const found = findColumn(columns, property);
    if ('problem' in found) {
      violations.push({ pointer: `${at}/property`, message: found.problem, keyword: 'column' });
      continue;
    }
    const column = found.column;
    if (key === undefined || key === column.type) continue;
    const written = JSON.stringify({ property: column.name, [column.type]: conditionFor(column.type, condition) });
    violations.push({
      pointer: `${at}/${pointerToken(key)}`,
      message: `\`${column.name}\` is a ${column.type} column; its filter condition goes under \`${column.type}\`, not \`${key}\`: ${written}`,
      keyword: 'column_type',
    });
  }
  return violations;
}

/** Refuses the input with every violation, or returns when there is none. */
export function throwViolations(violations: readonly Violation[]): void {
  if (violations.length > 0) {
    throw new ConnectorError('invalid_input', `Invalid input: ${violations.map((v) => v.message).join('; ')}`, { details: { violations: [...violations] } });
  }
}

export async function workspaceColumns<I extends WorkspaceColumnsInput>(input: I, io: PrecheckIO): Promise<I> {
  if (input.database_id === undefined) return input;
  const needed =
    input.properties !== undefined ||
    input.property_id !== undefined ||
    (input.sorts ?? []).some((s) => s.property !== undefined) ||
    filterConditions(input.filter).length > 0 ||
    input.data_source_id !== undefined;
  const version = io.version ?? '2022-06-28';
  if (input.data_source_id !== undefined && !hasDataSources(version)) {
    throw refuse('/data_source_id', `data_source_id needs workspace_version ${DATA_SOURCES_VERSION} or later (this call speaks ${version}, whose databases have no data sources)`, 'version');
  }
  // Nothing names a column, and before data sources nothing needs resolving: no read at all.
  if (!needed && !hasDataSources(version)) return input;
  const schema = await databaseSchema(io, version, workspaceId(input.database_id), input.data_source_id);
  const { columns } = schema;
  const violations = propertyViolations(columns, input.properties);

  (input.sorts ?? []).forEach((sort, i) => {
    if (sort.property === undefined) return;
    const found = findColumn(columns, sort.property);
    if ('problem' in found) violations.push({ pointer: `/sorts/${i}/property`, message: found.problem, keyword: 'column' });
  });

  if (input.property_id !== undefined) {
    for (const id of input.property_id.split(',').map((s) => s.trim()).filter(Boolean)) {
      const problem = idProblem(columns, id);
      if (problem) violations.push({ pointer: '/property_id', message: problem, keyword: 'column' });
    }
  }

  violations.push(...filterViolations(columns, input.filter));

  throwViolations(violations);
  return schema.dataSourceId === undefined || input.data_source_id !== undefined ? input : { ...input, data_source_id: schema.dataSourceId };
}
