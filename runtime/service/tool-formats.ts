/**
 * The tool catalog in the shapes LLM APIs accept as they are. The model-facing input schema (no root composition,
 * no computed or version parameters) is built in agent/formats/model-schema.ts.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview
 */
import { modelInputSchema } from '../agent/formats/model-schema.js';
import type { JsonSchema, ToolDefinition } from '../types.js';

export { withoutReadOnly } from '../agent/formats/model-schema.js';

export type ToolFormat = 'catalog' | 'openai' | 'anthropic';

/** The input schema reduced to what function-calling APIs accept at the root (see agent/formats/model-schema.ts). */
export const llmParameters = modelInputSchema;

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

export function catalogEntry(tool: ToolDefinition): CatalogEntry {
  return {
    name: tool.name,
    connector: tool.connector,
    title: tool.title,
    description: tool.description,
    annotations: { read_only: tool.annotations.readOnly, destructive: tool.annotations.destructive, idempotent: tool.annotations.idempotent, open_world: tool.annotations.openWorld },
    version: tool.version,
    aliases: [...tool.aliases],
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
  };
}

/** OpenAI Chat Completions / Responses `tools[]` entry. */
export function openAiTool(tool: ToolDefinition): { type: 'function'; function: { name: string; description: string; parameters: JsonSchema } } {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: llmParameters(tool) } };
}

/** Anthropic Messages API `tools[]` entry. */
export function anthropicTool(tool: ToolDefinition): { name: string; description: string; input_schema: JsonSchema } {
  return { name: tool.name, description: tool.description, input_schema: llmParameters(tool) };
}

export function formatTool(tool: ToolDefinition, format: ToolFormat): unknown {
  if (format === 'openai') return openAiTool(tool);
  if (format === 'anthropic') return anthropicTool(tool);
  return catalogEntry(tool);
}
