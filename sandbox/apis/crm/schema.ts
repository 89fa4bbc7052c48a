/** The three CRM object types the sandbox serves. */
export type ObjectType = 'contacts' | 'companies' | 'deals';

export const OBJECT_TYPES: readonly ObjectType[] = ['contacts', 'companies', 'deals'];

/** The last-modified property differs: contacts use `lastmodifieddate`, the others `hs_lastmodifieddate`. */
export const MODIFIED_PROP: Record<ObjectType, string> = { contacts: 'lastmodifieddate', companies: 'hs_lastmodifieddate', deals: 'hs_lastmodifieddate' };

/** Properties returned when a request names none. */
export const DEFAULT_PROPERTIES: Record<ObjectType, string[]> = {
  contacts: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
  companies: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  deals: ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'],
};

/** Properties a client may write (a portal's default properties; custom ones are out of scope). */
export const WRITABLE: Record<ObjectType, Set<string>> = {
  contacts: new Set(['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company', 'jobtitle', 'website', 'address', 'city', 'state', 'zip', 'country', 'lifecyclestage', 'hs_lead_status', 'hubspot_owner_id', 'industry', 'message']),
  companies: new Set(['name', 'domain', 'website', 'industry', 'phone', 'address', 'city', 'state', 'zip', 'country', 'description', 'numberofemployees', 'annualrevenue', 'lifecyclestage', 'hubspot_owner_id', 'type']),
  deals: new Set(['dealname', 'amount', 'pipeline', 'dealstage', 'closedate', 'hubspot_owner_id', 'hs_priority', 'dealtype', 'description']),
};

/** Read-only properties the sandbox computes; they can be requested and searched. */
export const COMPUTED = new Set(['hs_object_id', 'createdate', 'lastmodifieddate', 'hs_lastmodifieddate']);

export const ENUMS: Record<string, string[]> = {
  lifecyclestage: ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other'],
  hs_lead_status: ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'],
  dealstage: ['appointmentscheduled', 'qualifiedtobuy', 'presentationscheduled', 'decisionmakerboughtin', 'contractsent', 'closedwon', 'closedlost'],
  pipeline: ['default'],
  hs_priority: ['HIGH', 'MEDIUM', 'LOW'],
  dealtype: ['newbusiness', 'existingbusiness'],
};

/** Properties `query` searches (HubSpot's default searchable properties). */
export const QUERY_PROPERTIES: Record<ObjectType, string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'company', 'hs_object_id'],
  companies: ['name', 'domain', 'website', 'phone', 'hs_object_id'],
  deals: ['dealname', 'hs_object_id'],
};
