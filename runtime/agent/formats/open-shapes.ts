/**
 * The two input shapes the closed formats (OpenAI strict, Anthropic, Gemini) cannot write as they are, and how they
 * are written instead. The format emitters and the executor's decoder (runtime/agent/model-input.ts) both ask these
 * functions, so the representation sent to a model and the one read back cannot drift apart.
 *
 * - An **open map** (an object whose keys are data: Notion database `properties`, HubSpot `props`) is an object with
 *   `additionalProperties` and no `properties`. Strict modes require `additionalProperties: false`, which would
 *   forbid every key, so it is written as an array of `{name, value}` pairs.
 * - A **free-form value** (an object with no declared properties, e.g. one Google Docs request) cannot be closed
 *   either, so it is written as JSON text. (Every spec schema names its type: `npm run generate` checks it.)
 */
import type { JsonSchema } from '../../types.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function types(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
}

/** An object keyed by data: `additionalProperties` names a schema (or true) and no property is declared. */
export function isOpenMap(schema: JsonSchema): boolean {
  const ap = schema.additionalProperties;
  const declared = isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0;
  return !declared && (ap === true || isPlainObject(ap)) && (types(schema).length === 0 || types(schema).includes('object'));
}

/** The schema of an open map's values (`true` becomes the empty schema: any value). */
export function openMapValues(schema: JsonSchema): JsonSchema {
  return isPlainObject(schema.additionalProperties) ? (schema.additionalProperties as JsonSchema) : {};
}

/**
 * An object with no shape a closed format can state: no declared properties, and not an open map. A closed object
 * with no properties (`additionalProperties: false`: the input of a tool that takes none) states its shape, `{}`.
 */
export function isFreeForm(schema: JsonSchema): boolean {
  if (isOpenMap(schema) || schema.additionalProperties === false) return false;
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || Array.isArray(schema.enum) || 'const' in schema) return false;
  const t = types(schema).filter((x) => x !== 'null');
  return t.length === 1 && t[0] === 'object' && !(isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0);
}

/**
 * Whether a pair's `value` is JSON text (the map's values are objects or anything) or the value itself (the map's
 * values may be strings, so a string is sent as it is: HubSpot takes every property value as a string).
 */
export function pairValueIsJson(values: JsonSchema): boolean {
  return !types(values).includes('string');
}

/**
 * Why a list is not an open map written as `{name, value}` pairs (every item a pair with a string `name` and a
 * `value`, each name once), or `undefined` when it is one. The decoder reads back only such a list; a validation
 * message says what is wrong with any other, so a model given the pair format can correct it.
 */
export function pairListProblem(list: readonly unknown[]): string | undefined {
  const malformed = list.findIndex((p) => !isPlainObject(p) || typeof p.name !== 'string' || !Object.hasOwn(p, 'value'));
  if (malformed >= 0) return `item ${malformed} needs a string name and a value`;
  // Assigned to the decoded object, this name would set its prototype (the pair gone unchecked, its value what every
  // missing key reads as): refused, as a __proto__ key of any caller JSON is (runtime/json/untrusted-json.ts).
  const proto = list.findIndex((p) => (p as { name: string }).name === '__proto__');
  if (proto >= 0) return `item ${proto} is named "__proto__", which is not a name a map can take`;
  const seen = new Set<string>();
  for (const { name } of list as ReadonlyArray<{ name: string }>) {
    if (seen.has(name)) return `${JSON.stringify(name)} is given twice`;
    seen.add(name);
  }
  return undefined;
}

/**
 * A value of `schema` (an example, in the shape the catalog takes) written as the closed formats have the model write
 * it: an open map as its `{name, value}` pairs (the JSON text of each value, or a scalar value as the string the pair
 * takes), a free-form object as its JSON text, at any depth. The examples in the descriptions are what a model copies,
 * so they must be values the format's own schema admits: `[{"name": "amount", "value": "15000"}]`, not `15000`, where
 * a pair's value is a string, and `["{\"insertText\": ...}"]` where a list's items are JSON text.
 */
export function modelSideValue(schema: JsonSchema, value: unknown): unknown {
  if (isOpenMap(schema) && isPlainObject(value)) {
    const json = pairValueIsJson(openMapValues(schema));
    return Object.entries(value).map(([name, v]) => ({ name, value: json ? JSON.stringify(v) : v === null || typeof v === 'string' ? v : JSON.stringify(v) }));
  }
  if (isFreeForm(schema) && isPlainObject(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return isPlainObject(schema.items) ? value.map((v) => modelSideValue(schema.items as JsonSchema, v)) : value;
  if (!isPlainObject(value)) return value;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  const shape = isPlainObject(schema.properties)
    ? schema
    : branches?.find((b) => isPlainObject(b) && isPlainObject(b.properties) && (Array.isArray(b.required) ? (b.required as string[]) : []).every((k) => Object.hasOwn(value, k)));
  if (!shape) return value;
  const props = shape.properties as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Object.hasOwn(props, k) && isPlainObject(props[k]) ? modelSideValue(props[k]!, v) : v]));
}
