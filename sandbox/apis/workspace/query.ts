import { isObject, normalizeId, validation } from './errors.js';
import { findProperty, type Schema } from './properties.js';
import { plainText, type RichText } from './rich-text.js';
import type { PageRecord } from './state.js';

type Pred = (page: PageRecord) => boolean;

const TEXT_TYPES = new Set(['title', 'rich_text', 'url', 'email', 'phone_number']);

function textOf(v: unknown): string {
  if (Array.isArray(v)) return plainText(v as RichText[]);
  return typeof v === 'string' ? v : '';
}

function dateKey(s: string): number {
  return Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
}

/** Compares a stored date with a filter date; a date-only filter compares calendar days. */
function compareDate(stored: string, cond: string): number {
  if (cond.length === 10) return stored.slice(0, 10).localeCompare(cond);
  return dateKey(stored) - dateKey(cond);
}

const DAY = 86_400_000;

/** The UTC calendar day (YYYY-MM-DD) of a stored date or date-time. */
function utcDay(s: string): string {
  return s.length === 10 ? s : new Date(Date.parse(s)).toISOString().slice(0, 10);
}

/** `day` moved by whole months or years (UTC), the day of the month kept where the month has it, else its last. */
function shiftMonths(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.toISOString().slice(0, 10);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/**
 * The days (first and last, inclusive, UTC) a relative date condition covers on the sandbox clock's day `today`.
 * Notion documents these conditions (`{"past_week": {}}` and the others) without saying where a range starts or
 * whose time zone it reads; the sandbox's choice, not confirmed against Notion: past_* from the same day a week,
 * month or year ago up to today, next_* from today to the same day a week, month or year ahead, and this_week the
 * Sunday-to-Saturday week that holds today (Notion's calendar starts a week on Sunday unless a user chooses Monday),
 * all in UTC.
 */
function relativeRange(op: string, today: string): [string, string] | undefined {
  switch (op) {
    case 'past_week': return [addDays(today, -7), today];
    case 'past_month': return [shiftMonths(today, -1), today];
    case 'past_year': return [shiftMonths(today, -12), today];
    case 'next_week': return [today, addDays(today, 7)];
    case 'next_month': return [today, shiftMonths(today, 1)];
    case 'next_year': return [today, shiftMonths(today, 12)];
    case 'this_week': {
      const sunday = addDays(today, -new Date(`${today}T00:00:00Z`).getUTCDay());
      return [sunday, addDays(sunday, 6)];
    }
    default: return undefined;
  }
}

/** A user or page id as stored or as given: the hyphens and case do not matter. */
const sameId = (a: unknown, b: string) => typeof a === 'string' && a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();

function condition(type: string, cond: unknown, path: string, now: number): (v: unknown) => boolean {
  if (!isObject(cond)) throw validation(`${path} should be an object.`);
  const entries = Object.entries(cond);
  if (entries.length !== 1) throw validation(`${path} should have exactly one condition.`);
  const [op, arg] = entries[0] as [string, unknown];
  if ((op === 'is_empty' || op === 'is_not_empty') && type !== 'checkbox') {
    // Notion's wording for a value of the wrong kind, as in its other validation errors ("should be X, instead was
    // `Y`"); this exact message is not documented.
    if (arg !== true) throw validation(`${path}.${op} should be \`true\`, instead was \`${JSON.stringify(arg)}\`.`);
    const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (TEXT_TYPES.has(type) && textOf(v) === '');
    return op === 'is_empty' ? empty : (v) => !empty(v);
  }
  const bad = () => validation(`${path}.${op} is not a valid ${type} filter condition.`);
  if (TEXT_TYPES.has(type)) {
    if (typeof arg !== 'string') throw validation(`${path}.${op} should be a string.`);
    const a = arg.toLowerCase();
    const ops: Record<string, (s: string) => boolean> = {
      equals: (s) => s === arg,
      does_not_equal: (s) => s !== arg,
      contains: (s) => s.toLowerCase().includes(a),
      does_not_contain: (s) => !s.toLowerCase().includes(a),
      starts_with: (s) => s.toLowerCase().startsWith(a),
      ends_with: (s) => s.toLowerCase().endsWith(a),
    };
    const f = ops[op];
    if (!f) throw bad();
    return (v) => f(textOf(v));
  }
  switch (type) {
    case 'number': {
      if (typeof arg !== 'number') throw validation(`${path}.${op} should be a number.`);
      const ops: Record<string, (n: number) => boolean> = {
        equals: (n) => n === arg,
        does_not_equal: (n) => n !== arg,
        greater_than: (n) => n > arg,
        less_than: (n) => n < arg,
        greater_than_or_equal_to: (n) => n >= arg,
        less_than_or_equal_to: (n) => n <= arg,
      };
      const f = ops[op];
      if (!f) throw bad();
      return (v) => (typeof v === 'number' ? f(v) : op === 'does_not_equal');
    }
    case 'checkbox':
      if (typeof arg !== 'boolean') throw validation(`${path}.${op} should be a boolean.`);
      if (op === 'equals') return (v) => (v === true) === arg;
      if (op === 'does_not_equal') return (v) => (v === true) !== arg;
      throw bad();
    case 'select':
    case 'status': {
      if (typeof arg !== 'string') throw validation(`${path}.${op} should be a string.`);
      const name = (v: unknown) => (isObject(v) ? v.name : undefined);
      if (op === 'equals') return (v) => name(v) === arg;
      if (op === 'does_not_equal') return (v) => name(v) !== arg;
      throw bad();
    }
    case 'multi_select': {
      if (typeof arg !== 'string') throw validation(`${path}.${op} should be a string.`);
      const has = (v: unknown) => Array.isArray(v) && v.some((o) => isObject(o) && o.name === arg);
      if (op === 'contains') return has;
      if (op === 'does_not_contain') return (v) => !has(v);
      throw bad();
    }
    case 'people':
    case 'created_by':
    case 'last_edited_by':
    case 'relation': {
      // A user or page id, a UUID (Notion's filter reference: "string (UUIDv4)"); anything else, an e-mail or a title,
      // is refused as Notion refuses a malformed id, never matched against nothing. Notion's `"me"` for the calling
      // user is not modelled (let through, it matches no id).
      if (typeof arg !== 'string') throw validation(`${path}.${op} should be a string.`);
      if ((op === 'contains' || op === 'does_not_contain') && arg !== 'me') normalizeId(arg, `${path}.${op}`);
      const ids = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? [v] : []).map((o) => (isObject(o) ? o.id : undefined));
      const has = (v: unknown) => ids(v).some((id) => sameId(id, arg));
      if (op === 'contains') return has;
      if (op === 'does_not_contain') return (v) => !has(v);
      throw bad();
    }
    case 'date':
    case 'created_time':
    case 'last_edited_time': {
      const range = relativeRange(op, new Date(now).toISOString().slice(0, 10));
      if (range !== undefined) {
        if (!isObject(arg) || Object.keys(arg).length > 0) throw validation(`${path}.${op} should be an object, instead was \`${JSON.stringify(arg)}\`.`);
        const [first, last] = range;
        return (v) => {
          const s = typeof v === 'string' ? v : isObject(v) && typeof v.start === 'string' ? v.start : null;
          if (s === null) return false;
          const day = utcDay(s);
          return day >= first && day <= last;
        };
      }
      if (typeof arg !== 'string' || Number.isNaN(dateKey(arg))) throw validation(`${path}.${op} should be a valid ISO 8601 date string.`);
      const ops: Record<string, (c: number) => boolean> = {
        equals: (c) => c === 0,
        before: (c) => c < 0,
        after: (c) => c > 0,
        on_or_before: (c) => c <= 0,
        on_or_after: (c) => c >= 0,
      };
      const f = ops[op];
      if (!f) throw bad();
      return (v) => {
        const s = typeof v === 'string' ? v : isObject(v) && typeof v.start === 'string' ? v.start : null;
        return s !== null && f(compareDate(s, arg));
      };
    }
    default:
      throw validation(`${path}: filtering on ${type} properties is not supported by the sandbox.`);
  }
}

