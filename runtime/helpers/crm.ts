import type { Violation } from '../types.js';
import { checkHubspotPropertyMap, domainProblem } from './hubspot-property-names.js';

/** The `hs_priority` values a deal update takes: the specification's, HubSpot's own, and the two that clear it. */
const DEAL_PRIORITIES: readonly unknown[] = ['HIGH', 'MEDIUM', 'LOW', 'high', 'medium', 'low', '', null];

/**
 * HubSpot deal priority: the tools keep the specification's `HIGH`/`MEDIUM`/`LOW`, HubSpot's `hs_priority` options
 * are `high`/`medium`/`low` (labels High, Medium, Low; HubSpot's "default deal properties" knowledge base article and
 * the values its API returns), and any other value is refused with INVALID_OPTION.
 */
export function dealPriority(value?: 'HIGH' | 'MEDIUM' | 'LOW'): string | undefined {
  return value === undefined ? undefined : value.toLowerCase();
}

/**
 * Deal properties to update, with an `hs_priority` given in the specification's `HIGH`/`MEDIUM`/`LOW` (as
 * `crm_deal_create` takes it) turned into HubSpot's option value by {@link dealPriority}; any other value, HubSpot's
 * own `high`/`medium`/`low` included, is left as it is.
 */
export function dealProperties(props?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (props === undefined) return undefined;
  const priority = props.hs_priority;
  return priority === 'HIGH' || priority === 'MEDIUM' || priority === 'LOW' ? { ...props, hs_priority: dealPriority(priority) } : props;
}

/**
 * The `check` rule of `crm_deal_update`'s `properties` (an open map, so its schema cannot name one key's values without
 * ceasing to be one for the model formats): a property name that is a label is refused as in every CRM map
 * ({@link checkHubspotPropertyMap}), and an `hs_priority` that is none of {@link DEAL_PRIORITIES} at its pointer, as
 * HubSpot would refuse it (INVALID_OPTION); both before anything is sent.
 */
export function checkDealProperties(value: unknown, pointer: string): Violation[] {
  const names = checkHubspotPropertyMap(value, pointer);
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, 'hs_priority')) return names;
  if (DEAL_PRIORITIES.includes((value as Record<string, unknown>).hs_priority)) return names;
  const name = `${pointer.slice(1)}.hs_priority`;
  return [...names, { pointer: `${pointer}/hs_priority`, message: `${name} must be one of: HIGH, MEDIUM, LOW (HubSpot's high, medium, low too; "" or null clears it)`, keyword: 'enum' }];
}

/** The record (or note) a create tool makes, which its `associations` start from. */
export type AssociatedFrom = 'deal' | 'contact' | 'note';

/** One entry of a HubSpot create body's `associations`. */
export interface HubSpotAssociation {
  to: { id: string };
  types: { associationCategory: 'HUBSPOT_DEFINED'; associationTypeId: number }[];
}

/**
 * HubSpot-defined association type ids, by the record created and the kind it is linked to, as HubSpot's
 * "Association type ID values" tables list them (the official client's `AssociationTypes` holds the same numbers):
 * deal to contact 3; deal to company 341, to its primary company 5; contact to company 279, to its primary company 1;
 * note to contact 202, to company 190, to deal 214 (`noteToContact`, `noteToCompany`, `noteToDeal`). A record has at
 * most one primary company, so only a company link has a `primary` type; a note has none, so both of its are 190.
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/associations/associate-records/guide
 */
export const ASSOCIATION_TYPE_IDS: Readonly<Record<AssociatedFrom, { contact?: number; company: { primary: number; other: number }; deal?: number }>> = {
  deal: { contact: 3, company: { primary: 5, other: 341 } },
  contact: { company: { primary: 1, other: 279 } },
  note: { contact: 202, company: { primary: 190, other: 190 }, deal: 214 },
};

/**
 * The `associations` of a create body (`POST /crm/v3/objects/{deals|contacts|notes}`): each contact id linked with
 * the record's contact type, each company id with its company type, the first company as the record's primary
 * company (as HubSpot's own deal example links its one company with type 5), each deal id with its deal type. Absent
 * when no id is given.
 */
export function associations(
  from: AssociatedFrom,
  contactIds?: readonly string[] | null,
  companyIds?: readonly string[] | null,
  dealIds?: readonly string[] | null,
): HubSpotAssociation[] | undefined {
  const types = ASSOCIATION_TYPE_IDS[from];
  const link = (id: string, associationTypeId: number | undefined, kind: string): HubSpotAssociation => {
    if (associationTypeId === undefined) throw new Error(`a ${from} is not linked to ${kind}s here`);
    return { to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }] };
  };
  const contacts = (contactIds ?? []).map((id) => link(id, types.contact, 'contact'));
  const companies = (companyIds ?? []).map((id, i) => link(id, i === 0 ? types.company.primary : types.company.other, 'company'));
  const deals = (dealIds ?? []).map((id) => link(id, types.deal, 'deal'));
  const all = [...contacts, ...companies, ...deals];
  return all.length ? all : undefined;
}

/** One filter of a HubSpot search on the records linked to another: `associations.{contact|company|deal}` EQ its id. */
export interface AssociationFilter {
  propertyName: `associations.${'contact' | 'company' | 'deal'}`;
  operator: 'EQ';
  value: string;
}

/**
 * A search body's `filterGroups` for the objects linked to a record (`crm_notes_list`: the notes on a contact, company
 * or deal): HubSpot's `associations.contact` / `.company` / `.deal` pseudo-property EQ the record's id, as its search
 * guide writes it. The ids given are filters of one group (ANDed); absent when none is given.
 */
export function associatedWith(contactId?: string, companyId?: string, dealId?: string): { filters: AssociationFilter[] }[] | undefined {
  const given = [['contact', contactId], ['company', companyId], ['deal', dealId]] as const;
  const filters = given.flatMap(([record, id]): AssociationFilter[] => (id === undefined ? [] : [{ propertyName: `associations.${record}`, operator: 'EQ', value: id }]));
  return filters.length ? [{ filters }] : undefined;
}

/**
 * The `check` rule of `crm_company_update`'s `properties` (an open map of property name -> value): a name that is a
 * label ("Annual Revenue") or has whitespace around it is refused as in every CRM map ({@link checkHubspotPropertyMap}),
 * and a `domain` given as a URL is refused naming the bare domain ({@link domainProblem}, the rule a domain search
 * filter follows: HubSpot would store the URL, and match no contact by it). Each at its pointer, before anything is
 * sent.
 */
export function checkCompanyProperties(value: unknown, pointer: string): Violation[] {
  const names = checkHubspotPropertyMap(value, pointer);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return names;
  const domain = (value as Record<string, unknown>).domain;
  const problem = typeof domain === 'string' ? domainProblem(domain) : undefined;
  if (problem === undefined) return names;
  return [...names, { pointer: `${pointer}/domain`, message: `${pointer.slice(1)}.domain must be the domain alone, ${problem}`, keyword: 'format' }];
}
