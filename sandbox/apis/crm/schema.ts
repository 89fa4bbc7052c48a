/**
 * The CRM object types the sandbox serves: three records and notes, the activity logged on them (HubSpot serves notes
 * at the same `/crm/v3/objects/notes` endpoints).
 */
export type ObjectType = 'contacts' | 'companies' | 'deals' | 'notes';

/** The record types: what a note, or the v4 default association, links. */
export type RecordType = Exclude<ObjectType, 'notes'>;

export const OBJECT_TYPES: readonly ObjectType[] = ['contacts', 'companies', 'deals', 'notes'];

/** The record types, without notes. */
export const RECORD_TYPES: readonly RecordType[] = ['contacts', 'companies', 'deals'];

/** The last-modified property differs: contacts use `lastmodifieddate`, the others `hs_lastmodifieddate`. */
export const MODIFIED_PROP: Record<ObjectType, string> = { contacts: 'lastmodifieddate', companies: 'hs_lastmodifieddate', deals: 'hs_lastmodifieddate', notes: 'hs_lastmodifieddate' };

/**
 * The creation-date property: `createdate` on contacts, companies and deals, `hs_createdate` on notes (an activity, as
 * HubSpot's activity guides' example answers show it: hs_createdate, hs_lastmodifieddate, hs_object_id).
 */
export const CREATED_PROP: Record<ObjectType, string> = { contacts: 'createdate', companies: 'createdate', deals: 'createdate', notes: 'hs_createdate' };

/** Properties returned when a request names none. */
export const DEFAULT_PROPERTIES: Record<ObjectType, string[]> = {
  contacts: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
  companies: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  deals: ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'],
  notes: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
};

/** Properties a client may write (a portal's default properties; custom ones are out of scope). */
export const WRITABLE: Record<ObjectType, Set<string>> = {
  contacts: new Set(['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company', 'jobtitle', 'website', 'address', 'city', 'state', 'zip', 'country', 'lifecyclestage', 'hs_lead_status', 'hubspot_owner_id', 'industry', 'message']),
  companies: new Set(['name', 'domain', 'website', 'industry', 'phone', 'address', 'city', 'state', 'zip', 'country', 'description', 'numberofemployees', 'annualrevenue', 'lifecyclestage', 'hubspot_owner_id', 'type']),
  deals: new Set(['dealname', 'amount', 'pipeline', 'dealstage', 'closedate', 'hubspot_owner_id', 'hs_priority', 'dealtype', 'description']),
  // HubSpot's notes guide: hs_timestamp (required), hs_note_body (at most 65,536 characters), hubspot_owner_id, hs_attachment_ids.
  notes: new Set(['hs_timestamp', 'hs_note_body', 'hubspot_owner_id', 'hs_attachment_ids']),
};

/**
 * Properties a create of the type must set, as HubSpot refuses their absence: a note's `hs_timestamp` ("Required",
 * HubSpot's notes guide; the refusal quoted in HubSpot/hubspot-api-nodejs#124).
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/activities/notes/guide
 */
export const REQUIRED_ON_CREATE: Readonly<Partial<Record<ObjectType, readonly string[]>>> = { notes: ['hs_timestamp'] };

/** Read-only properties the sandbox computes; they can be requested and searched. */
export const COMPUTED: ReadonlySet<string> = new Set(['hs_object_id', ...Object.values(CREATED_PROP), ...Object.values(MODIFIED_PROP)]);

/**
 * HubSpot's `industry` options (internal names, the same for companies and contacts), as
 * `GET /crm/v3/properties/companies/industry` lists them.
 */
