/**
 * The catalog entry (`format=catalog`, the default of GET /api/v1/tools): everything about a tool for applications,
 * the full input schema with its version parameters included.
 */
import type { JsonSchema } from '../../types.js';
import type { ToolSurface } from './surface.js';

export interface CatalogEntry {
  name: string;
  connector: string;
  title: string;
  description: string;
  annotations: { read_only: boolean; destructive: boolean; idempotent: boolean; open_world: boolean };
  version: string;
  aliases: string[];
  input_schema: JsonSchema;
  output_schema: JsonSchema;
}

export function catalogEntry(tool: ToolSurface): CatalogEntry {
  const a = tool.annotations;
  return {
    name: tool.name,
    connector: tool.connector,
    title: tool.title,
    description: tool.description,
    annotations: { read_only: a.readOnly, destructive: a.destructive, idempotent: a.idempotent, open_world: a.openWorld },
    version: tool.version,
    aliases: [...tool.aliases],
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
  };
}
