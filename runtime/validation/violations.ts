/**
 * Turns ajv's errors into {@link Violation}s whose messages name the parameter (`page_size must be <= 100`,
 * `unknown parameter 'foo'`). Runs only on the failure path, so it may allocate freely.
 */
import type { JsonSchema, Violation } from '../types.js';
import { isFreeForm, isOpenMap, isPlainObject, pairListProblem } from '../agent/formats/open-shapes.js';
import { readJsonObjectText } from '../json/json-text-problem.js';
import { closestMatch } from './closest-match.js';
import { addressProblem, formatProblem, quotesProblem } from './format-problems.js';
import { FORMAT_DESCRIPTIONS } from './formats.js';

/** The subset of ajv's `ErrorObject` this module reads (kept structural so generated code needs no ajv types). */
export interface AjvErrorLike {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, any>;
}

/** `/sorts/0/direction` -> `sorts[0].direction`; the empty pointer is `root` (`input` for tool inputs). */
export function pointerName(pointer: string, root = 'input'): string {
  if (pointer === '') return root;
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const seg = tokenKey(raw);
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** One key as a JSON pointer reference token: `~` and `/` escaped (RFC 6901, section 3). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The key a JSON pointer reference token names: {@link pointerToken} undone. */
function tokenKey(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function valueAt(input: unknown, pointer: string): unknown {
  let v = input;
  if (pointer === '') return v;
  for (const raw of pointer.slice(1).split('/')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[tokenKey(raw)];
  }
  return v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/**
 * What an object was given as a list of `{name, value}` pairs (the closed model formats' way to write an open map,
 * read back by runtime/agent/model-input.ts) lacks, after the bare "must be an object": without it a model given the
 * pair format has nothing to correct.
 */
function pairListHint(value: unknown): string {
  const looksLikePairs = Array.isArray(value) && value.length > 0 && value.every((p) => isPlainObject(p) && Object.hasOwn(p, 'name'));
  const problem = looksLikePairs ? pairListProblem(value) : undefined;
  return problem === undefined ? '' : ` or a list of {name, value} pairs; ${problem}`;
}

/**
 * Why a string given for a free-form object (which the closed model formats send as JSON text, read back by
 * runtime/agent/model-input.ts; a Notion property value in a `{name, value}` pair too) was not taken as one, after
 * the bare "must be an object": too deep, a __proto__ key, the JSON of something else, or not JSON at all, which
 * also says what was expected and shows what to send (the value's example, as mapValueExampleHint finds it for a map
 * value). Other objects take no JSON text, so nothing is said for them.
 */
function jsonTextHint(schema: JsonSchema | undefined, typePath: string, pointer: string, value: unknown): string {
  if (typeof value !== 'string' || schema === undefined) return '';
  const node = schemaAt(schema, typePath.slice(0, typePath.lastIndexOf('/')));
  if (!isPlainObject(node) || !(isFreeForm(node as JsonSchema) || isOpenMap(node as JsonSchema))) return '';
  const read = readJsonObjectText(value);
  if (!('problem' in read)) return '';
  if (!read.notJson) return `: ${read.problem}`;
  return `: ${read.problem}; expected JSON text of an object${mapValueExample(schema, typePath, pointer) || exampleHint(schema, typePath)}`;
}

/** Longest example (as JSON) a violation message quotes; a longer one is left to the schema the caller has. */
const EXAMPLE_MAX = 120;

/**
 * `, e.g. "RRULE:FREQ=WEEKLY;COUNT=5"`: the first example of the schema node a keyword at `keywordPath` refused
 * (`#/properties/recurrence/items/pattern`), or of the array it is the items of, when it has none of its own; the
 * empty string without one, or when it is long.
 */
function exampleHint(schema: JsonSchema | undefined, keywordPath: string): string {
  if (schema === undefined) return '';
  const nodePath = keywordPath.slice(0, keywordPath.lastIndexOf('/'));
  const own = examplesOf(schemaAt(schema, nodePath));
  let example: unknown = own?.[0];
  if (own === undefined && nodePath.endsWith('/items')) {
    const list = examplesOf(schemaAt(schema, nodePath.slice(0, -'/items'.length)))?.[0];
    example = Array.isArray(list) ? list[0] : undefined;
  }
  return exampleText(example);
}

/** Whether `text` matches a schema's pattern, as ajv reads it (unicode flag); false for a pattern that does not compile. */
function patternMatches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** `, e.g. <the example as JSON>`; the empty string when there is none or it is long. */
function exampleText(example: unknown): string {
  if (example === undefined) return '';
  const text = JSON.stringify(example);
  return text.length <= EXAMPLE_MAX ? `, e.g. ${text}` : '';
}

/** Longest description a violation message quotes. */
const DESCRIPTION_MAX = 300;

/**
 * ` (Minutes of the event's length, 0 to 59; put whole hours in event_duration_hour ...)`: the description of the
 * schema node a keyword at `keywordPath` refused, for a bound: the limit alone does not say where a larger or smaller
 * amount goes (90 minutes are event_duration_hour 1 and event_duration_minutes 30), its description does. The empty
 * string without one, or when it is long.
 */
function descriptionHint(schema: JsonSchema | undefined, keywordPath: string): string {
  return describe(schema === undefined ? undefined : schemaAt(schema, keywordPath.slice(0, keywordPath.lastIndexOf('/'))));
}

/**
 * ` (Calendar that holds the event; \`primary\` for the user's main calendar)`: the description of the property a
 * `required` keyword at `requiredPath` (`#/required`, `#/properties/parent/required`) found missing. "calendar_id is
 * required" alone says where, not what to send; the description says what the value is and where it comes from.
 */
function requiredHint(schema: JsonSchema | undefined, requiredPath: string, key: string): string {
  const object = schema === undefined ? undefined : schemaAt(schema, requiredPath.slice(0, requiredPath.lastIndexOf('/')));
  const properties = isPlainObject(object) ? object.properties : undefined;
  return describe(isPlainObject(properties) && Object.hasOwn(properties, key) ? properties[key] : undefined);
}

/** ` (<the node's description>)`, without its final full stop; the empty string without one, or when it is long. */
function describe(node: unknown): string {
  const text = isPlainObject(node) && typeof node.description === 'string' ? node.description.trim().replace(/\.$/, '') : '';
  return text !== '' && text.length <= DESCRIPTION_MAX ? ` (${text})` : '';
}

function examplesOf(node: unknown): readonly unknown[] | undefined {
  return isPlainObject(node) && Array.isArray(node.examples) && node.examples.length > 0 ? node.examples : undefined;
}

/**
 * `, not an object keyed by name (Date, Item, Amount): the names are not sent, only the values, in the order they
 * go: [...]`: a list of plain values (a Sheets row) given as an object keyed by what each value is, the way a header
 * row names a table's columns. The keys are dropped and the values quoted back in the order given, which is the
 * caller's to check; for a list of such lists (Sheets' `values` given one row object), the list of one. The empty
 * string for anything else, or when the keys or the values would make a long message.
 */
function keyedListHint(schema: JsonSchema | undefined, typePath: string, types: readonly string[], value: unknown): string {
  if (types.length !== 1 || types[0] !== 'array' || schema === undefined || !isPlainObject(value)) return '';
  const names = Object.keys(value).join(', ');
  const entries = Object.values(value);
  if (entries.length === 0 || names.length > KEYED_NAMES_MAX || !entries.every((v) => v === null || SCALARS.has(typeof v))) return '';
  const node = schemaAt(schema, typePath.slice(0, typePath.lastIndexOf('/')));
  const items = isPlainObject(node) && isPlainObject(node.items) ? node.items : undefined;
  if (items === undefined) return '';
  const itemTypes = ([] as unknown[]).concat(items.type);
  const rows = itemTypes.length === 1 && itemTypes[0] === 'array';
  if (!rows && !itemTypes.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t))) return '';
  const send = JSON.stringify(rows ? [entries] : entries);
  const said = `not an object keyed by name (${names}): the names are not sent, only the values, in the order they go`;
  if (rows) return ` of arrays, ${said}${send.length <= FLAT_LIST_MAX ? `; for one, send ${send}` : ''}`;
  return `, ${said}${send.length <= FLAT_LIST_MAX ? `: ${send}` : ''}`;
}

/** Longest list of an object's keys quoted back by {@link keyedListHint}. */
const KEYED_NAMES_MAX = 200;
const SCALARS: ReadonlySet<string> = new Set(['string', 'number', 'boolean']);
const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * The schema's example after "must be a string" when a list was given, and after "must be an array" when one value
 * was: models send `["email", "firstname"]` for a comma-separated `properties` and `"ana@example.com"` for
 * `attendees_emails`, and the example shows the shape to use (`"email,firstname,lastname"`, `["ana@example.com"]`).
 */
function listShapeHint(schema: JsonSchema | undefined, typePath: string, types: readonly string[], value: unknown): string {
  const listForOne = Array.isArray(value) && !types.includes('array');
  const oneForList = value !== null && value !== undefined && !Array.isArray(value) && types.length === 1 && types[0] === 'array';
  return listForOne || oneForList ? exampleHint(schema, typePath) : '';
}

/**
 * `, not the text "10": send 10 without quotes` when a number or boolean was sent as a string holding exactly one (a
 * model's commonest slip with a typed parameter). The value is not converted: what the caller meant is theirs to say.
 */
function quotedScalarHint(types: readonly string[], value: unknown): string {
  if (typeof value !== 'string' || value.length > 40) return '';
  const text = value.trim();
  const meant =
    (types.includes('integer') && /^-?\d+$/.test(text)) ||
    (types.includes('number') && text !== '' && Number.isFinite(Number(text)) && /^-?[\d.eE+-]+$/.test(text)) ||
    (types.includes('boolean') && (text === 'true' || text === 'false'));
  if (meant) return `, not the text ${JSON.stringify(value)}: send ${text} without quotes`;
  const numeric = types.includes('number') || types.includes('integer');
  if (!numeric || Number.isFinite(Number(text)) || !WRITTEN_AMOUNT.test(text)) return '';
  const digits = types.includes('number') ? 'digits and a decimal point only, e.g. 1234.5' : 'digits only, e.g. 1234';
  return `, not the text ${JSON.stringify(value)}: send a number without quotes, written with ${digits} (no thousands separators, spaces or currency sign)`;
}

/**
 * An amount written for a reader (`1 500,50`, `$5,000`, `1.234.567`, `12 €`): digits with the separators and the
 * currency signs people write, which no number parses. What it means (is `1,500` 1500 or 1.5?) is not guessed.
 */
const WRITTEN_AMOUNT = /^[-+]?\p{Sc}?\s?\d[\d\s.,'\u00a0\u202f]*\s?\p{Sc}?$/u;

/**
 * `, not the number 101: send "101"`: a number (or boolean) where any text is taken, most often a record's id
 * (HubSpot's are digits, sent as strings), is told the same value quoted. Text of a format or from a list (a URL, a
 * date, an option) is not: the value quoted would be refused next.
 */
function unquotedTextHint(schema: JsonSchema | undefined, typePath: string, types: readonly string[], value: unknown): string {
  if (types.length !== 1 || types[0] !== 'string' || schema === undefined) return '';
  const node = schemaAt(schema, typePath.slice(0, typePath.lastIndexOf('/')));
  if (!isPlainObject(node) || node.format !== undefined || node.enum !== undefined || node.const !== undefined) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `, not the number ${value}: send ${JSON.stringify(String(value))}`;
  if (typeof value === 'boolean') return `, not the boolean ${value}: send ${JSON.stringify(String(value))}`;
  return '';
}

/**
 * ` (true to e-mail the attendees (sendUpdates=all); false ...)`: a flag given as a word (`"all"`, `"yes"`), the
 * provider's own value for what the flag sends, is told what true and false mean, from its description.
 */
function wordForFlagHint(schema: JsonSchema | undefined, keywordPath: string, types: readonly string[], value: unknown): string {
  return types.length === 1 && types[0] === 'boolean' && typeof value === 'string' ? descriptionHint(schema, keywordPath) : '';
}

/**
 * `, e.g. {"title":[{"text":{"content":"Project plan"}}]}` when a value of an open map of objects (Notion's
 * `properties`) was given as something other than an object or the JSON text of one (a bare title, a rich-text
 * array), where "the text is not JSON" would point the wrong way: the value of the first example naming that key; for a key
 * no example names (a database's `Priority`), each value shape the examples show, one per type key
 * (`, the value object of its type, e.g. {"title":[...]}, {"select":{"name":"Open"}} or {"number":3}`), since any one
 * of them alone (the title's) reads as the shape that key takes.
 */
function mapValueExampleHint(schema: JsonSchema | undefined, typePath: string, pointer: string, value: unknown): string {
  if (isPlainObject(value) || (typeof value === 'string' && /^\s*[{[]/.test(value))) return '';
  return mapValueExample(schema, typePath, pointer);
}

/** mapValueExampleHint's example for the map value at `pointer`, whatever was given; the empty string for other values. */
function mapValueExample(schema: JsonSchema | undefined, typePath: string, pointer: string): string {
  if (schema === undefined || !typePath.endsWith('/additionalProperties/type')) return '';
  const key = tokenKey(pointer.slice(pointer.lastIndexOf('/') + 1));
  const maps = (examplesOf(schemaAt(schema, typePath.slice(0, -'/additionalProperties/type'.length))) ?? []).filter(isPlainObject);
  const first = maps[0];
  if (first === undefined) return '';
  const naming = maps.find((map) => Object.hasOwn(map, key));
  if (naming !== undefined) return exampleText(naming[key]);
  const shapes = new Map<string, string>();
  for (const map of maps) {
    for (const v of Object.values(map)) {
      const type = isPlainObject(v) ? Object.keys(v).join(',') : JSON.stringify(v);
      if (!shapes.has(type)) shapes.set(type, JSON.stringify(v));
    }
  }
  const texts = [...shapes.values()];
  if (texts.length === 1) return exampleText(first[Object.keys(first)[0] as string]);
  const listed = `${texts.slice(0, -1).join(', ')} or ${texts[texts.length - 1]}`;
  return listed.length <= SHAPES_MAX ? `, the value object of its type, e.g. ${listed}` : exampleText(Object.values(first)[0]);
}

/** Longest list of value shapes a map value's refusal quotes. */
const SHAPES_MAX = 400;

/**
 * `: {requiredRevisionId} or {targetRevisionId}, with no other key`: the shapes of a `oneOf`/`anyOf` a value matched
 * none of (or, for `oneOf`, more than one of), each as the keys it requires (with a `const` key's value:
 * `{type: "emoji", emoji}`) or its type; the empty string when a branch cannot be said so.
 */
function shapesHint(schema: JsonSchema | undefined, keywordPath: string): string {
  const branches = schema === undefined ? undefined : schemaAt(schema, keywordPath);
  if (!Array.isArray(branches) || branches.length === 0) return '';
  const shapes = branches.map(shapeOf);
  if (shapes.some((shape) => shape === undefined)) return '';
  const closed = branches.every((b) => isPlainObject(b) && Array.isArray(b.required) && b.additionalProperties === false);
  return `: ${shapes.join(' or ')}${closed ? ', with no other key' : ''}`;
}

function shapeOf(branch: unknown): string | undefined {
  if (!isPlainObject(branch)) return undefined;
  if (Array.isArray(branch.required) && branch.required.length > 0) {
    const properties = isPlainObject(branch.properties) ? branch.properties : {};
    const keys = branch.required.map((key) => {
      const property = properties[String(key)];
      return isPlainObject(property) && 'const' in property ? `${String(key)}: ${JSON.stringify(property.const)}` : String(key);
    });
    return `{${keys.join(', ')}}`;
  }
  return typeof branch.type === 'string' ? TYPE_WORDS[branch.type] : undefined;
}

/** The node of `schema` at an ajv `schemaPath` (`#/properties/sorts/items`), if there is one. */
function schemaAt(schema: JsonSchema, schemaPath: string): unknown {
  let node: unknown = schema;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[tokenKey(raw)];
  }
  return node;
}

/** Declared keys named when an unknown key is close to none: a whole tool's parameters fit; a longer list is cut. */
const MAX_LISTED_KEYS = 30;

/**
 * ` Did you mean 'max_results'?` when the object that refused `key` declares a key it misspells (`maxResults`,
 * `calender_id`; closestMatch's rule, as for workspace column names); else the keys it declares, from
 * {@link unknownKeyHint}. Computed keys (`readOnly`, such as `_parent`) are never named: a caller must not send them.
 * Nor are the root's `unnamed` keys (a tool's version parameters, left out of the schemas models are shown): a
 * caller that knows them may send them, but a model is not pointed at parameters it was never shown.
 */
function declaredKeyHint(schema: JsonSchema | undefined, additionalPropertiesPath: string, key: string, atRoot: boolean, unnamed: readonly string[]): string {
  if (schema === undefined) return '';
  const object = schemaAt(schema, additionalPropertiesPath.slice(0, additionalPropertiesPath.lastIndexOf('/')));
  const properties = isPlainObject(object) ? object.properties : undefined;
  if (!isPlainObject(properties)) return '';
  const declared = Object.keys(properties).filter(
    (k) => !(isPlainObject(properties[k]) && properties[k].readOnly === true) && !(atRoot && unnamed.includes(k)),
  );
  return insideHint(key, declared, properties) || unknownKeyHint(key, declared, atRoot);
}

/**
 * `. It goes inside comment: {"comment": {"rich_text": ...}}` when `key` is not a key of this object but of exactly
 * one of its declared object values (or of the objects of one declared list, `{"filterGroups": [{"filters": ...}]}`):
 * a key sent one level too high, as a provider's own body has it (Notion's comment `rich_text`, HubSpot's `filters`,
 * a Sheet's `title` beside its `properties`), or of the one open map whose description names it ({@link namedByOpenMap}).
 * The name is exact; a near miss is the edit distance's.
 */
function insideHint(key: string, declared: readonly string[], properties: Record<string, unknown>): string {
  const found: string[] = [];
  for (const name of declared) {
    const node = properties[name];
    if (!isPlainObject(node)) continue;
    if (isPlainObject(node.properties) && Object.hasOwn(node.properties, key)) found.push(`{${JSON.stringify(name)}: {${JSON.stringify(key)}: ...}}`);
    else if (isPlainObject(node.items) && isPlainObject(node.items.properties) && Object.hasOwn(node.items.properties, key)) {
      found.push(`{${JSON.stringify(name)}: [{${JSON.stringify(key)}: ...}]}`);
    }
    if (found.length > 1) return '';
  }
  if (found.length === 0) found.push(...namedByOpenMap(key, declared, properties));
  if (found.length !== 1) return '';
  return `. It goes inside ${JSON.parse(found[0]!.slice(1, found[0]!.indexOf(':')))}: ${found[0]}`;
}

/**
 * `{"properties": {"dealstage": ...}}` for each declared open map (an object of free keys, HubSpot's deal
 * `properties`, a contact's `props`) whose description names `key` as a word among the keys it takes: a record's
 * field sent beside the map that holds it (`{deal_id, dealstage}`), as a provider's flat body has it. A word quoted
 * in JSON (`"content"` in the example `{"title": {"title": [{"text": {"content": "Plan"}}]}}`) is a key of a value's
 * shape, not one the map takes: Notion's page `text` or `content` sent at the top goes nowhere in `properties`.
 */
function namedByOpenMap(key: string, declared: readonly string[], properties: Record<string, unknown>): string[] {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The word, not inside a longer name, and not between double quotes.
  const word = new RegExp(`(?<![\\w.-])(?<!")${escaped}(?![\\w-])|(?<=")${escaped}(?![\\w"-])`);
  return declared.flatMap((name) => {
    const node = properties[name];
    const open = isPlainObject(node) && node.type === 'object' && node.properties === undefined && isPlainObject(node.additionalProperties);
    return open && typeof node.description === 'string' && word.test(node.description) ? [`{${JSON.stringify(name)}: {${JSON.stringify(key)}: ...}}`] : [];
  });
}

/**
 * What follows `unknown parameter 'x'` (at the root) or `unknown key 'x' in y`: ` Did you mean 'max_results'?` for
 * a near miss of a declared key, or for the one declared key it is the start or end of, else the declared keys (`. Known parameters: query, limit, after`, at most 30), so
 * that a caller who guessed a name (`filters`, `attendees`) is told the real ones in the same answer; when none is
 * declared, at the root that the tool takes none (`. The tool takes no parameters: send {}`), else the empty string. Every refusal of an unknown key says it this way (tool inputs, API bodies, MCP meta-tools).
 */
export function unknownKeyHint(key: string, declared: readonly string[], atRoot: boolean): string {
  const near = closestMatch(key, declared);
  const suggestion = (near !== undefined && !replacesWord(key, near) ? near : undefined) ?? wordsMatch(key, declared) ?? cursorMatch(key, declared);
  if (suggestion !== undefined) return `. Did you mean '${suggestion}'?`;
  if (declared.length === 0) return atRoot ? '. The tool takes no parameters: send {}' : '';
  const listed = declared.slice(0, MAX_LISTED_KEYS).join(', ');
  const more = declared.length > MAX_LISTED_KEYS ? ` and ${declared.length - MAX_LISTED_KEYS} more` : '';
  return `. Known ${atRoot ? 'parameters' : 'keys'}: ${listed}${more}`;
}

/**
 * Whether `near`, within the edit distance of `key`, has as many `_`-separated words as `key` but one of them is
 * another word, not a misspelling of it (`time_zone` and `time_min`: zone is not min), so the guess would point a
 * caller at a parameter that does something else. `calender_id` for `calendar_id` is a misspelling and stays guessed.
 */
function replacesWord(key: string, near: string): boolean {
  const a = key.toLowerCase().split('_');
  const b = near.toLowerCase().split('_');
  if (a.length < 2 || a.length !== b.length) return false;
  return a.some((word, i) => word !== b[i] && closestMatch(word, [b[i]!]) === undefined);
}

/** Names a page's cursor goes by, in list answers and in other APIs' requests, lower-cased. */
const CURSOR_NAMES = new Set(['cursor', 'next_cursor', 'nextcursor', 'start_cursor', 'startcursor', 'page_token', 'pagetoken', 'next_page_token', 'nextpagetoken', 'after', 'next', 'next_page', 'nextpage']);

/**
 * The tool's one cursor parameter (`start_cursor`, `page_token`, `after`) for a key that names a page's cursor
 * another way: the answer's own field (`next_cursor`, `nextPageToken`, `paging.next`) passed back under its name.
 */
function cursorMatch(key: string, declared: readonly string[]): string | undefined {
  if (!CURSOR_NAMES.has(key.toLowerCase())) return undefined;
  const found = declared.filter((d) => CURSOR_NAMES.has(d.toLowerCase()));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The one declared key that ends or starts with `key` at a word boundary (`duration_minutes` in
 * `event_duration_minutes`, `attendees` in `attendees_emails`): the part of a long name a model remembers, too far
 * from it for an edit distance. A part several keys share (`id` in `event_id` and `calendar_id`) names none.
 */
function wordsMatch(key: string, declared: readonly string[]): string | undefined {
  // Only a declared key longer than `key` can hold it and a `_`: a huge key is compared with none.
  const found = declared.filter((d) => {
    if (d.length <= key.length + 1) return false;
    const name = d.toLowerCase();
    const k = key.toLowerCase();
    return (name.endsWith(k) && name[name.length - k.length - 1] === '_') || (name.startsWith(k) && name[k.length] === '_');
  });
  return found.length === 1 ? found[0] : undefined;
}

/**
 * How many unknown keys of one input are looked up for a "did you mean": a model misspells a few; a body of thousands
 * of unknown keys gets the rest refused without a hint instead of a lookup each.
 */
export const MAX_KEY_HINTS = 20;

/**
 * One message per ajv error; errors inside a failed `anyOf`/`oneOf` branch are folded into that keyword's message.
 * `root` names the whole value in messages about it (`input must be an object`); the HTTP service passes `body`,
 * `query` or `path` for its request schemas. With the validated `schema`, an unknown key names the declared key it
 * probably misspells (the first {@link MAX_KEY_HINTS} unknown keys); `unnamed` root keys (a tool's version parameters,
 * hidden from models) are accepted as the schema says but never named in that hint. `wireNames` maps the provider's
 * names for renamed parameters to the tool's (`{children: "child_blocks"}`): an unknown root key so named is told
 * the tool's (`Did you mean 'child_blocks'? (the API's name for it)`) when its own near miss names none. `absent`
 * maps the provider's parameters the tool lacks to what to send instead (Notion's `filter`): an unknown root key so
 * named is told that sentence, not a list of names it would have to read the lack from.
 */
export function toViolations(
  errors: readonly AjvErrorLike[] | null | undefined,
  input: unknown,
  root = 'input',
  schema?: JsonSchema,
  unnamed: readonly string[] = [],
  wireNames: Readonly<Record<string, string>> = {},
  absent: Readonly<Record<string, string>> = {},
): Violation[] {
  if (!errors) return [];
  const branchPrefixes = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const out: Violation[] = [];
  let hintsLeft = schema === undefined ? 0 : MAX_KEY_HINTS;
  const hint = (schemaPath: string, key: string, atRoot: boolean): string => {
    if (atRoot && Object.hasOwn(absent, key)) return `: the tool has no ${key}. ${absent[key]}`;
    const declared = hintsLeft-- > 0 ? declaredKeyHint(schema, schemaPath, key, atRoot, unnamed) : '';
    // The name's own near miss (maxResults, max_results) says it already; a name no edit brings near does not.
    if (atRoot && Object.hasOwn(wireNames, key) && !declared.startsWith('. Did you mean')) return `. Did you mean '${wireNames[key]}'? (the API's name for it)`;
    return declared;
  };
  const flat = new Set<string>();
  for (const e of errors) {
    if (branchPrefixes.length > 0 && branchPrefixes.some((p) => e.schemaPath.startsWith(p))) continue;
    const list = flatListAt(e, input);
    if (list === undefined) out.push(toViolation(e, input, root, hint, schema));
    else if (!flat.has(list)) {
      flat.add(list);
      out.push({ pointer: list, message: flatListMessage(pointerName(list, root), valueAt(input, list) as unknown[]), keyword: 'type' });
    }
  }
  return out;
}

/**
 * The pointer of an array of arrays given as the items of one array (Sheets' `values: ["2026-11-25", "Acme", 5000]`
 * for one row), when `e` refuses one of those items for not being an array; else undefined. Every item is refused
 * alike, so one refusal of the whole list says it, where one per item, each with an example of an item, reads as
 * "this item should be the example".
 */
function flatListAt(e: AjvErrorLike, input: unknown): string | undefined {
  if (e.keyword !== 'type' || String(e.params.type) !== 'array' || !e.schemaPath.endsWith('/items/type')) return undefined;
  const list = e.instancePath.slice(0, e.instancePath.lastIndexOf('/'));
  const value = valueAt(input, list);
  return Array.isArray(value) && value.length > 0 && value.every((item) => !Array.isArray(item) && !isPlainObject(item)) ? list : undefined;
}

/** Longest list quoted back, wrapped, in the refusal of a list given flat. */
const FLAT_LIST_MAX = 120;

function flatListMessage(name: string, value: readonly unknown[]): string {
  const wrapped = JSON.stringify([value]);
  const send = wrapped.length <= FLAT_LIST_MAX ? `send ${wrapped}` : 'wrap it in another array, [[...]]';
  return `${name} must be an array of arrays, not the items of one: for one, ${send}`;
}

function toViolation(e: AjvErrorLike, input: unknown, root: string, hint: (schemaPath: string, key: string, atRoot: boolean) => string, schema: JsonSchema | undefined): Violation {
  const p = e.params;
  const at = e.instancePath;
  const name = pointerName(at, root);
  const v = (pointer: string, message: string): Violation => ({ pointer, message, keyword: e.keyword });
  switch (e.keyword) {
    case 'required': {
      const key = String(p.missingProperty);
      const pointer = `${at}/${pointerToken(key)}`;
      return v(pointer, `${pointerName(pointer, root)} is required${requiredHint(schema, e.schemaPath, key)}`);
    }
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const pointer = `${at}/${pointerToken(key)}`;
      const near = hint(e.schemaPath, key, at === '');
      return v(pointer, at === '' ? `unknown parameter '${key}'${near}` : `unknown key '${key}' in ${name}${near}`);
    }
    case 'type': {
      const types = String(p.type).split(',');
      const value = valueAt(input, at);
      const why = types.includes('object')
        ? pairListHint(value) || mapValueExampleHint(schema, e.schemaPath, at, value) || jsonTextHint(schema, e.schemaPath, at, value) || exampleHint(schema, e.schemaPath)
        : keyedListHint(schema, e.schemaPath, types, value) || listShapeHint(schema, e.schemaPath, types, value) || quotedScalarHint(types, value) || unquotedTextHint(schema, e.schemaPath, types, value) || wordForFlagHint(schema, e.schemaPath, types, value);
      return v(at, `${name} must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}${why}`);
    }
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const last = at.slice(at.lastIndexOf('/') + 1);
      if (last === 'tool_version' || last === 'schema_version') {
        return v(at, `unknown ${last} ${JSON.stringify(valueAt(input, at))}; this tool has: ${list(allowed)}`);
      }
      return v(at, `${name} must be one of: ${list(allowed)}`);
    }
    case 'const':
      return v(at, `${name} must be ${JSON.stringify(p.allowedValue)}`);
    case 'format': {
      const format = String(p.format);
      return v(at, `${name} must be ${FORMAT_DESCRIPTIONS[format] ?? `in format ${format}`}${formatProblem(format, valueAt(input, at), /\/\d+$/.test(at))}`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return v(at, `${name} must be ${String(p.comparison)} ${String(p.limit)}${descriptionHint(schema, e.schemaPath)}`);
    case 'multipleOf':
      // `type: number, multipleOf: 1` is how a spec says "whole number" where the upstream takes a JSON number.
      return v(at, p.multipleOf === 1 ? `${name} must be an integer` : `${name} must be a multiple of ${String(p.multipleOf)}`);
    case 'minLength':
      return v(at, p.limit === 1 ? `${name} must not be empty` : `${name} must be at least ${String(p.limit)} characters long`);
    case 'maxLength':
      return v(at, `${name} must be at most ${String(p.limit)} characters long`);
    case 'minItems':
      return v(at, `${name} must have at least ${String(p.limit)} item(s)`);
    case 'maxItems':
      return v(at, `${name} must have at most ${String(p.limit)} item(s)`);
    case 'pattern': {
      const value = valueAt(input, at);
      const matches = (text: string): boolean => patternMatches(String(p.pattern), text);
      const why = quotesProblem(value, matches) || addressProblem(value, matches);
      // Else what the value is and where it comes from (an id given as a name: which search returns it), then its example.
      return v(at, `${name} must match the pattern ${String(p.pattern)}${why || descriptionHint(schema, e.schemaPath) + exampleHint(schema, e.schemaPath)}`);
    }
    case 'anyOf':
    case 'oneOf':
      return v(at, `${name} does not match any of its allowed shapes${shapesHint(schema, e.schemaPath)}`);
    case 'uniqueItems':
      return v(at, `${name} must not contain duplicate items (${String(p.j)} and ${String(p.i)} are equal)`);
    default:
      return v(at, `${name} is invalid (${e.keyword})`);
  }
}
