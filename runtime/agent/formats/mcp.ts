/**
 * MCP `Tool` objects (protocol revision 2025-06-18): what `tools/list` returns for each tool.
 *
 * `inputSchema` is the model-facing input schema (no root composition, no computed or version parameters);
 * `outputSchema` is the spec's `output` (an object schema of the result's notable fields, open to more), so a
 * `structuredContent` carrying the upstream result validates against it. The annotations are the spec's declared
 * `annotations`, never inferred from the HTTP method.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 */
import type { JsonSchema } from '../../types.js';
import { modelDescription, modelInputSchema } from './model-schema.js';
import type { ToolSurface } from './surface.js';

export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
  annotations: McpToolAnnotations;
}

export function mcpTool(tool: ToolSurface): McpTool {
  const a = tool.annotations;
  return {
    name: tool.name,
    title: tool.title,
    description: modelDescription(tool),
    inputSchema: modelInputSchema(tool) as McpTool['inputSchema'],
    outputSchema: { ...tool.outputSchema, type: 'object' },
    annotations: {
      title: tool.title,
      readOnlyHint: a.readOnly,
      destructiveHint: a.destructive,
      idempotentHint: a.idempotent,
      openWorldHint: a.openWorld,
    },
  };
}
