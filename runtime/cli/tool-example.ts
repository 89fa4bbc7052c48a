/**
 * An example input for `agent-connector tools show`: every required parameter, each from its schema's first
 * `examples` value (the specs give one for most parameters), else the first `enum` value, else a placeholder of its
 * type. Given the tool's validator, optional parameters with examples are added one at a time, in schema order,
 * until the input passes, so a rule beyond the schema (exactly one of `parent` and `database_id`) is met too.
 */
import type { JsonSchema } from '../types.js';

type Schema = JsonSchema & { type?: string | string[]; examples?: unknown[]; enum?: unknown[]; format?: string; items?: Schema; properties?: Record<string, Schema>; required?: string[]; minimum?: number; default?: unknown };

function placeholder(schema: Schema, name: string): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [placeholder(schema.items, name)] : [];
    case 'object':
      return exampleInput(schema);
    default:
      if (schema.format === 'date-time' || schema.format === 'date-or-date-time') return '2026-03-02T10:00:00Z';
      if (schema.format === 'date') return '2026-03-02';
      if (schema.format === 'email') return 'ana@example.com';
      return `<${name}>`;
  }
}

export function exampleInput(schema: JsonSchema, validate?: (input: unknown) => { ok: boolean }): Record<string, unknown> {
  const s = schema as Schema;
  const out: Record<string, unknown> = {};
  for (const name of s.required ?? []) {
    const property = s.properties?.[name];
    if (property !== undefined) out[name] = placeholder(property, name);
  }
  if (validate === undefined || validate(out).ok) return out;
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    if (name in out || !Array.isArray(property.examples) || property.examples.length === 0) continue;
    const tried = { ...out, [name]: property.examples[0] };
    if (validate(tried).ok) return tried;
  }
  return out;
}
