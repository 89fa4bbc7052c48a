import { randomBytes, randomUUID } from 'node:crypto';
import { isTimeZone } from '../calendar/time.js';
import { isObject, normalizeId, unionValidation, validation } from './errors.js';
import { richText } from './rich-text.js';

/** A database property (a column) in response form: `{id, name, type, <type>: config}`. */
export interface PropertySchema {
  id: string;
  name: string;
  type: string;
  [config: string]: unknown;
}

export type Schema = Record<string, PropertySchema>;

const WRITABLE = new Set(['title', 'rich_text', 'number', 'select', 'multi_select', 'status', 'date', 'people', 'files', 'checkbox', 'url', 'email', 'phone_number', 'relation']);
const READ_ONLY = new Set(['formula', 'rollup', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by', 'unique_id']);
const COLORS = ['default', 'gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'];

/** Characters Notion's property ids are made of: letters, digits and punctuation that URLs must escape. */
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789[]{}<>;:=?@^|`';

/**
 * Four-character property ids like Notion's, which it lists percent-encoded (`%5BJCR`, `AJP%7D`, `M%3BBw`); the
 * stored form is that listed form. The title's id is always `title`. Unique within the schema.
 */
function propertyId(taken: ReadonlySet<string>): string {
  for (;;) {
    const raw = [...randomBytes(4)].map((b) => ID_CHARS[b % ID_CHARS.length]).join('');
    const id = encodeURIComponent(raw);
    if (!taken.has(id) && id !== 'title') return id;
  }
}

function option(o: unknown, path: string): { id: string; name: string; color: string } {
  if (!isObject(o) || typeof o.name !== 'string' || !o.name) throw validation(`${path}.name should be defined, instead was \`undefined\`.`);
  if (o.name.includes(',')) throw validation(`${path}.name should not contain commas.`);
  const color = typeof o.color === 'string' ? o.color : 'default';
  if (!COLORS.includes(color)) throw validation(`${path}.color should be one of ${COLORS.join(', ')}.`);
  return { id: randomUUID().slice(0, 8), name: o.name, color };
}

/**
 * Builds a database schema from a create-database `properties` body; exactly one title property is required.
 * `ids` fixes some columns' ids (in listed, percent-encoded form), for seed data tests can rely on.
 * @see https://developers.notion.com/reference/property-schema-object
 */
export function buildSchema(input: unknown, ids: Record<string, string> = {}): Schema {
  if (!isObject(input)) throw validation('body.properties should be an object, instead was `undefined`.');
  const schema: Schema = {};
  let titles = 0;
  for (const [name, def] of Object.entries(input)) {
    const at = `body.properties.${name}`;
    if (!isObject(def)) throw validation(`${at} should be an object.`);
    const keys = Object.keys(def).filter((k) => k !== 'type' && k !== 'name' && k !== 'description');
    const type = typeof def.type === 'string' ? def.type : keys[0];
    if (!type || (!WRITABLE.has(type) && !READ_ONLY.has(type))) throw validation(`${at} should define a property type, instead was \`${JSON.stringify(def)}\`.`);
    // The type's own key carries the definition and is required even when `type` names it (`{type: "title"}` alone
    // is refused): Notion's reference says each property schema object has at least one key which is the property
    // type, and its official client types `title: EmptyObject` as required, `type` as optional. The wording is the
    // sandbox's, in the style of Notion's validator.
    if (def[type] === undefined) throw validation(`body failed validation: ${at}.${type} should be defined, instead was \`undefined\`.`);
    if (!isObject(def[type])) throw validation(`body failed validation: ${at}.${type} should be an object, instead was \`${JSON.stringify(def[type])}\`.`);
    const config = { ...(def[type] as Record<string, unknown>) };
    if (type === 'title') titles += 1;
    if (type === 'select' || type === 'multi_select' || type === 'status') {
      const opts = Array.isArray(config.options) ? config.options : [];
      config.options = opts.map((o, i) => option(o, `${at}.${type}.options[${i}]`));
    }
    if (type === 'number') config.format = typeof config.format === 'string' ? config.format : 'number';
    const taken = new Set([...Object.values(schema).map((p) => p.id), ...Object.values(ids)]);
    schema[name] = { id: type === 'title' ? 'title' : (ids[name] ?? propertyId(taken)), name, type, [type]: config };
  }
  if (titles !== 1) throw validation(titles === 0 ? 'Title is not provided' : 'Only one title property is allowed.');
  return schema;
}

/** The schema of a page whose parent is a page or the workspace: one `title` property. */
export const PAGE_SCHEMA: Schema = { title: { id: 'title', name: 'title', type: 'title', title: {} } };

function decodedId(p: PropertySchema): string {
  try {
    return decodeURIComponent(p.id);
  } catch {
    return p.id;
  }
}

