/**
 * One walk that rewrites the model-facing input schema into the JSON Schema subset one API accepts. Each closed
 * format (OpenAI strict, Anthropic, Gemini) is a {@link Dialect}: which keywords and formats it keeps, whether every
 * property must be listed in `required`, how it closes objects and writes null. What a dialect cannot express moves
 * into the description text (the service's validator still enforces it when the tool runs); open maps and free-form
 * values are rewritten as open-shapes.ts says, and the executor reads them back.
 */
import type { JsonSchema } from '../../types.js';
import { FORMAT_DESCRIPTIONS } from '../../validation/formats.js';
import { isFreeForm, isOpenMap, isPlainObject, modelSideValue, openMapValues, pairValueIsJson } from './open-shapes.js';

export interface Dialect {
  /**
   * Every property is listed in `required`; an optional one admits null instead, which the executor reads as absent
   * (OpenAI strict mode: "all fields must be required").
   */
  allRequired: boolean;
  /** `additionalProperties: false` on every object (OpenAI strict, Anthropic strict), or never the keyword (Gemini). */
  closeObjects: boolean;
  /** Keywords kept as they are, beyond the structural ones every dialect writes. */
  keep: ReadonlySet<string>;
  /** String formats kept; any other format is described in words. */
  formats: ReadonlySet<string>;
  /** How null is admitted: a `type` list for plain scalars (else `anyOf` with a null branch), or Gemini's `nullable`. */
  nulls: 'type-list' | 'any-of' | 'nullable';
  /** `const` as it is, or as a one-value `enum` (Gemini has no `const`). */
  constAs: 'const' | 'enum';
  /**
   * What an `enum` may list: any JSON value, or strings only (Gemini: the Schema's `enum` is a list of strings, and
   * the API refuses a number, boolean or null in it). With strings only, a null value becomes the null the dialect
   * writes, and an enum (or a `const`) of other values is written in the description, its type kept.
   */
  enumValues: 'any' | 'strings';
  /** Type names as JSON Schema writes them, or Gemini's upper-case `Type` enum. */
  upperCaseTypes: boolean;
  /** Which `minItems` values stay (Anthropic strict: only 0 and 1); the others are described. */
  minItems?: (n: number) => boolean;
}

/** Keywords every dialect writes itself (structure), never copied or described as they are. */
const STRUCTURAL = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'description', 'oneOf', 'anyOf', 'format', 'title', 'readOnly', '$schema', '$id', '$comment']);

/** The keywords that constrain one JSON type: a type list splits them among its branches. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['format', 'pattern', 'minLength', 'maxLength'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
};
const TYPED = new Set(Object.values(TYPE_KEYWORDS).flat());

/** The part of a multi-type schema that applies to type `t`. */
function branchOf(schema: JsonSchema, t: string): JsonSchema {
  const branch: JsonSchema = { type: t };
  for (const k of TYPE_KEYWORDS[t] ?? []) if (schema[k] !== undefined) branch[k] = schema[k];
  return branch;
}

/** The rewritten input schema of one tool for one dialect. */
export function toDialect(schema: JsonSchema, dialect: Dialect): JsonSchema {
  return adapt(schema, dialect);
}

function typeList(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
}

