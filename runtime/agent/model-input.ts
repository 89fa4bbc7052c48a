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
 *
 * The reading also keeps the way back ({@link ModelInput.modelSide}): the validator and the pre-checks find their
 * violations in the decoded input, and the executor answers each at its place in the arguments the model wrote.
 */
import { readJsonObjectText } from '../json/json-text-problem.js';
import { parseUntrustedJson } from '../json/untrusted-json.js';
import type { JsonSchema, Violation } from '../types.js';
import { pointerName, pointerToken } from '../validation/violations.js';
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

/**
 * The way back from a place in the decoded input to the place in the input as the model wrote it, below one value;
 * `undefined` where the two are the same (an input sent as objects has no route at all). `text`: the value was JSON
 * text, so nothing below it has a pointer of its own in what the model wrote. Otherwise each decoded key (as a
 * pointer token) that moved or has a route below it, with the model's tokens for it; `pairs` when the value was a
 * `{name, value}` pair list, whose decoded keys are not tokens of the list.
 */
type Route = { text: true } | { text?: undefined; pairs: boolean; steps: Map<string, { tokens: readonly string[]; route: Route | undefined }> };

const TEXT: Route = { text: true };

/** The input read back, and what turns a violation found in it into one said of the input the model wrote. */
export interface ModelInput {
  /** The input in the shape the validator checks (a new object; the input given is not changed). */
  input: Record<string, unknown>;
  /**
   * `violation`, found in {@link input} (by the validator or a pre-check), said of the input as the model wrote it:
   * a pair's value at `/properties/0/value` (not `/properties/title`, which the model's array does not have); inside a
   * value read from JSON text, that text's pointer, the message saying where inside it (`select.name in the JSON text
   * of properties[1].value must ...`); a name no pair has, the list. The message's name of the place is renamed
   * with it. The same violation where the model wrote objects (and where a null was read as absent).
   */
  modelSide(violation: Violation): Violation;
}

/** The input with the model-side representations read back, and the way back from its pointers (see {@link ModelInput}). */
export function readModelInput(schema: JsonSchema, input: Record<string, unknown>): ModelInput {
  const [out, route] = decode(schema, input, false);
  const decoded = isPlainObject(out) ? out : input;
  return { input: decoded, modelSide: (violation) => (route === undefined ? violation : saidOfModel(route, violation)) };
}

/** The input with the model-side representations read back (a new object; `input` is not changed). */
export function decodeModelInput(schema: JsonSchema, input: Record<string, unknown>): Record<string, unknown> {
  return readModelInput(schema, input).input;
}

type Decoded = [unknown, Route | undefined];

function decode(schema: JsonSchema, value: unknown, optional: boolean): Decoded {
  if (value === null) return [optional && !admitsNull(schema) ? ABSENT : null, undefined];
  if (isOpenMap(schema)) return decodeMap(schema, value);
  if (typeof value === 'string' && isFreeForm(schema)) return parseObject(value);
  if (Array.isArray(value)) {
    if (!isPlainObject(schema.items)) return [value, undefined];
    const steps: Map<string, { tokens: readonly string[]; route: Route | undefined }> = new Map();
    const out = value.map((item, i) => {
      const [v, route] = decode(schema.items as JsonSchema, item, false);
      if (route !== undefined) steps.set(String(i), { tokens: [String(i)], route });
      return v;
    });
    return [out, steps.size > 0 ? { pairs: false, steps } : undefined];
  }
  if (!isPlainObject(value)) return [value, undefined];
  const shape = objectShape(schema, value);
  if (!shape) return [value, undefined];
  const required = new Set(Array.isArray(shape.required) ? (shape.required as string[]) : []);
  const props = shape.properties as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  const steps: Map<string, { tokens: readonly string[]; route: Route | undefined }> = new Map();
  for (const [key, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, key) ? props[key] : undefined;
    const [decoded, route] = sub ? decode(sub, v, !required.has(key)) : [v, undefined];
    if (decoded !== ABSENT) out[key] = decoded;
    if (route !== undefined) steps.set(pointerToken(key), { tokens: [pointerToken(key)], route });
  }
  return [out, steps.size > 0 ? { pairs: false, steps } : undefined];
}

/** The object schema with declared properties that describes `value`: the schema itself, or the union branch whose required keys are all present. */
function objectShape(schema: JsonSchema, value: Record<string, unknown>): JsonSchema | undefined {
  if (isPlainObject(schema.properties)) return schema;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches)) return undefined;
  return branches.find((b) => isPlainObject(b) && isPlainObject(b.properties) && (Array.isArray(b.required) ? (b.required as string[]) : []).every((k) => Object.hasOwn(value, k)));
}

