/**
 * OpenAI function tools with `strict: true` (Structured Outputs for function calling): Chat Completions
 * (`format=openai-strict`) and the Responses API's flat shape (`format=openai-responses`).
 *
 * Strict mode takes a JSON Schema subset: every property listed in `required` (an optional one admits null, read
 * as "absent" by the executor), `additionalProperties: false` on every object, `anyOf` but not `oneOf`, string
 * `pattern` and a few `format`s, numeric bounds and `multipleOf`, `minItems`/`maxItems`; no `minLength`,
 * `maxLength`, `default` or `examples`. Anything else is written into the description.
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 * @see https://platform.openai.com/docs/guides/function-calling#strict-mode
 */
import type { JsonSchema } from '../../types.js';
import { toDialect, type Dialect } from './dialect.js';
import { modelDescription, modelInputSchema } from './model-schema.js';
import type { OpenAiTool } from './openai.js';
import type { ToolSurface } from './surface.js';

export const OPENAI_STRICT: Dialect = {
  allRequired: true,
  closeObjects: true,
  keep: new Set(['pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems']),
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']),
  nulls: 'type-list',
  constAs: 'const',
  enumValues: 'any',
  upperCaseTypes: false,
};

/**
 * The parameters of a strict format: a closed object schema listing every property in `required`, as OpenAI strict
 * mode requires of the root, and as the OpenAI Agents SDK's `tool()` types a strict tool's `parameters`.
 */
export interface StrictParameters extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
  description?: string;
}

export function openAiStrictParameters(tool: ToolSurface): StrictParameters {
  // The dialect closes every object and lists every property (OPENAI_STRICT), and a tool's input is an object.
  return toDialect(modelInputSchema(tool), OPENAI_STRICT) as StrictParameters;
}

/** A Chat Completions function tool with `strict: true` (`format=openai-strict`). */
export type OpenAiStrictTool = OpenAiTool & { function: { strict: true } };

/** Chat Completions `tools[]` entry with `strict: true`. */
export function openAiStrictTool(tool: ToolSurface): OpenAiStrictTool {
  return { type: 'function', function: { name: tool.name, description: modelDescription(tool, tool.inputSchema), parameters: openAiStrictParameters(tool), strict: true } };
}

export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: StrictParameters;
  strict: true;
}

/** Responses API `tools[]` entry: the flat function shape, strict. */
export function openAiResponsesTool(tool: ToolSurface): OpenAiResponsesTool {
  return { type: 'function', name: tool.name, description: modelDescription(tool, tool.inputSchema), parameters: openAiStrictParameters(tool), strict: true };
}
