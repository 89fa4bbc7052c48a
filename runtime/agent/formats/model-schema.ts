/**
 * The input schema as a model should see it, before any one API's dialect is applied.
 *
 * - The root is a plain `type: "object"`: tool APIs refuse composition keywords there (Anthropic:
 *   `input_schema does not support oneOf, allOf, or anyOf at the top level`). Root rules such as "exactly one of
 *   `database_id` or `parent_page_id`" are still enforced by the service's validator when the tool runs.
 * - Properties the service computes (`readOnly: true`, e.g. `_parent`) are dropped at every depth, and from
 *   `required`: models ignore `readOnly`, and an agent that fills one in is refused by the validator.
 * - The version parameters (`schema_version`, `tool_version`, `workspace_version`) are dropped: they are for
 *   applications pinning a contract, cost tokens on every request, and a model has no reason to set them.
 */
import type { JsonSchema, ToolDefinition } from '../../types.js';
import { isPlainObject, modelSideValue } from './open-shapes.js';

/** Root keywords tool APIs reject or ignore; everything nested is left alone here (each format adapts it). */
const ROOT_KEYWORDS_DROPPED = new Set(['$schema', '$id', '$comment', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'enum', 'const', 'dependentRequired', 'dependentSchemas']);

/** Keywords whose values are data, not subschemas: never walked for `readOnly`. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'description', 'title', 'pattern', 'format']);

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
  if (dropped.size > 0 && Array.isArray(out.required)) dropRequired(out, dropped);
  return out;
}

function dropRequired(schema: Record<string, unknown>, names: ReadonlySet<string>): void {
  const required = (schema.required as unknown[]).filter((name) => !names.has(String(name)));
  if (required.length > 0) schema.required = required;
  else delete schema.required;
}

/** The longest tool description model APIs are guaranteed to take whole (checked at generate time). */
export const MAX_DESCRIPTION_LENGTH = 1024;

/**
 * The description a model reads: the spec's description, then the rules across parameters that the schema given to
 * models cannot state (the validator enforces them all the same).
 *
 * With `schema` (the closed formats: OpenAI strict, Anthropic, Gemini), the tool's example input on the description's
 * last line(s) (`Example: {...}`, or `Example (...): {...}`) is written in that format's shapes, as the model must
 * send it and would copy it: open maps as `{name, value}` pairs, free-form objects as JSON text (open-shapes.ts).
 */
export function modelDescription(tool: Pick<ToolDefinition, 'description' | 'ruleMessages'>, schema?: JsonSchema): string {
  const description = schema === undefined ? tool.description : withModelSideExample(tool.description, schema);
  const rules = [...new Set(tool.ruleMessages)];
  if (rules.length === 0) return description;
  return `${description}\n\nRules: ${rules.map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ')}`;
}

/** The description with its closing example input rewritten by {@link modelSideValue}; as it is when there is none. */
function withModelSideExample(description: string, schema: JsonSchema): string {
  const match = /(?:^|\n)Example[^:\n]*: (?=\{)/g;
  let at = -1;
  for (let m = match.exec(description); m !== null; m = match.exec(description)) at = m.index + m[0].length;
  if (at < 0) return description;
  let example: unknown;
  try {
    example = JSON.parse(description.slice(at));
  } catch {
    return description;
  }
  const written = JSON.stringify(modelSideValue(schema, example));
  return written === JSON.stringify(example) ? description : `${description.slice(0, at)}${written}`;
}

/** The tool's input schema reduced to what a model is shown (see the module comment). */
export function modelInputSchema(tool: Pick<ToolDefinition, 'inputSchema' | 'versionParameters'>): JsonSchema {
  const out: JsonSchema = { type: 'object' };
  for (const [key, value] of Object.entries(tool.inputSchema)) {
    if (!ROOT_KEYWORDS_DROPPED.has(key) && key !== 'type') out[key] = value;
  }
  const hidden = new Set(tool.versionParameters);
  const properties = isPlainObject(out.properties) ? out.properties : {};
  out.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => !hidden.has(name)));
  if (Array.isArray(out.required)) dropRequired(out, hidden);
  return withoutReadOnly(out);
}
