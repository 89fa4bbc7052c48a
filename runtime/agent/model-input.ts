/**
 * A tool input as models send it, read back into the shape the validator checks. The executor calls this once,
 * before validation, for every caller (`execute_tool`, the typed clients, MCP `tools/call`), so each rule below has
 * one code path whatever format the model was given:
 *
 * - `null` for an optional property whose schema does not admit null means "absent" (strict modes make every
 *   property required, so a model sends null for the ones it leaves out).
 * - An open map sent as `[{name, value}, ...]` becomes the object, each value parsed from JSON text when the map's
 *   values are not strings (see agent/formats/open-shapes.ts).
 * - A free-form object, or a whole open map, sent as JSON text is parsed.
 *
 * Nothing is invented: a value that fits none of these is left as it is, and the validator reports it at its
 * pointer (a pair list with a duplicate name, JSON text that does not parse, nests too deep or has a __proto__ key,
 * each saying which).
 */
import { readJsonObjectText } from '../json/json-text-problem.js';
import { parseUntrustedJson } from '../json/untrusted-json.js';
import type { JsonSchema } from '../types.js';
import { isFreeForm, isOpenMap, isPlainObject, openMapValues, pairListProblem, pairValueIsJson } from './formats/open-shapes.js';

const ABSENT = Symbol('absent');

function types(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
}

function admitsNull(schema: JsonSchema): boolean {
  if (types(schema).includes('null') || schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((b) => isPlainObject(b) && admitsNull(b as JsonSchema))) return true;
  }
  return false;
}

/** The input with the model-side representations read back (a new object; `input` is not changed). */
export function decodeModelInput(schema: JsonSchema, input: Record<string, unknown>): Record<string, unknown> {
  const out = decode(schema, input, false);
  return isPlainObject(out) ? out : input;
}

function decode(schema: JsonSchema, value: unknown, optional: boolean): unknown {
  if (value === null) return optional && !admitsNull(schema) ? ABSENT : null;
  if (isOpenMap(schema)) return decodeMap(schema, value);
  if (typeof value === 'string' && isFreeForm(schema)) return parseObject(value);
  if (Array.isArray(value)) {
    return isPlainObject(schema.items) ? value.map((item) => decode(schema.items as JsonSchema, item, false)) : value;
  }
  if (!isPlainObject(value)) return value;
  const shape = objectShape(schema, value);
  if (!shape) return value;
  const required = new Set(Array.isArray(shape.required) ? (shape.required as string[]) : []);
  const props = shape.properties as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, key) ? props[key] : undefined;
    const decoded = sub ? decode(sub, v, !required.has(key)) : v;
    if (decoded !== ABSENT) out[key] = decoded;
  }
  return out;
}

/** The object schema with declared properties that describes `value`: the schema itself, or the union branch whose required keys are all present. */
function objectShape(schema: JsonSchema, value: Record<string, unknown>): JsonSchema | undefined {
  if (isPlainObject(schema.properties)) return schema;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches)) return undefined;
  return branches.find((b) => isPlainObject(b) && isPlainObject(b.properties) && (Array.isArray(b.required) ? (b.required as string[]) : []).every((k) => Object.hasOwn(value, k)));
}

function decodeMap(schema: JsonSchema, value: unknown): unknown {
  const values = openMapValues(schema);
  let entries: Array<[string, unknown]>;
  if (Array.isArray(value)) {
    if (pairListProblem(value) !== undefined) return value;
    const json = pairValueIsJson(values);
    entries = (value as Array<{ name: string; value: unknown }>).map((p) => [p.name, json && typeof p.value === 'string' ? parseJson(p.value) : p.value]);
  } else if (isPlainObject(value)) {
    entries = Object.entries(value);
  } else if (typeof value === 'string') {
    // The JSON text of the whole map, as models write an object argument (`"props": "{\"firstname\": \"Ana\"}"`).
    const read = readJsonObjectText(value);
    if (!('object' in read)) return value;
    entries = Object.entries(read.object);
  } else {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = decode(values, v, false);
  return out;
}

/**
 * JSON text as the service reads any caller JSON (runtime/json/: the depth limit, no prototype-poisoning keys). The
 * body's own depth check cannot see into a string, so a text nested 20,000 deep overflowed the validator's stack here.
 */
function parseJson(text: string): unknown {
  try {
    return parseUntrustedJson(text);
  } catch {
    return text;
  }
}

/**
 * JSON text of an object, parsed; anything else stays the string, which the validator refuses as not an object,
 * saying why by the same reading (validation/violations.ts).
 */
function parseObject(text: string): unknown {
  const read = readJsonObjectText(text);
  return 'object' in read ? read.object : text;
}
