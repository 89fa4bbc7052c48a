/**
 * Field names in a JSON request body of a proto-backed Google API (Sheets v4, Docs v1), read as Google's JSON front
 * end reads them. proto3's JSON mapping has parsers accept a field's lowerCamelCase JSON name and its original proto
 * name alike ("Parsers accept both the lowerCamelCase name ... and the original proto field name"), and Google's
 * does in practice: Sheets batchUpdate bodies written with `update_cells`, `repeat_cell`, `sheet_id`,
 * `user_entered_format` (and a field mask `user_entered_format.number_format`) are applied. So `insert_text` is
 * `insertText`, `end_of_segment_location` is `endOfSegmentLocation`; responses always use the JSON names.
 * @see https://protobuf.dev/programming-guides/json/
 */
import { GoogleApiError } from './errors.js';
import { isRecord } from './request.js';

/** A proto field name as proto style writes one: lower case words joined by underscores. */
const PROTO_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** The JSON name of a key given by its proto name (`end_of_segment_location` -> `endOfSegmentLocation`); other keys unchanged. */
export function jsonName(key: string): string {
  return PROTO_NAME.test(key) ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key;
}

/**
 * A copy of a JSON value with every object key given by its proto name renamed to its JSON name, `depth` levels of
 * objects deep (all of them by default). A field given under both names is refused: which one Google keeps is not
 * known, so the sandbox does not pick one.
 */
export function withJsonNames(value: unknown, depth = Number.POSITIVE_INFINITY): unknown {
  if (depth <= 0) return value;
  if (Array.isArray(value)) return value.map((v) => withJsonNames(v, depth));
  if (!isRecord(value)) return value;
  const given = new Map<string, string>();
  const entries: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(value)) {
    const name = jsonName(key);
    const other = given.get(name);
    if (other !== undefined) {
      throw new GoogleApiError(400, `Invalid JSON payload received. "${other}" and "${key}" are the same field, ${name}: give it once (the sandbox does not model which one Google keeps).`);
    }
    given.set(name, key);
    entries.push([name, withJsonNames(v, depth - 1)]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return Object.fromEntries(entries);
}

/** `endOfSegmentLocation` -> `end_of_segment_location`: a field's proto name, as the parser's error paths give it. */
export function protoName(json: string): string {
  return json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A message's fields by their JSON names, each mapped to the message type it holds (looked into), or null (not). */
export type ProtoMessage = Readonly<Record<string, string | null>>;

/**
 * Google's refusal of a field name a message does not have, at `at` (a path of proto names); at the body's top level
 * (`at` empty) without a place: `Invalid JSON payload received. Unknown name "requests": Cannot find field.`
 */
export function unknownFieldProblem(name: string, at: string): string {
  return at === '' ? `Invalid JSON payload received. Unknown name "${name}": Cannot find field.` : `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;
}

/** Refuses a body with every unknown-field problem found in it, one line each, as Google lists them (400 INVALID_ARGUMENT). */
export function refuseUnknownFields(problems: readonly string[]): void {
  if (problems.length > 0) throw new GoogleApiError(400, problems.join('\n'));
}

/**
 * Every field name in `value` that its message does not have, as Google's JSON front end refuses them before anything
 * is applied, looking into each field that holds a message (each item of a list of them) by its type in `messages`.
 * A field given by its proto name is read as its JSON name; paths name fields by their proto names.
 */
export function unknownFieldProblems(value: unknown, message: ProtoMessage, at: string, messages: Readonly<Record<string, ProtoMessage>>): string[] {
  if (!isRecord(value)) return [];
  const problems: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const name = jsonName(key);
    if (!Object.hasOwn(message, name)) {
      problems.push(unknownFieldProblem(key, at));
      continue;
    }
    const type = message[name];
    if (!type) continue;
    const path = `${at}.${protoName(name)}`;
    const items = Array.isArray(inner) ? inner.map((item, i) => [item, `${path}[${i}]`] as const) : [[inner, path] as const];
    for (const [item, itemAt] of items) problems.push(...unknownFieldProblems(item, messages[type] as ProtoMessage, itemAt, messages));
  }
  return problems;
}

/**
 * The one kind a batchUpdate request names (its JSON name), as Sheets and Docs read a `Request`, a oneof: a request
 * that is not an object, names no kind, or names two is refused in the parser's words, as observed live: `Invalid
 * value at 'requests[0]' (oneof), oneof field 'request' is already set. Cannot set 'deleteContentRange'`.
 * `requestType` is the message's full name (`google.apps.docs.v1.Request`).
 */
export function batchRequestKind(request: unknown, i: number, requestType: string): { kind: string; sent: string } {
  if (!isRecord(request)) throw new GoogleApiError(400, `Invalid value at 'requests[${i}]' (type.googleapis.com/${requestType})`);
  const kinds = Object.keys(request);
  if (kinds.length !== 1) {
    throw new GoogleApiError(400, kinds.length === 0
      ? `Invalid requests[${i}]: The request must specify exactly one kind of request.`
      : `Invalid value at 'requests[${i}]' (oneof), oneof field 'request' is already set. Cannot set '${kinds[1]}'`);
  }
  const sent = kinds[0] as string;
  return { kind: jsonName(sent), sent };
}

/**
 * An int32 field's value as Google's JSON mapping reads it: a string of a decimal integer (`"index": "5"`) is that
 * number, as proto3 JSON accepts for every integer type; anything else is returned as given, for the caller to check.
 * @see https://protobuf.dev/programming-guides/json/ (int32: "Either numbers or strings are accepted")
 */
export function int32Value(v: unknown): unknown {
  return typeof v === 'string' && /^-?\d{1,10}$/.test(v) ? Number(v) : v;
}
