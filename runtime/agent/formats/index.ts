/**
 * Tool definitions in the shapes each agent surface accepts as it is, one file per format. Every format is a pure
 * function of the tool's definition, computed when asked rather than emitted into generated/: the catalog, the
 * filters (connector, identifier, read_only, an MCP session's tool set) and the formats then compose freely, one
 * input schema stays the single source, and `npm run generate` still checks what they all depend on (the
 * description limit, the annotations). The conformance test runs every tool through every format.
 */
import { anthropicTool, type AnthropicTool } from './anthropic.js';
import { catalogEntry, type CatalogEntry } from './catalog.js';
import { geminiFunctionDeclaration, type GeminiFunctionDeclaration } from './gemini.js';
import { mcpTool, type McpTool } from './mcp.js';
import { openAiTool, type OpenAiTool } from './openai.js';
import { openAiResponsesTool, openAiStrictTool, type OpenAiResponsesTool, type OpenAiStrictTool } from './openai-strict.js';
import type { ToolSurface } from './surface.js';

export const TOOL_FORMATS = ['catalog', 'openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/**
 * The definition each format gives for one tool, by format name: what `formatTool`, `toolDefinitions` and the HTTP
 * client's `toolDefinitions` return for it (e.g. `ToolDefinitionFor<'anthropic'>` is an {@link AnthropicTool}). A
 * format known only at run time gives the union.
 */
export interface ToolFormatDefinitions {
  catalog: CatalogEntry;
  openai: OpenAiTool;
  'openai-strict': OpenAiStrictTool;
  'openai-responses': OpenAiResponsesTool;
  anthropic: AnthropicTool;
  gemini: GeminiFunctionDeclaration;
  mcp: McpTool;
}

export type ToolDefinitionFor<F extends ToolFormat> = ToolFormatDefinitions[F];

const EMITTERS: { readonly [F in ToolFormat]: (tool: ToolSurface) => ToolDefinitionFor<F> } = {
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
export function formatTool<F extends ToolFormat>(tool: ToolSurface, format: F): ToolDefinitionFor<F> {
  return EMITTERS[format](tool);
}

export { anthropicTool, ANTHROPIC, type AnthropicTool } from './anthropic.js';
export { catalogEntry, type CatalogEntry } from './catalog.js';
export { toDialect, type Dialect } from './dialect.js';
export { geminiFunctionDeclaration, GEMINI, type GeminiFunctionDeclaration } from './gemini.js';
export { mcpTool, type McpTool, type McpToolAnnotations } from './mcp.js';
export { MAX_DESCRIPTION_LENGTH, modelDescription, modelInputSchema, withoutReadOnly } from './model-schema.js';
export { openAiTool, type OpenAiTool } from './openai.js';
export { OPENAI_STRICT, openAiResponsesTool, openAiStrictParameters, openAiStrictTool, type OpenAiResponsesTool, type OpenAiStrictTool } from './openai-strict.js';
export { isFreeForm, isOpenMap, openMapValues, pairValueIsJson } from './open-shapes.js';
export type { ToolSurface } from './surface.js';
