import type { ApiRequest, ApiResponse } from '../../types.js';
import { invalid, isObject } from './errors.js';
import { parseLimit } from './objects.js';
import { ASSOCIATION_SEARCH_PROPERTIES, QUERY_PROPERTIES, type ObjectType } from './schema.js';
import { instantOf, render, type Crm, type CrmObject } from './store.js';

const OPERATORS = new Set(['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN']);
/** HubSpot's limits since 26 August 2024 (developer changelog: 5 groups, 10 filters in a group, 25 in all). */
const MAX_GROUPS = 5;
const MAX_FILTERS_PER_GROUP = 10;
const MAX_FILTERS = 25;
/** Search never pages past 10,000 results. */
const MAX_RESULTS = 10_000;
/**
 * HubSpot's search guide (Limits): "A query can contain a maximum of 3,000 characters. If the body of your request
 * exceeds 3,000 characters, a 400 error will be returned."; its public spec's PublicObjectSearchRequest.query: "The
 * search query string, up to 3000 characters". HubSpot's wording of the refusal is not on record: the message is the
 * sandbox's.
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/search-the-crm
 */
const MAX_QUERY_CHARS = 3000;

/** Compares two values of `property`: as instants on a date-time property ({@link instantOf}), else as numbers, then dates, then case-insensitive strings. */
function compare(property: string, a: string, b: string): number {
  const ia = instantOf(property, a);
  const ib = instantOf(property, b);
  if (ia !== undefined && ib !== undefined) return ia - ib;
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  const da = Date.parse(a);
  const db = Date.parse(b);
  if (!Number.isNaN(da) && !Number.isNaN(db) && /^\d{4}-\d{2}-\d{2}/.test(a) && /^\d{4}-\d{2}-\d{2}/.test(b)) return da - db;
  return a.toLowerCase().localeCompare(b.toLowerCase());
}

function tokens(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}@.]+/u).flatMap((t) => [t, ...t.split(/[@.]/)]).filter(Boolean);
}

function tokenMatch(value: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return tokens(value).some((t) => re.test(t));
}

type Pred = (o: CrmObject) => boolean;

/**
 * A filter on the pseudo-property `associations.{contact|company|deal}`: the records associated with the record whose
 * id is the value (HubSpot's search guide: `{"propertyName": "associations.contact", "operator": "EQ", "value":
 * "123"}`). The record's associated ids act as a multi-valued property: EQ and IN match when one of them is given,
 * NEQ and NOT_IN when none is, HAS_PROPERTY when it has any; other operators match nothing.
 */
function associationFilter(crm: Crm, type: ObjectType, toType: ObjectType, operator: string, value: (name: string) => string, values: () => string[]): Pred {
  const ids = (o: CrmObject) => crm.associatedIds(type, o.id, toType);
  switch (operator) {
    case 'EQ':
    case 'NEQ': {
      const v = value('value');
      return operator === 'EQ' ? (o) => ids(o).has(v) : (o) => !ids(o).has(v);
    }
    case 'IN':
    case 'NOT_IN': {
      const vs = values();
      return operator === 'IN' ? (o) => vs.some((v) => ids(o).has(v)) : (o) => !vs.some((v) => ids(o).has(v));
    }
    case 'HAS_PROPERTY':
      return (o) => ids(o).size > 0;
    case 'NOT_HAS_PROPERTY':
      return (o) => ids(o).size === 0;
    default:
      return () => false;
  }
}

function compileFilter(crm: Crm, type: ObjectType, f: unknown, at: string): Pred {
  if (!isObject(f)) throw invalid(`${at} must be an object`);
  const { propertyName, operator } = f;
  if (typeof propertyName !== 'string' || !propertyName) throw invalid(`${at}.propertyName is required`);
  if (typeof operator !== 'string' || !OPERATORS.has(operator)) throw invalid(`${at}.operator ${JSON.stringify(operator)} is not one of ${[...OPERATORS].join(', ')}`);
  const get = (o: CrmObject) => o.properties[propertyName];
  const has = (v: string | null | undefined): v is string => v !== null && v !== undefined && v !== '';
  const str = (x: unknown, name: string) => {
    if (typeof x === 'string') return x;
    if (typeof x === 'number' || typeof x === 'boolean') return String(x);
    throw invalid(`${at}.${name} is required for operator ${operator}`);
  };
  const list = () => {
    if (!Array.isArray(f.values) || f.values.length === 0) throw invalid(`${at}.values is required for operator ${operator}`);
    return f.values.map((v, i) => str(v, `values[${i}]`));
  };
  const associated = ASSOCIATION_SEARCH_PROPERTIES[propertyName];
  if (associated !== undefined) return associationFilter(crm, type, associated, operator, (name) => str(f[name], name), list);
  switch (operator) {
    case 'HAS_PROPERTY':
      return (o) => has(get(o));
    case 'NOT_HAS_PROPERTY':
      return (o) => !has(get(o));
    case 'IN':
    case 'NOT_IN': {
      const values = list();
      const inList = (o: CrmObject) => {
        const v = get(o);
        return has(v) && values.some((x) => compare(propertyName, v, x) === 0);
      };
      return operator === 'IN' ? inList : (o) => !inList(o);
    }
    case 'BETWEEN': {
      const lo = str(f.value, 'value');
      const hi = str(f.highValue, 'highValue');
      return (o) => {
        const v = get(o);
        return has(v) && compare(propertyName, v, lo) >= 0 && compare(propertyName, v, hi) <= 0;
      };
    }
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      const pattern = str(f.value, 'value');
      const contains = (o: CrmObject) => {
        const v = get(o);
        return has(v) && tokenMatch(v, pattern);
      };
      return operator === 'CONTAINS_TOKEN' ? contains : (o) => !contains(o);
    }
    default: {
      const value = str(f.value, 'value');
      const test: Record<string, (c: number) => boolean> = { EQ: (c) => c === 0, NEQ: (c) => c !== 0, LT: (c) => c < 0, LTE: (c) => c <= 0, GT: (c) => c > 0, GTE: (c) => c >= 0 };
      const t = test[operator] as (c: number) => boolean;
      // NEQ also matches objects without the property, as HubSpot's does.
      return (o) => {
        const v = get(o);
        if (!has(v)) return operator === 'NEQ';
        return t(compare(propertyName, v, value));
      };
    }
  }
}

