/**
 * Anthropic Messages API tool (`format=anthropic`).
 *
 * The schema is already in the subset of strict tool use (grammar-constrained sampling): `additionalProperties:
 * false` on every object, `anyOf` instead of `oneOf`, only the supported string formats, `minItems` 0 or 1, no
 * numeric or length bounds, `pattern`, `default` or `examples` (those are written into the descriptions). So it works
 * as it is in standard tool use, and an application may add `strict: true` to the tools it wants constrained.
 * `strict` is not set here: Anthropic caps how many strict tools and optional parameters one request may carry, and
 * a full catalog is beyond those caps. Optional properties stay optional (strict tool use allows them).
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
 */
import type { JsonSchema } from '../../types.js';
import { toDialect, type Dialect } from './dialect.js';
import { modelDescription, modelInputSchema } from './model-schema.js';
import type { ToolSurface } from './surface.js';

export const ANTHROPIC: Dialect = {
  allRequired: false,
  closeObjects: true,
  keep: new Set(),
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']),
  nulls: 'any-of',
  constAs: 'const',
  enumValues: 'any',
  upperCaseTypes: false,
  minItems: (n) => n === 0 || n === 1,
};

export interface AnthropicTool {
  name: string;
  description: string;
  /** An object schema, as the Messages API requires of a tool's input. */
  input_schema: JsonSchema & { type: 'object' };
}

export function anthropicTool(tool: ToolSurface): AnthropicTool {
  return { name: tool.name, description: modelDescription(tool, tool.inputSchema), input_schema: toDialect(modelInputSchema(tool), ANTHROPIC) as AnthropicTool['input_schema'] };
}