export const INDUSTRIES: string[] = [
  'ACCOUNTING', 'AIRLINES_AVIATION', 'ALTERNATIVE_DISPUTE_RESOLUTION', 'ALTERNATIVE_MEDICINE', 'ANIMATION', 'APPAREL_FASHION',
  'ARCHITECTURE_PLANNING', 'ARTS_AND_CRAFTS', 'AUTOMOTIVE', 'AVIATION_AEROSPACE', 'BANKING', 'BIOTECHNOLOGY', 'BROADCAST_MEDIA',
  'BUILDING_MATERIALS', 'BUSINESS_SUPPLIES_AND_EQUIPMENT', 'CAPITAL_MARKETS', 'CHEMICALS', 'CIVIC_SOCIAL_ORGANIZATION',
  'CIVIL_ENGINEERING', 'COMMERCIAL_REAL_ESTATE', 'COMPUTER_NETWORK_SECURITY', 'COMPUTER_GAMES', 'COMPUTER_HARDWARE',
  'COMPUTER_NETWORKING', 'COMPUTER_SOFTWARE', 'INTERNET', 'CONSTRUCTION', 'CONSUMER_ELECTRONICS', 'CONSUMER_GOODS',
  'CONSUMER_SERVICES', 'COSMETICS', 'DAIRY', 'DEFENSE_SPACE', 'DESIGN', 'EDUCATION_MANAGEMENT', 'E_LEARNING',
  'ELECTRICAL_ELECTRONIC_MANUFACTURING', 'ENTERTAINMENT', 'ENVIRONMENTAL_SERVICES', 'EVENTS_SERVICES', 'EXECUTIVE_OFFICE',
  'FACILITIES_SERVICES', 'FARMING', 'FINANCIAL_SERVICES', 'FINE_ART', 'FISHERY', 'FOOD_BEVERAGES', 'FOOD_PRODUCTION',
  'FUND_RAISING', 'FURNITURE', 'GAMBLING_CASINOS', 'GLASS_CERAMICS_CONCRETE', 'GOVERNMENT_ADMINISTRATION',
  'GOVERNMENT_RELATIONS', 'GRAPHIC_DESIGN', 'HEALTH_WELLNESS_AND_FITNESS', 'HIGHER_EDUCATION', 'HOSPITAL_HEALTH_CARE',
  'HOSPITALITY', 'HUMAN_RESOURCES', 'IMPORT_AND_EXPORT', 'INDIVIDUAL_FAMILY_SERVICES', 'INDUSTRIAL_AUTOMATION',
  'INFORMATION_SERVICES', 'INFORMATION_TECHNOLOGY_AND_SERVICES', 'INSURANCE', 'INTERNATIONAL_AFFAIRS',
  'INTERNATIONAL_TRADE_AND_DEVELOPMENT', 'INVESTMENT_BANKING', 'INVESTMENT_MANAGEMENT', 'JUDICIARY', 'LAW_ENFORCEMENT',
  'LAW_PRACTICE', 'LEGAL_SERVICES', 'LEGISLATIVE_OFFICE', 'LEISURE_TRAVEL_TOURISM', 'LIBRARIES', 'LOGISTICS_AND_SUPPLY_CHAIN',
  'LUXURY_GOODS_JEWELRY', 'MACHINERY', 'MANAGEMENT_CONSULTING', 'MARITIME', 'MARKET_RESEARCH', 'MARKETING_AND_ADVERTISING',
  'MECHANICAL_OR_INDUSTRIAL_ENGINEERING', 'MEDIA_PRODUCTION', 'MEDICAL_DEVICES', 'MEDICAL_PRACTICE', 'MENTAL_HEALTH_CARE',
  'MILITARY', 'MINING_METALS', 'MOTION_PICTURES_AND_FILM', 'MUSEUMS_AND_INSTITUTIONS', 'MUSIC', 'NANOTECHNOLOGY',
  'NEWSPAPERS', 'NON_PROFIT_ORGANIZATION_MANAGEMENT', 'OIL_ENERGY', 'ONLINE_MEDIA', 'OUTSOURCING_OFFSHORING',
  'PACKAGE_FREIGHT_DELIVERY', 'PACKAGING_AND_CONTAINERS', 'PAPER_FOREST_PRODUCTS', 'PERFORMING_ARTS', 'PHARMACEUTICALS',
  'PHILANTHROPY', 'PHOTOGRAPHY', 'PLASTICS', 'POLITICAL_ORGANIZATION', 'PRIMARY_SECONDARY_EDUCATION', 'PRINTING',
  'PROFESSIONAL_TRAINING_COACHING', 'PROGRAM_DEVELOPMENT', 'PUBLIC_POLICY', 'PUBLIC_RELATIONS_AND_COMMUNICATIONS',
  'PUBLIC_SAFETY', 'PUBLISHING', 'RAILROAD_MANUFACTURE', 'RANCHING', 'REAL_ESTATE', 'RECREATIONAL_FACILITIES_AND_SERVICES',
  'RELIGIOUS_INSTITUTIONS', 'RENEWABLES_ENVIRONMENT', 'RESEARCH', 'RESTAURANTS', 'RETAIL', 'SECURITY_AND_INVESTIGATIONS',
  'SEMICONDUCTORS', 'SHIPBUILDING', 'SPORTING_GOODS', 'SPORTS', 'STAFFING_AND_RECRUITING', 'SUPERMARKETS',
  'TELECOMMUNICATIONS', 'TEXTILES', 'THINK_TANKS', 'TOBACCO', 'TRANSLATION_AND_LOCALIZATION',
  'TRANSPORTATION_TRUCKING_RAILROAD', 'UTILITIES', 'VENTURE_CAPITAL_PRIVATE_EQUITY', 'VETERINARY', 'WAREHOUSING',
  'WHOLESALE', 'WINE_AND_SPIRITS', 'WIRELESS', 'WRITING_AND_EDITING', 'MOBILE_GAMES',
];