/**
 * `POST /crm/v3/objects/{type}/search`: filter groups ORed, filters in a group ANDed; `query` over the default
 * searchable properties; one sort; `limit` (default 10, max 200) and an offset `after`; `total` counts all matches.
 */
export function searchObjects(crm: Crm, type: ObjectType, req: ApiRequest): ApiResponse {
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) throw invalid('Invalid input JSON: the search body must be an object');
  const groups = body.filterGroups ?? [];
  if (!Array.isArray(groups)) throw invalid('filterGroups must be an array');
  if (groups.length > MAX_GROUPS) throw invalid(`Too many filter groups: ${groups.length}; the limit is ${MAX_GROUPS}`);
  let total = 0;
  const preds = groups.map((g, gi) => {
    if (!isObject(g) || !Array.isArray(g.filters)) throw invalid(`filterGroups[${gi}].filters must be an array`);
    if (g.filters.length > MAX_FILTERS_PER_GROUP) throw invalid(`Too many filters in filterGroups[${gi}]: ${g.filters.length}; the limit is ${MAX_FILTERS_PER_GROUP}`);
    total += g.filters.length;
    const fs = g.filters.map((f, fi) => compileFilter(crm, type, f, `filterGroups[${gi}].filters[${fi}]`));
    return (o: CrmObject) => fs.every((p) => p(o));
  });
  if (total > MAX_FILTERS) throw invalid(`Too many filters: ${total}; the limit is ${MAX_FILTERS}`);
  let rows = [...crm.objects[type].values()].filter((o) => !o.archived && (preds.length === 0 || preds.some((p) => p(o))));
  if (body.query !== undefined) {
    if (typeof body.query !== 'string') throw invalid('query must be a string');
    if (body.query.length > MAX_QUERY_CHARS) throw invalid(`query is ${body.query.length} characters long; a query can contain at most ${MAX_QUERY_CHARS}`);
    const words = body.query.toLowerCase().split(/\s+/).filter(Boolean);
    rows = rows.filter((o) => words.every((w) => QUERY_PROPERTIES[type].some((p) => tokens(o.properties[p] ?? '').some((t) => t.startsWith(w)))));
  }
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  if (body.sorts !== undefined) {
    if (!Array.isArray(body.sorts)) throw invalid('sorts must be an array');
    if (body.sorts.length > 1) throw invalid('Only one sort is allowed');
    const s = body.sorts[0];
    if (s !== undefined) {
      const [name, dir] =
        typeof s === 'string' ? [s.replace(/^-/, ''), s.startsWith('-') ? 'DESCENDING' : 'ASCENDING'] : isObject(s) ? [String(s.propertyName ?? ''), String(s.direction ?? 'ASCENDING')] : ['', ''];
      if (!name || (dir !== 'ASCENDING' && dir !== 'DESCENDING')) throw invalid('sorts[0] must name propertyName and direction ASCENDING or DESCENDING');
      const sign = dir === 'ASCENDING' ? 1 : -1;
      rows.sort((a, b) => {
        const va = a.properties[name] ?? null;
        const vb = b.properties[name] ?? null;
        if (va === vb) return 0;
        if (va === null) return 1;
        if (vb === null) return -1;
        return compare(name, va, vb) * sign;
      });
    }
  }
  const limit = parseLimit(body.limit, 10, 200);
  let offset = 0;
  if (body.after !== undefined && body.after !== null && body.after !== '') {
    const a = typeof body.after === 'number' ? body.after : Number(body.after);
    if (!Number.isInteger(a) || a < 0) throw invalid(`after must be a valid paging cursor, got ${JSON.stringify(body.after)}`);
    if (a >= MAX_RESULTS) throw invalid(`Search results are limited to ${MAX_RESULTS}; after ${a} is past the end`);
    offset = a;
  }
  const properties = Array.isArray(body.properties) && body.properties.length ? body.properties.map(String) : null;
  const page = rows.slice(offset, offset + limit);
  const nextOffset = offset + limit;
  const hasNext = nextOffset < Math.min(rows.length, MAX_RESULTS);
  return {
    status: 200,
    body: {
      total: rows.length,
      results: page.map((o) => render(type, o, properties)),
      ...(hasNext ? { paging: { next: { after: String(nextOffset), link: `?after=${nextOffset}` } } } : {}),
    },
  };
}
