/**
 * The `filter` of a workspace (Notion) database query, checked by the validator before anything is read or sent:
 * its structure, which needs no schema. Whether each `property` names a column, and whether the condition's key is
 * that column's type, needs the database's schema: the `workspaceColumns` pre-check does that part
 * (runtime/prechecks/workspace-columns.ts), walking the filter with {@link filterConditions}.
 *
 * Notion's filter object (developers.notion.com, "Filter database entries", and from 2025-09-03 "Filter data source
 * entries"; the types of @notionhq/client): a property filter `{"property": <name or id>, <type>: <condition>}`,
 * where `<type>` is the column's type (`checkbox`, `date`, `select`, `status`, ...); a timestamp filter
 * `{"timestamp": "created_time" | "last_edited_time", <that timestamp>: <date condition>}`; or a compound
 * `{"and": [...]}` / `{"or": [...]}`, nested at most two levels (a compound's items may be compounds of filters, whose
 * items may not). A condition is one operator and its value: text types take a string (`equals`, `does_not_equal`,
 * `contains`, `does_not_contain`, `starts_with`, `ends_with`), numbers a number (`equals`, `does_not_equal`,
 * `greater_than`, `less_than`, `greater_than_or_equal_to`, `less_than_or_equal_to`), a checkbox a boolean (`equals`,
 * `does_not_equal`), select and status a string (`equals`, `does_not_equal`), multi-select a string (`contains`,
 * `does_not_contain`), people and relation an id, a UUID (`contains`, `does_not_contain`; people also `me`), a date an ISO 8601 date
 * (`equals`, `before`, `after`, `on_or_before`, `on_or_after`) or `{}` (`past_week`, `past_month`, `past_year`,
 * `this_week`, `next_week`, `next_month`, `next_year`); every type but checkbox also `is_empty` / `is_not_empty` with
 * `true`. Formula, rollup and verification conditions nest another type's; they are left to Notion.
 * @see https://developers.notion.com/reference/post-database-query-filter
 * @see https://developers.notion.com/reference/filter-data-source-entries
 */
import type { Violation } from '../types.js';
import { isPlainObject } from '../agent/formats/open-shapes.js';
import { pointerName, pointerToken } from '../validation/violations.js';

type ValueKind = 'string' | 'number' | 'boolean' | 'date' | 'empty_object' | 'true' | 'user_id' | 'page_id';

const EXISTENCE: Record<string, ValueKind> = { is_empty: 'true', is_not_empty: 'true' };
const TEXT: Record<string, ValueKind> = { equals: 'string', does_not_equal: 'string', contains: 'string', does_not_contain: 'string', starts_with: 'string', ends_with: 'string', ...EXISTENCE };
const NUMBER: Record<string, ValueKind> = { equals: 'number', does_not_equal: 'number', greater_than: 'number', less_than: 'number', greater_than_or_equal_to: 'number', less_than_or_equal_to: 'number', ...EXISTENCE };
const OPTION: Record<string, ValueKind> = { equals: 'string', does_not_equal: 'string', ...EXISTENCE };
const CONTAINS: Record<string, ValueKind> = { contains: 'string', does_not_contain: 'string', ...EXISTENCE };
/** A person's id (or `me`, the user the integration acts for), a UUID: Notion's filter reference, "string (UUIDv4)". */
const PEOPLE: Record<string, ValueKind> = { contains: 'user_id', does_not_contain: 'user_id', ...EXISTENCE };
/** A related page's id, a UUID. */
const RELATION: Record<string, ValueKind> = { contains: 'page_id', does_not_contain: 'page_id', ...EXISTENCE };
/** The relative date conditions, each taking `{}`. */
export const RELATIVE_DATE_CONDITIONS = ['past_week', 'past_month', 'past_year', 'this_week', 'next_week', 'next_month', 'next_year'] as const;
const DATE: Record<string, ValueKind> = {
  equals: 'date', before: 'date', after: 'date', on_or_before: 'date', on_or_after: 'date',
  ...Object.fromEntries(RELATIVE_DATE_CONDITIONS.map((c) => [c, 'empty_object' as const])),
  ...EXISTENCE,
};