/**
 * Finds a property by exact (case-sensitive) name or by id, decoded (`[JCR`) or as listed (`%5BJCR`): Notion documents
 * property keys, sorts and filters as taking "the name or ID"; which id form it takes in a JSON body is not settled by
 * its documentation, and the sandbox accepts both.
 */
export function findProperty(schema: Schema, key: string): PropertySchema | undefined {
  if (Object.hasOwn(schema, key)) return schema[key];
  return Object.values(schema).find((p) => p.id === key || decodedId(p) === key);
}

/**
 * A `filter_properties` value: a property id as it arrives once the query string is decoded, i.e. the decoded id
 * (`[JCR`). The official SDK decodes each listed id before sending for that reason; an id encoded twice arrives as
 * `%5BJCR` and matches nothing.
 */
export function findPropertyByWireId(schema: Schema, key: string): PropertySchema | undefined {
  return Object.values(schema).find((p) => decodedId(p) === key);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** An offset other than zero at the end of an ISO 8601 date-time. */
const NON_ZERO_OFFSET = /[+-](?!00:00$)\d{2}:\d{2}$/;

/**
 * A date value's `time_zone`: an IANA zone name, and then `start` and `end` must be local date-times (a time, and no
 * offset other than zero), as Notion's time-zone support requires; its refusals name the property by its id.
 * @see https://developers.notion.com/reference/page-property-values#date
 */
function checkTimeZone(prop: PropertySchema, date: Record<string, unknown>, path: string): string | null {
  const zone = date.time_zone;
  if (zone === undefined || zone === null) return null;
  // A name the offset form (+01:00) could pass for is refused too: Notion takes zone names only.
  if (typeof zone !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone) || !isTimeZone(zone)) {
    throw validation(`${path}.date.time_zone should be an IANA time zone name, instead was \`${JSON.stringify(zone)}\`.`);
  }
  for (const value of [date.start, date.end]) {
    if (typeof value !== 'string') continue;
    if (!value.includes('T')) throw validation(`${decodedId(prop)} has an invalid date. If time zone is explicitly provided, start and end must contain date and time.`);
    if (NON_ZERO_OFFSET.test(value)) throw validation(`${decodedId(prop)} has an invalid date. If time zone is explicitly provided, start and end can't have non-zero time offsets from UTC.`);
  }
  return zone;
}

/**
 * One item of a `files` value: a named external file (`external.url`), a named Notion-hosted file (`file.url`), or
 * an uploaded file (`file_upload.id`, name optional). Kept as given once checked.
 * @see https://developers.notion.com/reference/page-property-values#files
 */
function fileItem(item: unknown, path: string): unknown {
  if (!isObject(item)) throw validation(`${path} should be an object, instead was \`${JSON.stringify(item)}\`.`);
  const name = item.name;
  if (name !== undefined && typeof name !== 'string') throw validation(`${path}.name should be a string, instead was \`${JSON.stringify(name)}\`.`);
  if (item.file_upload !== undefined) {
    normalizeId(isObject(item.file_upload) ? item.file_upload.id : undefined, `${path}.file_upload.id`);
    return item;
  }
  const kind = item.external !== undefined ? 'external' : item.file !== undefined ? 'file' : undefined;
  if (kind === undefined) {
    throw unionValidation([`${path}.file should be defined, instead was \`undefined\`.`, `${path}.external should be defined, instead was \`undefined\`.`]);
  }
  const target = item[kind];
  if (!isObject(target) || typeof target.url !== 'string') {
    throw validation(`${path}.${kind}.url should be a string, instead was \`${JSON.stringify(isObject(target) ? target.url : target)}\`.`);
  }
  if (target.url.length > 2000) throw validation(`${path}.${kind}.url.length should be ≤ \`2000\`, instead was \`${target.url.length}\`.`);
  if (name === undefined) throw validation(`${path}.name should be defined, instead was \`undefined\`.`);
  return item;
}