function decodeMap(schema: JsonSchema, value: unknown): Decoded {
  const values = openMapValues(schema);
  const out: Record<string, unknown> = {};
  const steps: Map<string, { tokens: readonly string[]; route: Route | undefined }> = new Map();
  if (Array.isArray(value)) {
    if (pairListProblem(value) !== undefined) return [value, undefined];
    const json = pairValueIsJson(values);
    (value as Array<{ name: string; value: unknown }>).forEach((pair, i) => {
      const text = json && typeof pair.value === 'string' ? parseJson(pair.value) : undefined;
      const [v, route] = decode(values, text === undefined ? pair.value : text.value, false);
      out[pair.name] = v;
      steps.set(pointerToken(pair.name), { tokens: [String(i), 'value'], route: text === undefined ? route : TEXT });
    });
    return [out, { pairs: true, steps }];
  }
  let entries: Array<[string, unknown]>;
  let route: Route | undefined;
  if (isPlainObject(value)) {
    entries = Object.entries(value);
  } else if (typeof value === 'string') {
    // The JSON text of the whole map, as models write an object argument (`"props": "{\"firstname\": \"Ana\"}"`).
    const read = readJsonObjectText(value);
    if (!('object' in read)) return [value, undefined];
    entries = Object.entries(read.object);
    route = TEXT;
  } else {
    return [value, undefined];
  }
  for (const [k, v] of entries) {
    const [decoded, below] = decode(values, v, false);
    out[k] = decoded;
    if (below !== undefined) steps.set(pointerToken(k), { tokens: [pointerToken(k)], route: below });
  }
  return [out, route ?? (steps.size > 0 ? { pairs: false, steps } : undefined)];
}

/** Where a pointer into the decoded input is in the input the model wrote (see {@link ModelInput.modelSide}). */
function modelPointer(route: Route, pointer: string): { pointer: string; inside?: string; exact: boolean } {
  if (pointer === '') return { pointer, exact: true };
  const tokens = pointer.slice(1).split('/');
  const out: string[] = [];
  let node: Route | undefined = route;
  for (let i = 0; i < tokens.length; i++) {
    if (node === undefined) {
      out.push(...tokens.slice(i));
      break;
    }
    if (node.text) return { pointer: joined(out), inside: `/${tokens.slice(i).join('/')}`, exact: true };
    const step = node.steps.get(tokens[i]!);
    if (step === undefined) {
      // A key no pair is named (a required one): the list it goes in. Any other place is where the model wrote it.
      if (node.pairs) return { pointer: joined(out), exact: false };
      out.push(...tokens.slice(i));
      break;
    }
    out.push(...step.tokens);
    node = step.route;
  }
  return { pointer: joined(out), exact: true };
}

function joined(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t}`).join('');
}

function saidOfModel(route: Route, violation: Violation): Violation {
  const at = modelPointer(route, violation.pointer);
  if (at.pointer === violation.pointer && at.inside === undefined) return violation;
  if (!at.exact) return { ...violation, pointer: at.pointer };
  const name = pointerName(at.pointer);
  const inner = at.inside === undefined ? undefined : pointerName(at.inside);
  const renamed = renameIn(violation.message, pointerName(violation.pointer), inner === undefined ? name : `${inner} in the JSON text of ${name}`);
  const message = renamed ?? (inner === undefined ? violation.message : `In the JSON text of ${name}, at ${inner}: ${violation.message}`);
  return { ...violation, pointer: at.pointer, message };
}

/** `message` with its first mention of the place named `from` (as a whole name, not part of a longer one) said as `to`; undefined without one. */
function renameIn(message: string, from: string, to: string): string | undefined {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?<![\\w.\\]])${escaped}(?![\\w[]|\\.\\w)`).exec(message);
  return found === null ? undefined : message.slice(0, found.index) + to + message.slice(found.index + from.length);
}

/**
 * JSON text as the service reads any caller JSON (runtime/json/: the depth limit, no prototype-poisoning keys). The
 * body's own depth check cannot see into a string, so a text nested 20,000 deep overflowed the validator's stack here.
 */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: parseUntrustedJson(text) };
  } catch {
    return undefined;
  }
}

/**
 * JSON text of an object, parsed; anything else stays the string, which the validator refuses as not an object,
 * saying why by the same reading (validation/violations.ts).
 */
function parseObject(text: string): Decoded {
  const read = readJsonObjectText(text);
  return 'object' in read ? [read.object, TEXT] : [text, undefined];
}