/** The operators each condition key (a column type) takes, with the kind of value. Unlisted known keys: left to Notion. */
const CONDITIONS: Readonly<Record<string, Record<string, ValueKind>>> = {
  title: TEXT, rich_text: TEXT, url: TEXT, email: TEXT, phone_number: TEXT,
  number: NUMBER, unique_id: NUMBER,
  checkbox: { equals: 'boolean', does_not_equal: 'boolean' },
  select: OPTION, status: OPTION,
  multi_select: CONTAINS, people: PEOPLE, created_by: PEOPLE, last_edited_by: PEOPLE, relation: RELATION,
  date: DATE, created_time: DATE, last_edited_time: DATE,
  files: EXISTENCE,
};
/** Condition keys whose condition nests another type's: Notion checks them. */
const NESTED: ReadonlySet<string> = new Set(['formula', 'rollup', 'verification']);
/** Every condition key a property filter may carry. */
export const FILTER_CONDITION_KEYS: ReadonlySet<string> = new Set([...Object.keys(CONDITIONS), ...NESTED]);
const TIMESTAMPS = ['created_time', 'last_edited_time'];
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** A violation at `pointer`, its message led by the place (`filter.and[1].checkbox.equals: ...`). */
const v = (pointer: string, message: string): Violation => ({ pointer, message: `${pointerName(pointer)}: ${message}`, keyword: 'filter' });
const EXAMPLE = '{"and": [{"property": "Due", "date": {"this_week": {}}}, {"property": "Done", "checkbox": {"equals": false}}]}';

/** A property filter found in the filter: where it is, the column it names and the condition key it uses. */
export interface FilterCondition {
  /** The pointer of the property filter (`/filter/and/0`). */
  at: string;
  property: string;
  /** The condition key (`date`, `select`, ...), or undefined when the filter has none the check knows. */
  key: string | undefined;
  condition: unknown;
}

/** The condition key of a property filter: its one member besides `property` and `type`. */
function conditionKeys(node: Record<string, unknown>): string[] {
  return Object.keys(node).filter((k) => k !== 'property' && k !== 'type');
}

/** Every property filter of a filter (well formed or not), in order, for the pre-check. */
export function filterConditions(filter: unknown, at = '/filter'): FilterCondition[] {
  if (!isPlainObject(filter)) return [];
  for (const op of ['and', 'or']) {
    if (Array.isArray(filter[op])) return (filter[op] as unknown[]).flatMap((f, i) => filterConditions(f, `${at}/${op}/${i}`));
  }
  if (typeof filter.property !== 'string') return [];
  const keys = conditionKeys(filter);
  const key = keys.length === 1 ? keys[0] : undefined;
  return [{ at, property: filter.property, key, condition: key === undefined ? undefined : filter[key] }];
}

function valueProblem(kind: ValueKind, value: unknown): string | undefined {
  switch (kind) {
    case 'string': return typeof value === 'string' ? undefined : 'a string';
    case 'number': return typeof value === 'number' ? undefined : 'a number';
    case 'boolean': return typeof value === 'boolean' ? undefined : 'true or false';
    case 'true': return value === true ? undefined : 'true';
    case 'empty_object': return isPlainObject(value) && Object.keys(value).length === 0 ? undefined : 'the empty object {}';
    case 'date': return typeof value === 'string' && DATE_VALUE.test(value) ? undefined : 'an ISO 8601 date or date-time ("2026-03-01", "2026-03-01T09:00:00Z")';
    case 'user_id': return typeof value === 'string' && (UUID.test(value) || value === 'me') ? undefined : 'a user id, a UUID that workspace_users_list gives (or "me"), not an e-mail or a name';
    case 'page_id': return typeof value === 'string' && UUID.test(value) ? undefined : 'a page id, a UUID: the id of a row of the related database (workspace_database_query), not its title';
  }
}

/** The problems of one condition (`{"equals": "Done"}`) under the key `key`, at `at` (the key's pointer). */
function conditionViolations(key: string, condition: unknown, at: string): Violation[] {
  if (NESTED.has(key)) return isPlainObject(condition) ? [] : [v(at, `${key} takes an object`)];
  const ops = CONDITIONS[key]!;
  const listed = Object.keys(ops).join(', ');
  if (!isPlainObject(condition) || Object.keys(condition).length !== 1) {
    return [v(at, `${key} takes one condition, an object with one of ${listed}, e.g. ${JSON.stringify({ [key]: exampleCondition(ops) })}`)];
  }
  const [op, value] = Object.entries(condition)[0]!;
  const opAt = `${at}/${pointerToken(op)}`;
  const kind = ops[op];
  if (kind === undefined) {
    const hint = key === 'select' || key === 'status' ? (op === 'contains' ? ' (contains is for multi_select and text columns; a select or status is matched with equals)' : '') : '';
    return [v(opAt, `\`${op}\` is no ${key} condition${hint}; a ${key} condition is one of ${listed}`)];
  }
  const wanted = valueProblem(kind, value);
  if (wanted === undefined) return [];
  const fix = kind === 'empty_object' ? `: send {"${op}": {}}` : '';
  return [v(opAt, `must be ${wanted}, not ${JSON.stringify(value)}${fix}`)];
}

