/**
 * HubSpot CRM search `filterGroups`, given by an agent either as the JSON string the specification defines or as the
 * array itself. One checker for both forms, run by the validator before anything is sent, and one helper that turns
 * either form into the body's array.
 *
 * The structure HubSpot takes: groups ORed, each `{filters: [...]}` ANDed; a filter is `{propertyName, operator}`
 * plus what the operator needs: `value` (EQ, NEQ, LT, LTE, GT, GTE, CONTAINS_TOKEN, NOT_CONTAINS_TOKEN), `value` and
 * `highValue` (BETWEEN), `values` (IN, NOT_IN), nothing (HAS_PROPERTY, NOT_HAS_PROPERTY). `propertyName` is the
 * property's internal name: one with whitespace (a label, "Lifecycle Stage") is refused (hubspot-property-names.ts).
 * A value (or each of `values`) on a standard date property (closedate, createdate, ...) is a date, not words; one on
 * a company's domain is the domain alone (acme.com), not a URL; one on an associations.contact / .company / .deal
 * pseudo-property is the record's id (digits), not its name; one on dealstage, pipeline or lifecyclestage is an id
 * or internal value, never a label with a space ("Closed Won").
 * Limits: at most 5 groups, 10 filters in a group and 25 in all, HubSpot's since 26 August 2024 (developer changelog,
 * "Expanded Filtering Capabilities and Error Messaging in HubSpot's Search API"; earlier documentation said 3/3/9,
 * then 5/6/18).
 * @see https://developers.hubspot.com/docs/api/crm/search
 * @see https://developers.hubspot.com/changelog/breaking-change-expanded-filtering-capabilities-and-error-messaging-in-hubspots-search-api
 */
import { isPlainObject } from '../agent/formats/open-shapes.js';
import type { Violation } from '../types.js';
import { domainProblem, propertyNameProblem } from './hubspot-property-names.js';

export const HUBSPOT_OPERATORS = ['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN'] as const;
export const MAX_FILTER_GROUPS = 5;
export const MAX_FILTERS_PER_GROUP = 10;
export const MAX_FILTERS = 25;

type Operator = (typeof HUBSPOT_OPERATORS)[number];
const OPERATORS: ReadonlySet<string> = new Set(HUBSPOT_OPERATORS);
/** What each operator takes besides `propertyName` and `operator`. */
const NEEDS: Record<Operator, readonly ('value' | 'highValue' | 'values')[]> = {
  EQ: ['value'], NEQ: ['value'], LT: ['value'], LTE: ['value'], GT: ['value'], GTE: ['value'],
  CONTAINS_TOKEN: ['value'], NOT_CONTAINS_TOKEN: ['value'],
  BETWEEN: ['value', 'highValue'],
  IN: ['values'], NOT_IN: ['values'],
  HAS_PROPERTY: [], NOT_HAS_PROPERTY: [],
};
const FILTER_KEYS = new Set(['propertyName', 'operator', 'value', 'highValue', 'values']);

/**
 * HubSpot's standard date and date-time properties. A filter's value on one of them is compared as a date: it is
 * YYYY-MM-DD, an ISO 8601 date-time or epoch milliseconds; words ("March 31, 2026", "last week") are refused here, as
 * the search would otherwise answer as if the filter matched everything or nothing, with no error to correct.
 */
const DATE_PROPERTIES: ReadonlySet<string> = new Set(['closedate', 'createdate', 'lastmodifieddate', 'hs_lastmodifieddate', 'hs_createdate', 'notes_last_updated', 'notes_last_contacted', 'hs_lastcontacted']);
const DATE_VALUE = /^(?:\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?|\d{9,})$/;

/**
 * HubSpot's search pseudo-properties for the records associated with another (search guide: `{"propertyName":
 * "associations.contact", "operator": "EQ", "value": "123"}`), each with the record it names and the tool that lists
 * such records with their ids. The value is that record's id, digits; a name ("Ana") matches no record, and the
 * search would answer nothing, with no error to correct.
 */
const ASSOCIATION_PROPERTIES: Readonly<Record<string, { record: string; tool: string }>> = {
  'associations.contact': { record: 'contact', tool: 'crm_contacts_search' },
  'associations.company': { record: 'company', tool: 'crm_companies_search' },
  'associations.deal': { record: 'deal', tool: 'crm_deals_search' },
};

