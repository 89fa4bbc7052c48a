/**
 * Tool definitions in the shapes each agent surface accepts as it is, one file per format. Every format is a pure
 * function of the tool's definition, computed when asked rather than emitted into generated/: the catalog, the
 * filters (connector, identifier, read_only, an MCP session's tool set) and the formats then compose freely, one
 * input schema stays the single source, and `npm run generate` still checks what they all depend on (the
 * description limit, the annotations). The conformance test runs every tool through every format.
 */
import { anthropicTool } from './anthropic.js';
import { catalogEntry } from './catalog.js';
import { geminiFunctionDeclaration } from './gemini.js';
import { mcpTool } from './mcp.js';
import { openAiTool } from './openai.js';
import { openAiResponsesTool, openAiStrictTool } from './openai-strict.js';
import type { ToolSurface } from './surface.js';

export const TOOL_FORMATS = ['catalog', 'openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

const EMITTERS: Readonly<Record<ToolFormat, (tool: ToolSurface) => unknown>> = {
  catalog: catalogEntry,
  openai: openAiTool,
  'openai-strict': openAiStrictTool,
  'openai-responses': openAiResponsesTool,
  anthropic: anthropicTool,
  gemini: geminiFunctionDeclaration,
  mcp: mcpTool,
};

export function isToolFormat(value: unknown): value is ToolFormat {
  return typeof value === 'string' && (TOOL_FORMATS as readonly string[]).includes(value);
}

/** One tool in one format. */
export function formatTool(tool: ToolSurface, format: ToolFormat): unknown {
  return EMITTERS[format](tool);
}

export { anthropicTool, ANTHROPIC, type AnthropicTool } from './anthropic.js';
export { catalogEntry, type CatalogEntry } from './catalog.js';
export { toDialect, type Dialect } from './dialect.js';
export { geminiFunctionDeclaration, GEMINI, type GeminiFunctionDeclaration } from './gemini.js';
export { mcpTool, type McpTool, type McpToolAnnotations } from './mcp.js';
export { MAX_DESCRIPTION_LENGTH, modelDescription, modelInputSchema, withoutReadOnly } from './model-schema.js';
export { openAiTool, type OpenAiTool } from './openai.js';
export { OPENAI_STRICT, openAiResponsesTool, openAiStrictParameters, openAiStrictTool, type OpenAiResponsesTool } from './openai-strict.js';
export { isFreeForm, isOpenMap, openMapValues, pairValueIsJson } from './open-shapes.js';
export type { ToolSurface } from './surface.js';