/**
 * Compiles a database-query filter: property filters, timestamp filters, and `and`/`or` compounds nested up to two
 * levels, as Notion allows. Relative date conditions (`{"this_week": {}}`) read the sandbox clock `now`, in UTC.
 * @see https://developers.notion.com/reference/post-database-query-filter
 */
export function compileFilter(schema: Schema, filter: unknown, now: number, path = 'body.filter', depth = 0): Pred {
  if (!isObject(filter)) throw validation(`${path} should be an object.`);
  for (const key of ['and', 'or'] as const) {
    if (key in filter) {
      if (depth >= 2) throw validation(`${path}: compound filters may be nested at most two levels deep.`);
      const parts = filter[key];
      if (!Array.isArray(parts)) throw validation(`${path}.${key} should be an array.`);
      const preds = parts.map((p, i) => compileFilter(schema, p, now, `${path}.${key}[${i}]`, depth + 1));
      return key === 'and' ? (page) => preds.every((p) => p(page)) : (page) => preds.some((p) => p(page));
    }
  }
  if (typeof filter.timestamp === 'string') {
    const ts = filter.timestamp;
    if (ts !== 'created_time' && ts !== 'last_edited_time') throw validation(`${path}.timestamp should be created_time or last_edited_time.`);
    const test = condition(ts, filter[ts], `${path}.${ts}`, now);
    return (page) => test(page[ts]);
  }
  if (typeof filter.property !== 'string') throw validation(`${path}.property should be defined, instead was \`undefined\`.`);
  const prop = findProperty(schema, filter.property);
  if (!prop) throw validation(`Could not find property with name or id: ${filter.property}`);
  const typeKey = Object.keys(filter).find((k) => k !== 'property' && k !== 'type');
  if (typeKey !== prop.type) throw validation(`${path}: ${prop.name} is a ${prop.type} property; the filter uses \`${typeKey}\`.`);
  const test = condition(prop.type, filter[typeKey], `${path}.${typeKey}`, now);
  return (page) => test(page.values[prop.id]);
}

