/**
 * The tool catalog in the shapes LLM APIs accept as they are.
 *
 * Both APIs want a plain `type: "object"` schema at the root and refuse composition keywords there
 * (`input_schema does not support oneOf, allOf, or anyOf at the top level`). Our inputs express rules such as
 * "exactly one of `database_id` or `parent_page_id`" with a root `oneOf`; those rules are still enforced by the
 * service's validator when the tool runs, so dropping them from the advertised schema loses no safety, only an early
 * hint, and the description already states them.
 *
 * Properties marked `readOnly` (such as `_parent`, which the service computes from other inputs) are dropped at every
 * depth, and from `required`: models ignore `readOnly`, and an agent that fills one in is refused by the validator.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview
 */
import type { JsonSchema, ToolDefinition } from '../types.js';

export type ToolFormat = 'catalog' | 'openai' | 'anthropic';

/** Root keywords LLM tool APIs reject or ignore; everything nested is left alone. */
const ROOT_KEYWORDS_DROPPED = new Set(['$schema', '$id', '$comment', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'enum', 'const', 'dependentRequired', 'dependentSchemas']);

/** Keywords whose values are data, not subschemas: never walked for `readOnly`. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'description', 'title', 'pattern', 'format']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy of `schema` without the properties a caller must not send (`readOnly: true`), at any depth. */
export function withoutReadOnly(schema: JsonSchema): JsonSchema {
  return stripReadOnly(schema) as JsonSchema;
}

function stripReadOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripReadOnly);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  const dropped = new Set<string>();
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isPlainObject(value)) {
      const kept: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        if (isPlainObject(sub) && sub.readOnly === true) dropped.add(name);
        else kept[name] = stripReadOnly(sub);
      }
      out[key] = kept;
    } else {
      out[key] = DATA_KEYWORDS.has(key) ? value : stripReadOnly(value);
    }
  }
  if (dropped.size > 0 && Array.isArray(out.required)) {
    const required = (out.required as unknown[]).filter((name) => !dropped.has(String(name)));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}

/** The input schema reduced to what function-calling APIs accept at the root, without `readOnly` properties. */
export function llmParameters(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { type: 'object' };
  for (const [key, value] of Object.entries(schema)) {
    if (!ROOT_KEYWORDS_DROPPED.has(key) && key !== 'type') out[key] = value;
  }
  out.properties ??= {};
  return withoutReadOnly(out);
}

export interface CatalogEntry {
  name: string;
  connector: string;
  description: string;
  version: string;
  aliases: string[];
  input_schema: JsonSchema;
}

export function catalogEntry(tool: ToolDefinition): CatalogEntry {
  return {
    name: tool.name,
    connector: tool.connector,
    description: tool.description,
    version: tool.version,
    aliases: [...tool.aliases],
    input_schema: tool.inputSchema,
  };
}

/** OpenAI Chat Completions / Responses `tools[]` entry. */
export function openAiTool(tool: ToolDefinition): { type: 'function'; function: { name: string; description: string; parameters: JsonSchema } } {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: llmParameters(tool.inputSchema) } };
}

/** Anthropic Messages API `tools[]` entry. */
export function anthropicTool(tool: ToolDefinition): { name: string; description: string; input_schema: JsonSchema } {
  return { name: tool.name, description: tool.description, input_schema: llmParameters(tool.inputSchema) };
}

export function formatTool(tool: ToolDefinition, format: ToolFormat): unknown {
  if (format === 'openai') return openAiTool(tool);
  if (format === 'anthropic') return anthropicTool(tool);
  return catalogEntry(tool);
}