/** An option's label as HubSpot shows it: `COMPUTER_SOFTWARE` -> `Computer Software`, `low` -> `Low`. */
export function optionLabel(value: string): string {
  return value.toLowerCase().split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** A stage of a deal pipeline: its id (what a deal's `dealstage` holds), label, and HubSpot's stage metadata. */
export interface DealStage {
  id: string;
  label: string;
  /** The chance a deal in this stage closes won, as HubSpot writes it ("0.2"). */
  probability: string;
  isClosed: boolean;
}

/** A deal pipeline: its id (what a deal's `pipeline` holds), label, and stages in display order. */
export interface DealPipeline {
  id: string;
  label: string;
  stages: readonly DealStage[];
}

/**
 * The deal pipelines of a sandbox account: HubSpot's default one, which every account starts with (id `default`,
 * "Sales Pipeline", its seven stages with their default probabilities; closedwon and closedlost are closed). The one
 * source of the `dealstage` and `pipeline` options a deal write is checked against, so what
 * `GET /crm/v3/pipelines/deals` lists and what a deal may hold cannot disagree.
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/pipelines/guide
 */
export const DEAL_PIPELINES: readonly DealPipeline[] = [
  {
    id: 'default',
    label: 'Sales Pipeline',
    stages: [
      { id: 'appointmentscheduled', label: 'Appointment Scheduled', probability: '0.2', isClosed: false },
      { id: 'qualifiedtobuy', label: 'Qualified To Buy', probability: '0.4', isClosed: false },
      { id: 'presentationscheduled', label: 'Presentation Scheduled', probability: '0.6', isClosed: false },
      { id: 'decisionmakerboughtin', label: 'Decision Maker Bought-In', probability: '0.8', isClosed: false },
      { id: 'contractsent', label: 'Contract Sent', probability: '0.9', isClosed: false },
      { id: 'closedwon', label: 'Closed Won', probability: '1.0', isClosed: true },
      { id: 'closedlost', label: 'Closed Lost', probability: '0.0', isClosed: true },
    ],
  },
];

/**
 * An option's label as HubSpot shows it in an INVALID_OPTION message: a deal stage's or pipeline's own label
 * (`closedwon` -> `Closed Won`), any other option's from its value (`COMPUTER_SOFTWARE` -> `Computer Software`).
 */
export function optionLabelOf(property: string, value: string): string {
  if (property === 'dealstage') return DEAL_PIPELINES.flatMap((p) => p.stages).find((s) => s.id === value)?.label ?? optionLabel(value);
  if (property === 'pipeline') return DEAL_PIPELINES.find((p) => p.id === value)?.label ?? optionLabel(value);
  return optionLabel(value);
}

export const ENUMS: Record<string, string[]> = {
  lifecyclestage: ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other'],
  hs_lead_status: ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'],
  // The deal pipelines' ids and their stages' ids, from the one list GET /crm/v3/pipelines/deals answers with.
  dealstage: DEAL_PIPELINES.flatMap((p) => p.stages.map((s) => s.id)),
  pipeline: DEAL_PIPELINES.map((p) => p.id),
  // HubSpot's internal option values are lower case (labels Low, Medium, High): knowledge base "HubSpot's default deal
  // properties" and the values HubSpot's API returns for hs_priority.
  hs_priority: ['low', 'medium', 'high'],
  industry: INDUSTRIES,
  dealtype: ['newbusiness', 'existingbusiness'],
};

/** Properties `query` searches (HubSpot's default searchable properties). */
export const QUERY_PROPERTIES: Record<ObjectType, string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'company', 'hs_object_id'],
  companies: ['name', 'domain', 'website', 'phone', 'hs_object_id'],
  deals: ['dealname', 'hs_object_id'],
  notes: ['hs_note_body', 'hs_object_id'],
};

