/**
 * Whether a page property value can fit its column's type, by shape (Notion itself checks option ids and lengths):
 * the value is `{<type>: ...}` and the inner value is what that type takes. Each refusal names the column, its type
 * and an example value. Two checks go past the shape: a select, multi-select or status option named with another
 * case or spacing than an existing option (`done` for `Done`) is refused naming that option, as Notion would add a
 * second option for a select ("If the option does not exist, it will be created") and silently file the row under it;
 * and a status option that does not exist at all, which Notion cannot create and refuses.
 * @see https://developers.notion.com/reference/page-property-values
 */
import { isPlainObject } from '../agent/formats/open-shapes.js';
import type { Column } from './workspace-schema.js';

/** Columns Notion computes; a write to them is refused. */
export const READ_ONLY_TYPES: ReadonlySet<string> = new Set(['formula', 'rollup', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by', 'unique_id', 'button', 'verification']);

const isArray = (v: unknown) => Array.isArray(v);
const nullOr = (test: (v: unknown) => boolean) => (v: unknown) => v === null || test(v);
const isString = (v: unknown) => typeof v === 'string';
const isOption = (v: unknown) => isPlainObject(v) && (typeof v.name === 'string' || typeof v.id === 'string');
const isDate = (v: unknown) => isPlainObject(v) && typeof v.start === 'string';

interface TypeShape {
  /** Does the inner value fit? */
  fits: (inner: unknown) => boolean;
  /** What the inner value is, for the message. */
  expected: string;
  /** An example inner value, as JSON, given the column and the option name the caller meant, when one can be told. */
  example: (column: Column, meant?: string) => unknown;
}

function optionNames(column: Column): string[] {
  const options = (column[column.type] as { options?: Array<{ name?: unknown }> } | undefined)?.options ?? [];
  return options.map((o) => o?.name).filter((n): n is string => typeof n === 'string');
}

/** The option the caller meant (by exact name, else but for case or spacing), else the column's first, else `fallback`. */
function firstOption(column: Column, fallback: string, meant?: string): string {
  const names = optionNames(column);
  const named = meant === undefined ? undefined : (names.find((n) => n === meant) ?? names.find((n) => fold(n) === fold(meant)));
  return named ?? names[0] ?? fallback;
}

/**
 * The option name a value of the wrong shape carries: a plain string (`"Done"`), a string under a key
 * (`{"select": "Done"}`), or a name under another type's key (`{"status": {"name": "Done"}}` for a select column),
 * so the example a refusal gives is the value the caller meant, written the right way.
 */
function meantName(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isPlainObject(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'type' || key === 'id') continue;
    if (typeof inner === 'string') return inner;
    const item = Array.isArray(inner) ? inner[0] : inner;
    if (isPlainObject(item) && typeof item.name === 'string') return item.name;
  }
  return undefined;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** A user or page reference, `{id}` with the id a UUID (hyphens optional), as Notion takes it. */
const hasUuid = (p: unknown) => isPlainObject(p) && typeof p.id === 'string' && UUID.test(p.id);

const SHAPES: Record<string, TypeShape> = {
  title: { fits: isArray, expected: 'an array of rich-text items', example: () => [{ text: { content: 'Write the report' } }] },
  rich_text: { fits: isArray, expected: 'an array of rich-text items', example: () => [{ text: { content: 'Some text' } }] },
  number: { fits: nullOr((v) => typeof v === 'number'), expected: 'a number or null', example: () => 42 },
  checkbox: { fits: (v) => typeof v === 'boolean', expected: 'true or false', example: () => true },
  select: { fits: nullOr(isOption), expected: 'an object {name} (or {id}), or null', example: (c, meant) => ({ name: firstOption(c, 'Option', meant) }) },
  status: { fits: nullOr(isOption), expected: 'an object {name} (or {id}), or null', example: (c, meant) => ({ name: firstOption(c, 'Not started', meant) }) },
  multi_select: { fits: (v) => Array.isArray(v) && v.every(isOption), expected: 'an array of {name} (or {id}) objects', example: (c, meant) => [{ name: firstOption(c, 'Tag', meant) }] },
  date: { fits: nullOr(isDate), expected: 'an object with `start` (an ISO 8601 date or date-time), or null', example: () => ({ start: '2026-03-01' }) },
  url: { fits: nullOr(isString), expected: 'a string or null', example: () => 'https://example.com' },
  email: { fits: nullOr(isString), expected: 'a string or null', example: () => 'ada@example.com' },
  phone_number: { fits: nullOr(isString), expected: 'a string or null', example: () => '+1 555 0100' },
  people: { fits: (v) => Array.isArray(v) && v.every(hasUuid), expected: 'an array of {id} user objects, each id a UUID that workspace_users_list gives (not an e-mail or a name)', example: () => [{ id: '<user id>' }] },
  relation: { fits: (v) => Array.isArray(v) && v.every(hasUuid), expected: 'an array of {id} page objects, each id a UUID: a row of the related database (workspace_database_query), not its title', example: () => [{ id: '<page id>' }] },
  files: { fits: (v) => Array.isArray(v) && v.every(isPlainObject), expected: 'an array of file objects', example: () => [{ name: 'brief.pdf', external: { url: 'https://example.com/brief.pdf' } }] },
};

/** Why `value` cannot be a value of `column`, with where (a pointer suffix below the property), or undefined. */
export function columnValueProblem(column: Column, value: unknown): { suffix: string; message: string } | undefined {
  const shape = SHAPES[column.type];
  // A type this check does not know (Notion adds some) is left to Notion.
  if (shape === undefined) return undefined;
  const example = JSON.stringify({ [column.type]: shape.example(column, meantName(value)) });
  const what = `\`${column.name}\` is a ${column.type} column`;
  if (!isPlainObject(value)) {
    return { suffix: '', message: `${what}; its value is an object such as ${example}, not ${JSON.stringify(value)}` };
  }
  if (!Object.hasOwn(value, column.type)) {
    const other = Object.keys(value).find((k) => k !== 'type' && k !== 'id');
    const given = other === undefined ? 'nothing' : `\`${other}\``;
    return { suffix: '', message: `${what}; its value needs the \`${column.type}\` member (given ${given}), e.g. ${example}` };
  }
  const inner = value[column.type];
  if (shape.fits(inner)) return optionCaseProblem(column, inner, what);
  const plain = typeof inner === 'string' && (column.type === 'select' || column.type === 'status') ? ' (a plain string is not an option)' : '';
  return { suffix: `/${column.type}`, message: `${what}; \`${column.type}\` must be ${shape.expected}${plain}, e.g. ${example}` };
}

const OPTION_TYPES: ReadonlySet<string> = new Set(['select', 'multi_select', 'status']);
const fold = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * An option named like an existing one but for case or spacing, with where; a new name is left to Notion for a select
 * or multi-select (it adds the option), and refused for a status, listing its options: Notion cannot add a status
 * option through its API (developers.notion.com, "Update data source properties": the name or options of a status
 * property cannot be updated via the API), so it refuses the write.
 */
function optionCaseProblem(column: Column, inner: unknown, what: string): { suffix: string; message: string } | undefined {
  if (!OPTION_TYPES.has(column.type) || inner === null) return undefined;
  const options = optionNames(column);
  const given = (Array.isArray(inner) ? inner : [inner]) as Array<{ name?: unknown }>;
  for (const [i, option] of given.entries()) {
    const name = option.name;
    if (typeof name !== 'string' || options.includes(name)) continue;
    const same = options.find((o) => fold(o) === fold(name));
    const suffix = Array.isArray(inner) ? `/${column.type}/${i}/name` : `/${column.type}/name`;
    if (same === undefined) {
      // A select or multi-select adds a new name; a status cannot (Notion's API changes no status option).
      if (column.type !== 'status' || options.length === 0) continue;
      return {
        suffix,
        message: `${what} without the option \`${name}\` (Notion adds no status option when a page is written); its options: ${options.map((o) => `\`${o}\``).join(', ')}; send one of them, e.g. {"name":${JSON.stringify(options[0])}}`,
      };
    }
    return {
      suffix,
      message: `${what} with the option \`${same}\`, not \`${name}\` (option names are exact: Notion would add \`${name}\` as another option); send {"name":${JSON.stringify(same)}}`,
    };
  }
  return undefined;
}
