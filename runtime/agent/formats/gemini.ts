/**
 * Gemini function declaration (`format=gemini`), for `tools: [{ functionDeclarations: [...] }]`.
 *
 * `parameters` is Gemini's `Schema` (an OpenAPI 3.0 subset), not JSON Schema: upper-case `type` names, `nullable`
 * instead of a null type, `enum` listing strings only (an enum or `const` of numbers or booleans is described; an
 * enum mixing value types with no `type` is an `anyOf` of one typed branch per value type), no
 * `const`, `oneOf`, `additionalProperties`, `examples` or `$schema`, every array with `items`, and every OBJECT with
 * at least one property (so an open map is a list of pairs and a free-form object is JSON text). The string formats other than `date-time`, and length, pattern and
 * item-count bounds, are written into the descriptions. A tool with no parameters has no `parameters` key.
 *
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 * @see https://ai.google.dev/api/caching#Schema
 */
import type { JsonSchema } from '../../types.js';
import { toDialect, type Dialect } from './dialect.js';
import { modelDescription, modelInputSchema } from './model-schema.js';
import type { ToolSurface } from './surface.js';

export const GEMINI: Dialect = {
  allRequired: false,
  closeObjects: false,
  keep: new Set(['minimum', 'maximum']),
  formats: new Set(['date-time']),
  nulls: 'nullable',
  constAs: 'enum',
  enumValues: 'strings',
  upperCaseTypes: true,
};

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

export function geminiFunctionDeclaration(tool: ToolSurface): GeminiFunctionDeclaration {
  const parameters = toDialect(modelInputSchema(tool), GEMINI);
  const empty = Object.keys((parameters.properties as object | undefined) ?? {}).length === 0;
  return { name: tool.name, description: modelDescription(tool, tool.inputSchema), ...(empty ? {} : { parameters }) };
}