/** Validates one property value against its schema; returns the stored (response-form) value. Mutates select options. */
export function writeValue(prop: PropertySchema, value: unknown, path: string): unknown {
  if (READ_ONLY.has(prop.type)) throw validation(`${prop.name} is a ${prop.type} property and cannot be written.`);
  if (!isObject(value)) throw validation(`${path} should be an object.`);
  if (!(prop.type in value)) throw validation(`${prop.name} is expected to be ${prop.type}.`);
  const v = value[prop.type];
  switch (prop.type) {
    case 'title':
    case 'rich_text':
      return richText(v, `${path}.${prop.type}`);
    case 'number':
      if (v !== null && (typeof v !== 'number' || !Number.isFinite(v))) throw validation(`${path}.number should be a number or \`null\`.`);
      return v;
    case 'checkbox':
      if (typeof v !== 'boolean') throw validation(`${path}.checkbox should be a boolean.`);
      return v;
    case 'url':
    case 'email':
    case 'phone_number': {
      if (v !== null && typeof v !== 'string') throw validation(`${path}.${prop.type} should be a string or \`null\`.`);
      const max = prop.type === 'url' ? 2000 : 200;
      if (typeof v === 'string' && v.length > max) throw validation(`${path}.${prop.type}.length should be ≤ \`${max}\`.`);
      return v;
    }
    case 'select':
    case 'status':
      return v === null ? null : pickOption(prop, v, `${path}.${prop.type}`, prop.type === 'select');
    case 'multi_select':
      if (!Array.isArray(v)) throw validation(`${path}.multi_select should be an array.`);
      if (v.length > 100) throw validation(`${path}.multi_select.length should be ≤ \`100\`.`);
      return v.map((o, i) => pickOption(prop, o, `${path}.multi_select[${i}]`, true));
    case 'date': {
      if (v === null) return null;
      if (!isObject(v) || typeof v.start !== 'string' || !ISO_DATE.test(v.start)) throw validation(`${path}.date.start should be a valid ISO 8601 date string.`);
      if (v.end !== undefined && v.end !== null && (typeof v.end !== 'string' || !ISO_DATE.test(v.end))) throw validation(`${path}.date.end should be a valid ISO 8601 date string.`);
      return { start: v.start, end: v.end ?? null, time_zone: checkTimeZone(prop, v, path) };
    }
    case 'people':
    case 'relation':
      if (!Array.isArray(v)) throw validation(`${path}.${prop.type} should be an array.`);
      if (v.length > 100) throw validation(`${path}.${prop.type}.length should be ≤ \`100\`.`);
      return v.map((p, i) => {
        const id = normalizeId(isObject(p) ? p.id : undefined, `${path}.${prop.type}[${i}].id`);
        return prop.type === 'people' ? { object: 'user', id } : { id };
      });
    case 'files':
      if (!Array.isArray(v)) throw validation(`${path}.files should be an array.`);
      return v.map((item, i) => fileItem(item, `${path}.files[${i}]`));
    default:
      throw validation(`${prop.name}: unsupported property type ${prop.type}.`);
  }
}

function pickOption(prop: PropertySchema, v: unknown, path: string, create: boolean): unknown {
  if (!isObject(v)) throw validation(`${path} should be an object or \`null\`.`);
  const config = prop[prop.type] as { options: { id: string; name: string; color: string }[] };
  const found = config.options.find((o) => (typeof v.id === 'string' && o.id === v.id) || (typeof v.name === 'string' && o.name === v.name));
  if (found) return { ...found };
  if (typeof v.id !== 'string' && typeof v.name !== 'string') {
    // An option is named by id or by name: with neither, Notion refuses the union, one line for each (the lines as it
    // writes a union's branches, e.g. "body.properties.Due Date.date.id should be defined, instead was `undefined`.").
    const branch = (key: 'id' | 'name') =>
      v[key] === undefined ? `${path}.${key} should be defined, instead was \`undefined\`.` : `${path}.${key} should be a string, instead was \`${JSON.stringify(v[key])}\`.`;
    throw unionValidation([branch('id'), branch('name')]);
  }
  if (!create || typeof v.name !== 'string') throw validation(`${path}: option \`${typeof v.name === 'string' ? v.name : String(v.id)}\` does not exist.`);
  // Notion adds an unknown select option to the schema on write.
  const created = option({ name: v.name, color: v.color }, path);
  config.options.push(created);
  return { ...created };
}

const EMPTY: Record<string, unknown> = {
  title: [],
  rich_text: [],
  number: null,
  select: null,
  status: null,
  multi_select: [],
  date: null,
  people: [],
  relation: [],
  files: [],
  checkbox: false,
  url: null,
  email: null,
  phone_number: null,
};

/** A page's property in response form, with the empty value of its type when unset. */
export function renderValue(prop: PropertySchema, stored: unknown, page: { created_time: string; last_edited_time: string; created_by: unknown; last_edited_by: unknown }): Record<string, unknown> {
  const base = { id: prop.id, type: prop.type };
  switch (prop.type) {
    case 'created_time':
      return { ...base, created_time: page.created_time };
    case 'last_edited_time':
      return { ...base, last_edited_time: page.last_edited_time };
    case 'created_by':
      return { ...base, created_by: page.created_by };
    case 'last_edited_by':
      return { ...base, last_edited_by: page.last_edited_by };
    case 'relation':
      return { ...base, relation: stored ?? [], has_more: false };
    case 'formula':
      return { ...base, formula: { type: 'string', string: null } };
    case 'rollup':
      return { ...base, rollup: { type: 'array', array: [], function: 'show_original' } };
    case 'unique_id':
      return { ...base, unique_id: { prefix: null, number: null } };
    default:
      return { ...base, [prop.type]: stored === undefined ? EMPTY[prop.type] ?? null : stored };
  }
}