/** Sorts rows by `sorts` (earlier entries win); `property` sorts use the schema, `select` by option order. */
export function sortRows(schema: Schema, rows: PageRecord[], sorts: unknown): PageRecord[] {
  // Without sorts, newest first: a stable, documented choice for the sandbox.
  if (sorts === undefined) return [...rows].sort((a, b) => b.seq - a.seq);
  if (!Array.isArray(sorts)) throw validation('body.sorts should be an array.');
  const keys = sorts.map((s, i) => {
    const at = `body.sorts[${i}]`;
    if (!isObject(s)) throw validation(`${at} should be an object.`);
    const dir = s.direction;
    if (dir !== 'ascending' && dir !== 'descending') throw validation(`${at}.direction should be "ascending" or "descending".`);
    const sign = dir === 'ascending' ? 1 : -1;
    if ((s.property === undefined) === (s.timestamp === undefined)) throw validation(`${at} should have exactly one of property or timestamp.`);
    if (s.timestamp !== undefined) {
      if (s.timestamp !== 'created_time' && s.timestamp !== 'last_edited_time') throw validation(`${at}.timestamp should be created_time or last_edited_time.`);
      const ts = s.timestamp;
      return { sign, value: (p: PageRecord): string | number | null => p[ts] };
    }
    if (typeof s.property !== 'string') throw validation(`${at}.property should be a string, instead was \`${JSON.stringify(s.property)}\`.`);
    const prop = findProperty(schema, s.property);
    if (!prop) throw validation(`Could not find sort property with name or id: ${s.property}`);
    const options = (prop[prop.type] as { options?: { name: string }[] } | undefined)?.options ?? [];
    return {
      sign,
      value: (p: PageRecord): string | number | null => {
        const v = p.values[prop.id];
        if (v === undefined || v === null) return null;
        if (prop.type === 'select' || prop.type === 'status') return options.findIndex((o) => isObject(v) && o.name === v.name);
        if (prop.type === 'date') return isObject(v) && typeof v.start === 'string' ? dateKey(v.start) : null;
        if (prop.type === 'checkbox') return v === true ? 1 : 0;
        if (typeof v === 'number') return v;
        return textOf(v).toLowerCase();
      },
    };
  });
  return [...rows].sort((a, b) => {
    for (const k of keys) {
      const va = k.value(a);
      const vb = k.value(b);
      if (va === vb) continue;
      // Empty values go last in either direction.
      if (va === null) return 1;
      if (vb === null) return -1;
      return (va < vb ? -1 : 1) * k.sign;
    }
    return a.seq - b.seq;
  });
}
