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