/**
 * Enumerated properties whose values are ids that hold no white space: the default pipeline's stages
 * (appointmentscheduled ... closedlost), the lifecycle stages (subscriber ... other), digits for custom ones. A value
 * with a space is the label a user says ("Closed Won", "Sales Qualified Lead"), which matches no record: the search
 * would answer nothing, with no error to correct.
 */
const ID_VALUED: Readonly<Record<string, string>> = {
  dealstage: "a stage's id for dealstage (closedwon, appointmentscheduled; digits for a custom stage), not its label",
  pipeline: "a pipeline's id for pipeline (default; digits for a custom pipeline), not its label",
  lifecyclestage: 'an internal value for lifecyclestage (subscriber, lead, marketingqualifiedlead, salesqualifiedlead, opportunity, customer, evangelist, other; digits for a custom stage), not its label',
};

/** What a value on these properties must look like, and what to say when it does not. */
function valueProblem(property: string, value: string): string | undefined {
  const idValued = ID_VALUED[property];
  if (idValued !== undefined && /\s/.test(value.trim())) {
    return `must be ${idValued} ${JSON.stringify(value)}${property === 'lifecyclestage' ? '' : ': crm_deal_pipelines_list lists the ids'}`;
  }
  const associated = ASSOCIATION_PROPERTIES[property];
  if (associated !== undefined && !/^\d+$/.test(value)) {
    return `must be a ${associated.record}'s record id for ${property}, digits such as "101", not ${JSON.stringify(value)}: send the record's id from ${associated.tool}`;
  }
  if (DATE_PROPERTIES.has(property) && !DATE_VALUE.test(value.trim())) {
    return `must be a date for ${property}: YYYY-MM-DD (2026-03-31), an ISO 8601 date-time or epoch milliseconds, not ${JSON.stringify(value)}`;
  }
  const domain = property === 'domain' ? domainProblem(value) : undefined;
  if (domain !== undefined) return `must be a domain alone for domain, ${domain}`;
  return undefined;
}

const isScalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `/filterGroups/0/filters/1/operator` -> `filterGroups[0].filters[1].operator`. */
function nameOf(pointer: string): string {
  return pointer.slice(1).split('/').map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function checkFilter(filter: unknown, at: string, out: Violation[]): void {
  const add = (pointer: string, message: string, keyword: string): void => {
    out.push({ pointer, message: `${nameOf(pointer)} ${message}`, keyword });
  };
  if (!isPlainObject(filter)) return add(at, 'must be an object {propertyName, operator, value}', 'type');
  for (const key of Object.keys(filter)) if (!FILTER_KEYS.has(key)) add(`${at}/${key}`, `is not a filter field (propertyName, operator, value, highValue, values)`, 'additionalProperties');
  if (typeof filter.propertyName !== 'string' || filter.propertyName.trim() === '') add(`${at}/propertyName`, 'is required: the internal name of the property, e.g. "email"', 'required');
  else {
    const problem = propertyNameProblem(filter.propertyName, nameOf(`${at}/propertyName`));
    if (problem !== undefined) out.push({ pointer: `${at}/propertyName`, message: problem, keyword: 'pattern' });
  }
  const operator = filter.operator;
  if (typeof operator !== 'string' || !OPERATORS.has(operator)) {
    add(`${at}/operator`, `must be one of: ${HUBSPOT_OPERATORS.join(', ')}`, operator === undefined ? 'required' : 'enum');
    return;
  }
  const needs = NEEDS[operator as Operator];
  for (const key of ['value', 'highValue', 'values'] as const) {
    const given = filter[key] !== undefined;
    if (needs.includes(key) && !given) add(`${at}/${key}`, `is required with operator ${operator}`, 'required');
    else if (!needs.includes(key) && given) add(`${at}/${key}`, needs.length === 0 ? `is not taken by operator ${operator}` : `is not taken by operator ${operator} (it takes ${needs.join(' and ')})`, 'forbidden');
  }
  // A token search matches words, not a whole value: its value is not held to the property's form.
  const property = typeof filter.propertyName === 'string' && operator !== 'CONTAINS_TOKEN' && operator !== 'NOT_CONTAINS_TOKEN' ? filter.propertyName : undefined;
  for (const key of ['value', 'highValue'] as const) {
    const v = filter[key];
    if (v === undefined || !needs.includes(key)) continue;
    if (!isScalar(v)) add(`${at}/${key}`, 'must be a string, number or boolean', 'type');
    else {
      const problem = property === undefined ? undefined : valueProblem(property, String(v));
      if (problem !== undefined) add(`${at}/${key}`, problem, 'format');
    }
  }
  if (needs.includes('values') && filter.values !== undefined) {
    if (!Array.isArray(filter.values) || filter.values.length === 0) add(`${at}/values`, 'must be a non-empty array of strings', 'type');
    else {
      filter.values.forEach((v, i) => {
        if (!isScalar(v)) return add(`${at}/values/${i}`, 'must be a string, number or boolean', 'type');
        const problem = property === undefined ? undefined : valueProblem(property, String(v));
        if (problem !== undefined) add(`${at}/values/${i}`, problem, 'format');
      });
    }
  }
}

/** The groups as given: the parsed JSON string, or the array itself; undefined when a string is not JSON. */
function groupsOf(value: unknown): { ok: true; groups: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: true, groups: value };
  try {
    return { ok: true, groups: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

/**
 * Every violation of `value` (a JSON string or an array of filter groups) at `pointer`. Pointers go into the groups
 * (`/filterGroups/0/filters/1/operator`), for the string form into its parsed value. A string that is not JSON is left
 * to the `json-string` format check.
 */
export function checkHubspotFilterGroups(value: unknown, pointer: string): Violation[] {
  const parsed = groupsOf(value);
  if (!parsed.ok) return [];
  const out: Violation[] = [];
  const groups = parsed.groups;
  const shape = 'must be an array of filter groups, e.g. [{"filters": [{"propertyName": "email", "operator": "EQ", "value": "ana@example.com"}]}]';
  if (!Array.isArray(groups)) return [{ pointer, message: `${nameOf(pointer)} ${shape}`, keyword: 'type' }];
  if (groups.length > MAX_FILTER_GROUPS) out.push({ pointer, message: `${nameOf(pointer)} has ${groups.length} groups; HubSpot takes at most ${MAX_FILTER_GROUPS}`, keyword: 'maxItems' });
  let total = 0;
  groups.forEach((group, g) => {
    const at = `${pointer}/${g}`;
    if (!isPlainObject(group)) {
      // In the array form the schema's `items: {type: object}` has said so (with why, for a JSON text); the string
      // form's groups are seen only here.
      if (typeof value === 'string') out.push({ pointer: at, message: `${nameOf(at)} must be an object {"filters": [...]}`, keyword: 'type' });
      return;
    }
    if (!Array.isArray(group.filters)) {
      out.push({ pointer: `${at}/filters`, message: `${nameOf(`${at}/filters`)} is required: an array of filters`, keyword: 'required' });
      return;
    }
    for (const key of Object.keys(group)) if (key !== 'filters') out.push({ pointer: `${at}/${key}`, message: `${nameOf(`${at}/${key}`)} is not a filter group field (only filters)`, keyword: 'additionalProperties' });
    const filters = group.filters as unknown[];
    if (filters.length === 0) out.push({ pointer: `${at}/filters`, message: `${nameOf(`${at}/filters`)} must have at least one filter`, keyword: 'minItems' });
    if (filters.length > MAX_FILTERS_PER_GROUP) out.push({ pointer: `${at}/filters`, message: `${nameOf(`${at}/filters`)} has ${filters.length} filters; HubSpot takes at most ${MAX_FILTERS_PER_GROUP} in a group`, keyword: 'maxItems' });
    total += filters.length;
    filters.forEach((filter, f) => checkFilter(filter, `${at}/filters/${f}`, out));
  });
  if (total > MAX_FILTERS) out.push({ pointer, message: `${nameOf(pointer)} has ${total} filters in all; HubSpot takes at most ${MAX_FILTERS}`, keyword: 'maxItems' });
  return out;
}

/** The body's `filterGroups`: the JSON string parsed, or the array as given (the validator has checked either). */
export function filterGroups(value?: string | readonly unknown[]): unknown {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? JSON.parse(value) : value;
}