/** HubSpot's name for an object type in an association refusal (`CONTACT=101 is not valid`). */
export const OBJECT_TYPE_NAMES: Record<ObjectType, string> = { contacts: 'CONTACT', companies: 'COMPANY', deals: 'DEAL', notes: 'NOTE' };

/**
 * The HubSpot-defined association types between the sandbox's object types, by the type a record is created as:
 * `associationTypeId` -> the type it links to, as HubSpot's "Association type ID values" tables list them (the
 * official client's `AssociationTypes` holds the same numbers). The primary-company types (1, 5, 6, 2) are labels
 * beside the unlabeled ones; the sandbox stores the ids given.
 * @see https://developers.hubspot.com/docs/api-reference/latest/crm/associations/associate-records/guide
 */
export const ASSOCIATION_TYPES: Record<ObjectType, Readonly<Record<number, ObjectType>>> = {
  contacts: { 449: 'contacts', 279: 'companies', 1: 'companies', 4: 'deals', 201: 'notes' },
  companies: { 280: 'contacts', 2: 'contacts', 450: 'companies', 13: 'companies', 14: 'companies', 342: 'deals', 6: 'deals', 189: 'notes' },
  deals: { 3: 'contacts', 341: 'companies', 5: 'companies', 451: 'deals', 213: 'notes' },
  notes: { 202: 'contacts', 190: 'companies', 214: 'deals' },
};

/**
 * The default (most generic, unlabelled) association type from one object type to another: what HubSpot's v4 "Associate
 * records (default)" endpoint (`PUT /crm/v4/objects/{from}/{id}/associations/default/{to}/{id}`) creates, and the
 * non-primary type a create body uses (deal to contact 3, deal to company 341, contact to company 279). Each is a key
 * of {@link ASSOCIATION_TYPES} for the same pair (tested).
 */
export const DEFAULT_ASSOCIATION_TYPE_IDS: Record<RecordType, Readonly<Record<RecordType, number>>> = {
  contacts: { contacts: 449, companies: 279, deals: 4 },
  companies: { contacts: 280, companies: 450, deals: 342 },
  deals: { contacts: 3, companies: 341, deals: 451 },
};

/** The search pseudo-property that filters by associated records (`associations.contact`), by the type it names. */
export const ASSOCIATION_SEARCH_PROPERTIES: Readonly<Record<string, ObjectType>> = {
  'associations.contact': 'contacts',
  'associations.company': 'companies',
  'associations.deal': 'deals',
};