/** The JSON Schema type of a JSON value. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeName(t: string, d: Dialect): string {
  return d.upperCaseTypes ? t.toUpperCase() : t;
}

function joinText(...parts: Array<string | undefined>): string | undefined {
  const text = parts.filter((p): p is string => !!p && p.trim() !== '').map((p) => p.trim()).join(' ');
  return text === '' ? undefined : text;
}

function sentence(text: string): string {
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

/** The words for keywords a dialect drops, in a fixed order so every emitted description is deterministic. */
function describeDropped(schema: JsonSchema, dropped: ReadonlySet<string>): string | undefined {
  const out: string[] = [];
  const has = (k: string) => dropped.has(k) && schema[k] !== undefined;
  if (has('format')) out.push(`Must be ${FORMAT_DESCRIPTIONS[schema.format as string] ?? `in the ${String(schema.format)} format`}.`);
  if (has('minLength')) out.push(schema.minLength === 1 ? 'Must not be empty.' : `At least ${String(schema.minLength)} characters.`);
  if (has('maxLength')) out.push(`At most ${String(schema.maxLength)} characters.`);
  if (has('pattern')) out.push(`Must match the regular expression ${String(schema.pattern)}.`);
  if (has('multipleOf')) out.push(schema.multipleOf === 1 ? 'A whole number.' : `A multiple of ${String(schema.multipleOf)}.`);
  if (has('minimum') && has('maximum')) out.push(`From ${String(schema.minimum)} to ${String(schema.maximum)}.`);
  else if (has('minimum')) out.push(`At least ${String(schema.minimum)}.`);
  else if (has('maximum')) out.push(`At most ${String(schema.maximum)}.`);
  if (has('exclusiveMinimum')) out.push(`Greater than ${String(schema.exclusiveMinimum)}.`);
  if (has('exclusiveMaximum')) out.push(`Less than ${String(schema.exclusiveMaximum)}.`);
  if (has('minItems')) out.push(`At least ${String(schema.minItems)} item${schema.minItems === 1 ? '' : 's'}.`);
  if (has('maxItems')) out.push(`At most ${String(schema.maxItems)} items.`);
  if (has('uniqueItems') && schema.uniqueItems === true) out.push('Items must be unique.');
  if (has('enum')) out.push(`One of ${(schema.enum as unknown[]).filter((v) => v !== null).map((v) => JSON.stringify(v)).join(', ')}.`);
  if (has('const')) out.push(`Must be ${JSON.stringify(schema.const)}.`);
  if (has('default')) out.push(`Default: ${JSON.stringify(schema.default)}.`);
  if (has('examples') && Array.isArray(schema.examples) && schema.examples.length > 0) out.push(`Example: ${JSON.stringify(modelSideValue(schema, schema.examples[0]))}.`);
  const described = new Set(['enum', 'const', 'format', 'minLength', 'maxLength', 'pattern', 'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'uniqueItems', 'default', 'examples']);
  for (const k of [...dropped].sort()) {
    if (!described.has(k) && schema[k] !== undefined) out.push(`${k}: ${JSON.stringify(schema[k])}.`);
  }
  return out.length ? out.join(' ') : undefined;
}

function adapt(schema: JsonSchema, d: Dialect): JsonSchema {
  if (isOpenMap(schema)) return pairs(schema, d);
  if (isFreeForm(schema)) return jsonText(schema, d);
  const out: JsonSchema = {};
  const dropped = new Set<string>();
  let nullable = false;

  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  const types = typeList(schema);
  if (types.includes('null')) nullable = true;
  const concrete = types.filter((t) => t !== 'null');
  if (Array.isArray(branches)) {
    // A union is written as anyOf (OpenAI strict and Gemini have no oneOf); the type beside it is dropped, as
    // Gemini refuses both together and every branch states its own.
    out.anyOf = branches.map((b) => adapt(b, d));
  } else if (concrete.length > 1) {
    // A type list becomes one branch per type, each with the keywords that apply to that type; the description,
    // examples and default stay on the union.
    out.anyOf = concrete.map((t) => adapt(branchOf(schema, t), d));
    for (const k of Object.values(TYPE_KEYWORDS).flat()) dropped.add(k);
  } else if (concrete.length === 1) {
    out.type = typeName(concrete[0]!, d);
  }

  const literals = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : 'const' in schema ? [schema.const] : undefined;
  // A null among an enum's values is written as the dialect writes null, beside the enum of the other values: OpenAI
  // strict mode refuses an enum value its type does not admit (`enum value null does not validate against {'type':
  // 'string'}`), and Gemini's enum lists strings.
  const values = literals?.filter((v) => v !== null);
  if (values !== undefined && values.length < literals!.length && (types.length === 0 || types.includes('null'))) nullable = true;
  const hasNumber = values?.some((v) => jsonType(v) === 'number') ?? false;
  const literalType = (v: unknown) => (hasNumber && jsonType(v) === 'integer' ? 'number' : jsonType(v));
  const literalTypes = [...new Set((values ?? []).map(literalType))];
  if (values !== undefined && d.enumValues === 'strings') {
    if (literalTypes.length === 1) out.type ??= typeName(literalTypes[0]!, d);
    if (literalTypes.length === 1 && literalTypes[0] === 'string') out.enum = values;
    else if (literalTypes.length > 1 && concrete.length === 0) {
      // Values of several types and no type (enum ["auto", 0, 1]): one branch per value type, as a type list is
      // written, so each branch has a type (Gemini requires one) and the strings stay a STRING enum; the numbers
      // and booleans are described in their branch as above.
      out.anyOf = literalTypes.map((t) => adapt({ type: t, enum: values.filter((v) => literalType(v) === t) }, d));
    } else if (values.length > 0) dropped.add(Array.isArray(schema.enum) ? 'enum' : 'const');
  } else {
    if ('const' in schema) {
      if (d.constAs === 'const') out.const = schema.const;
      else out.enum = [schema.const];
    }
    if (Array.isArray(schema.enum) && values!.length > 0) out.enum = values;
    // A literal's schema states its type (a bare `{"const": "emoji"}` has none): OpenAI strict mode refuses a schema
    // with neither a type nor a union ("schema must have a 'type' key"), and the others take it as it is.
    if (out.type === undefined && out.anyOf === undefined && literalTypes.length > 0) {
      out.type = literalTypes.length === 1 ? typeName(literalTypes[0]!, d) : literalTypes.map((t) => typeName(t, d));
    }
  }
  if (schema.format !== undefined && concrete.length <= 1) {
    if (d.formats.has(schema.format as string)) out.format = schema.format;
    else dropped.add('format');
  }
  for (const [k, v] of Object.entries(schema)) {
    if (STRUCTURAL.has(k) || (concrete.length > 1 && dropped.has(k))) continue;
    if (k === 'minItems' && d.minItems && !d.minItems(v as number)) dropped.add(k);
    else if (d.keep.has(k)) out[k] = v;
    else dropped.add(k);
  }

  if (isPlainObject(schema.properties) && concrete.length <= 1) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const props: Record<string, JsonSchema> = {};
    for (const [name, sub] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const adapted = adapt(sub, d);
      props[name] = d.allRequired && !required.has(name) ? withNull(adapted, d) : adapted;
    }
    out.properties = props;
    const req = d.allRequired ? Object.keys(props) : [...required];
    // All required: the list is written even when empty (OpenAI's strict transform adds `required: []`).
    if (req.length > 0 || d.allRequired) out.required = req;
    if (d.closeObjects) out.additionalProperties = false;
  }
  if (isPlainObject(schema.items) && concrete.length <= 1) out.items = adapt(schema.items as JsonSchema, d);

  const spoken = concrete.length > 1 ? new Set([...dropped].filter((k) => !TYPED.has(k))) : dropped;
  const description = joinText(schema.description === undefined ? undefined : sentence(String(schema.description)), describeDropped(schema, spoken));
  const result = description === undefined ? out : withDescription(out, description);
  return nullable ? withNull(result, d) : result;
}

/** `description` placed first: models read keys in order, and it keeps the emitted JSON easy to scan. */
function withDescription(schema: JsonSchema, description: string): JsonSchema {
  const { description: _old, ...rest } = schema;
  return { description, ...rest };
}

/** The schema admitting null as well (null stands for "absent" in the closed formats). */
function withNull(schema: JsonSchema, d: Dialect): JsonSchema {
  if (d.nulls === 'nullable') return { ...schema, nullable: true };
  const t = schema.type;
  if (t === 'null' || (Array.isArray(t) && t.includes('null'))) return schema;
  if (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((b) => b.type === 'null')) return schema;
  if (d.nulls === 'type-list' && typeof t === 'string' && schema.enum === undefined && schema.const === undefined) {
    return { ...schema, type: [t, 'null'] };
  }
  const { description, ...rest } = schema;
  if (Array.isArray(rest.anyOf) && Object.keys(rest).length === 1) {
    return { ...(description === undefined ? {} : { description }), anyOf: [...(rest.anyOf as JsonSchema[]), { type: 'null' }] };
  }
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

/** An open map as an array of `{name, value}` pairs (see open-shapes.ts). */
function pairs(schema: JsonSchema, d: Dialect): JsonSchema {
  const values = openMapValues(schema);
  const json = pairValueIsJson(values);
  const valueTypes = typeList(values);
  let value: JsonSchema = json
    ? { description: 'The value as JSON text.', type: typeName('string', d) }
    : { description: 'The value.', type: typeName('string', d) };
  if (!json && valueTypes.includes('null')) value = withNull(value, d);
  const how = json
    ? 'Give it as a list of {name, value} entries, one per key, each value being the JSON text of that key\'s value.'
    : 'Give it as a list of {name, value} entries, one per key.';
  const example = Array.isArray(schema.examples) && isPlainObject(schema.examples[0])
    ? ` Example: ${JSON.stringify(modelSideValue(schema, schema.examples[0]))}.`
    : '';
  const item: JsonSchema = {
    type: typeName('object', d),
    properties: { name: { description: 'The key.', type: typeName('string', d) }, value },
    required: ['name', 'value'],
    ...(d.closeObjects ? { additionalProperties: false } : {}),
  };
  return {
    description: joinText(schema.description === undefined ? undefined : sentence(String(schema.description)), how + example)!,
    type: typeName('array', d),
    items: item,
  };
}

/** A free-form value as JSON text (see open-shapes.ts). */
function jsonText(schema: JsonSchema, d: Dialect): JsonSchema {
  const example = Array.isArray(schema.examples) && schema.examples.length > 0 ? ` Example: ${JSON.stringify(JSON.stringify(schema.examples[0]))}.` : '';
  const out: JsonSchema = {
    description: joinText(schema.description === undefined ? undefined : sentence(String(schema.description)), `Give it as the text of a JSON object.${example}`)!,
    type: typeName('string', d),
  };
  return typeList(schema).includes('null') ? withNull(out, d) : out;
}
