import type { JsonSchema } from '../../runtime/types.js';
import { propKey } from './ts-text.js';

export interface SchemaToTsOptions {
  /** Add `[key: string]: unknown` to object types that do not forbid extra keys (output types: upstream adds fields). */
  openObjects?: boolean;
  /** Type text -> a type's name: a (sub)schema whose type is one of these is written as the name (`CalendarEvent`). */
  named?: ReadonlyMap<string, string>;
}

/** A JSON Schema fragment as a TypeScript type (the subset the spec format allows). */
export function schemaToTs(schema: JsonSchema | boolean | undefined, options: SchemaToTsOptions = {}): string {
  const text = typeText(schema, options);
  return options.named?.get(text) ?? text;
}

function typeText(schema: JsonSchema | boolean | undefined, options: SchemaToTsOptions): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = ((schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined)?.filter(isShape);
  if (variants?.length) {
    const union = variants.map((v) => wrap(schemaToTs(v, options))).join(' | ');
    const { oneOf: _o, anyOf: _a, ...base } = schema;
    // Variants that only add constraints (e.g. `{required: [...]}`) are left out above; a base shape intersects.
    return isShape(base) ? `${wrap(schemaToTs(base, options))} & (${union})` : union;
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => wrap(typeToTs(String(t), schema, options))).join(' | ');
  if (typeof type === 'string') return typeToTs(type, schema, options);
  if (schema.properties) return typeToTs('object', schema, options);
  return 'unknown';
}

/** Whether a schema says something about the value's type (not only constraints such as `required`). */
function isShape(s: JsonSchema): boolean {
  return 'type' in s || 'properties' in s || 'const' in s || 'enum' in s || 'oneOf' in s || 'anyOf' in s || 'items' in s;
}

function wrap(t: string): string {
  return /[|&]/.test(t) && !/^[{(]/.test(t) ? `(${t})` : t;
}

function typeToTs(type: string, schema: JsonSchema, options: SchemaToTsOptions): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      return items === undefined ? 'unknown[]' : `Array<${schemaToTs(items, options)}>`;
    }
    case 'object':
      return objectToTs(schema, options);
    default:
      return 'unknown';
  }
}

/** An object schema as a type literal; `members` lets callers render presence unions (see presence-union.ts). */
export function objectToTs(schema: JsonSchema, options: SchemaToTsOptions = {}, members?: string[]): string {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const extra = schema.additionalProperties;
  const lines = members ?? Object.entries(props).map(([k, v]) => `${propKey(k)}${required.has(k) ? '' : '?'}: ${schemaToTs(v, options)}`);
  if (extra !== undefined && extra !== false && extra !== true) {
    const value = schemaToTs(extra as JsonSchema, options);
    if (lines.length === 0) return `Record<string, ${value}>`;
    lines.push(`[key: string]: ${value === 'unknown' ? 'unknown' : `${value} | undefined`}`);
  } else if (extra !== false && (options.openObjects || lines.length === 0)) {
    if (lines.length === 0) return 'Record<string, unknown>';
    lines.push('[key: string]: unknown');
  }
  return `{ ${lines.join('; ')} }`;
}