function exampleCondition(ops: Record<string, ValueKind>): Record<string, unknown> {
  const [op, kind] = Object.entries(ops)[0]!;
  const sample: Record<ValueKind, unknown> = { string: 'Done', number: 5, boolean: true, true: true, empty_object: {}, date: '2026-03-01', user_id: '<user id>', page_id: '<page id>' };
  return { [op]: sample[kind] };
}

/** The problems of a filter node at `at`, `depth` compounds down. */
function nodeViolations(node: unknown, at: string, depth: number): Violation[] {
  if (!isPlainObject(node)) return [v(at, `a filter is an object, e.g. ${EXAMPLE}`)];
  const compound = ['and', 'or'].filter((k) => k in node);
  if (compound.length > 0) {
    const op = compound[0]!;
    const others = Object.keys(node).filter((k) => k !== op);
    if (others.length > 0) {
      return [v(`${at}/${pointerToken(others[0]!)}`, `an ${op} compound holds only its list: put \`${others[0]}\` in a filter inside it`)];
    }
    if (depth >= 2) {
      return [v(`${at}/${op}`, 'compound filters nest at most two levels (an and/or whose items are and/or of property filters); move these filters into the compound above')];
    }
    const items = node[op];
    if (!Array.isArray(items)) return [v(`${at}/${op}`, `${op} takes a list of filters`)];
    return items.flatMap((item, i) => nodeViolations(item, `${at}/${op}/${i}`, depth + 1));
  }
  if ('timestamp' in node) {
    const ts = node.timestamp;
    if (typeof ts !== 'string' || !TIMESTAMPS.includes(ts)) {
      return [v(`${at}/timestamp`, `timestamp is created_time or last_edited_time, not ${JSON.stringify(ts)}; a date column is filtered by {"property": <name>, "date": {...}}`)];
    }
    const extra = Object.keys(node).filter((k) => k !== 'timestamp' && k !== ts && k !== 'type');
    if (extra.length > 0) return [v(`${at}/${pointerToken(extra[0]!)}`, `a timestamp filter is {"timestamp": "${ts}", "${ts}": {<date condition>}}; \`${extra[0]}\` does not belong`)];
    if (!(ts in node)) return [v(at, `a timestamp filter needs its condition under \`${ts}\`, e.g. {"timestamp": "${ts}", "${ts}": {"past_week": {}}}`)];
    return conditionViolations(ts, node[ts], `${at}/${ts}`);
  }
  if (typeof node.property !== 'string' || node.property === '') {
    return [v(`${at}/property`, `a filter is {"property": <column name>, <column type>: {<condition>}}, {"timestamp": ...} or {"and"|"or": [...]}, e.g. ${EXAMPLE}`)];
  }
  const keys = conditionKeys(node);
  if (keys.length !== 1) {
    const what = keys.length === 0 ? 'none' : keys.map((k) => `\`${k}\``).join(', ');
    return [v(at, `a property filter has one condition, under the column's type (e.g. {"property": "Done", "checkbox": {"equals": false}}); given ${what}; join several with {"and": [...]}`)];
  }
  const key = keys[0]!;
  if (!FILTER_CONDITION_KEYS.has(key)) {
    return [v(`${at}/${pointerToken(key)}`, `\`${key}\` is no column type a filter takes; the condition goes under the column's type: ${[...FILTER_CONDITION_KEYS].join(', ')}`)];
  }
  return conditionViolations(key, node[key], `${at}/${pointerToken(key)}`);
}

/** The `workspaceFilter` check (runtime/validation/checks.ts): the filter's structure, each problem at its pointer. */
export function checkWorkspaceFilter(value: unknown, pointer: string): Violation[] {
  return nodeViolations(value, pointer, 0);
}

/**
 * `condition` as it would be written under the column type `type`: itself when that type takes it (a select's
 * `{"equals": "Done"}` is a status's too), else an example condition of that type, for a refusal to show.
 */
export function conditionFor(type: string, condition: unknown): unknown {
  const ops = CONDITIONS[type];
  if (ops === undefined || conditionViolations(type, condition, '').length === 0) return condition;
  return exampleCondition(ops);
}
