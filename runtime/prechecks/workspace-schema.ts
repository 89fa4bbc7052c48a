/**
 * A Notion database's columns, read through the user's token and cached per account.
 *
 * Up to 2022-06-28 the schema is the database's own `properties`. From 2025-09-03 a database is a container of data
 * sources and the schema lives on the data source: the database answers `data_sources: [{id, name}]` and the
 * columns come from `GET /v1/data_sources/{id}`.
 * @see https://developers.notion.com/reference/retrieve-a-database
 * @see https://developers.notion.com/reference/retrieve-a-data-source
 */
import type { ConnectorError } from '../errors.js';
import { workspaceId } from '../helpers/workspace-id.js';
import type { PrecheckIO } from '../types.js';
import { violationError } from '../validation/violation-error.js';

/** A column as Notion describes it: `{id, name, type, <type>: config}` (ids are percent-encoded, e.g. `%5BJCR`). */
export interface Column {
  id: string;
  name: string;
  type: string;
  [config: string]: unknown;
}

export interface DatabaseSchema {
  columns: Column[];
  /** From 2025-09-03: the data source the columns belong to. */
  dataSourceId?: string;
}

/** The first Notion-Version whose databases hold data sources. */
export const DATA_SOURCES_VERSION = '2025-09-03';

export function hasDataSources(version: string): boolean {
  return version >= DATA_SOURCES_VERSION;
}

function columnsOf(body: unknown): Column[] {
  const props = (body as { properties?: unknown }).properties;
  if (typeof props !== 'object' || props === null) return [];
  return Object.values(props as Record<string, Column>).filter((c) => typeof c?.name === 'string' && typeof c.type === 'string');
}

/**
 * The schema of `databaseId` in `version`. From 2025-09-03, `dataSourceId` picks the data source (it must be one of
 * the database's); without it a database with one data source uses that one, and one with several is refused at
 * `/data_source_id`, listing them.
 */
export async function databaseSchema(io: PrecheckIO, version: string, databaseId: string, dataSourceId?: string): Promise<DatabaseSchema> {
  const headers = { 'Notion-Version': version };
  const dbKey = `workspace:${version}:database:${databaseId}`;
  let database = io.cache.get(dbKey) as { columns: Column[]; dataSources: Array<{ id: string; name: string }> } | undefined;
  if (database === undefined) {
    const body = await io.get(`/v1/databases/${encodeURIComponent(databaseId)}`, headers);
    const sources = (body as { data_sources?: unknown }).data_sources;
    database = { columns: columnsOf(body), dataSources: Array.isArray(sources) ? (sources as Array<{ id: string; name: string }>) : [] };
    io.cache.set(dbKey, database);
  }
  if (!hasDataSources(version)) return { columns: database.columns };

  const listed = database.dataSources.map((d) => `${d.id} (${d.name})`).join(', ');
  let chosen = dataSourceId === undefined ? undefined : workspaceId(dataSourceId);
  if (chosen !== undefined && !database.dataSources.some((d) => d.id === chosen)) {
    throw refuse('/data_source_id', `data_source_id ${chosen} is not a data source of database ${databaseId}; its data sources: ${listed || 'none'}`);
  }
  if (chosen === undefined) {
    if (database.dataSources.length !== 1) {
      throw refuse(
        '/data_source_id',
        database.dataSources.length === 0
          ? `database ${databaseId} has no data source the integration can see`
          : `database ${databaseId} has ${database.dataSources.length} data sources; give data_source_id, one of: ${listed}`,
      );
    }
    chosen = database.dataSources[0]!.id;
  }
  const dsKey = `workspace:${version}:data_source:${chosen}`;
  let columns = io.cache.get(dsKey) as Column[] | undefined;
  if (columns === undefined) {
    columns = columnsOf(await io.get(`/v1/data_sources/${encodeURIComponent(chosen)}`, headers));
    io.cache.set(dsKey, columns);
  }
  return { columns, dataSourceId: chosen };
}

export function refuse(pointer: string, message: string, keyword = 'column'): ConnectorError {
  return violationError('invalid_input', `Invalid input: ${message}`, { pointer, message, keyword });
}
