import type { BuildCase, RefuseCase } from '../harness.js';

const fg = [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] }];

export const crmBuild: BuildCase[] = [
  ...(['companies', 'contacts', 'deals'] as const).map((x): BuildCase => ({
    name: 'full-text and filter search, comma list as an array',
    tool: `crm_${x}_search`,
    input: { query: 'acme', filterGroups: JSON.stringify(fg), properties: 'name, domain', limit: 20, after: '20' },
    want: {
      method: 'POST', path: `/crm/v3/objects/${x}/search`, query: {}, headers: {},
      body: { query: 'acme', filterGroups: fg, properties: ['name', 'domain'], limit: 20, after: '20' },
    },
  })),
  ...(['companies', 'contacts', 'deals'] as const).map((x): BuildCase => ({
    name: 'filterGroups given as an array is sent as it is',
    tool: `crm_${x}_search`,
    input: { filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '10', highValue: '20' }, { propertyName: 'x', operator: 'IN', values: ['a', 'b'] }] }] },
    want: {
      method: 'POST', path: `/crm/v3/objects/${x}/search`, query: {}, headers: {},
      body: { filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '10', highValue: '20' }, { propertyName: 'x', operator: 'IN', values: ['a', 'b'] }] }] },
    },
  })),
  {
    name: 'search with nothing: an empty JSON body',
    tool: 'crm_deals_search',
    input: {},
    want: { method: 'POST', path: '/crm/v3/objects/deals/search', query: {}, headers: {}, body: {} },
  },
  {
    name: 'create with numbers sent as strings',
    tool: 'crm_company_create',
    input: { name: 'Acme Corp', domain: 'acme.com', annualrevenue: 5000000, numberofemployees: 250, city: 'Lyon', country: 'France', industry: 'COMPUTER_SOFTWARE', phone: '+33 4', state: 'ARA', description: 'Anvils' },
    want: {
      method: 'POST', path: '/crm/v3/objects/companies', query: {}, headers: {},
      body: { properties: { name: 'Acme Corp', annualrevenue: '5000000', city: 'Lyon', country: 'France', description: 'Anvils', domain: 'acme.com', industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', phone: '+33 4', state: 'ARA' } },
    },
  },
  {
    name: 'get with chosen properties',
    tool: 'crm_company_get',
    input: { company_id: '9876543210', properties: 'name,domain,industry' },
    want: { method: 'GET', path: '/crm/v3/objects/companies/9876543210', query: { properties: ['name', 'domain', 'industry'] }, headers: {} },
  },
  {
    name: 'create a lead',
    tool: 'crm_contact_create',
    input: { email: 'ana@example.com', firstname: 'Ana', lastname: 'Silva', company: 'Acme', jobtitle: 'CTO', phone: '+1 617', website: 'https://acme.com', lifecyclestage: 'lead', hs_lead_status: 'NEW' },
    want: {
      method: 'POST', path: '/crm/v3/objects/contacts', query: {}, headers: {},
      body: { properties: { email: 'ana@example.com', company: 'Acme', firstname: 'Ana', hs_lead_status: 'NEW', jobtitle: 'CTO', lastname: 'Silva', lifecyclestage: 'lead', phone: '+1 617', website: 'https://acme.com' } },
    },
  },
  {
    name: 'get with default properties',
    tool: 'crm_contact_get',
    input: { contact_id: '12345' },
    want: { method: 'GET', path: '/crm/v3/objects/contacts/12345', query: {}, headers: {} },
  },
  {
    // HubSpot ignores null in a property write; only "" clears (issue 12): a caller's null is sent as "".
    name: 'update: props become string properties, null clears (sent as "")',
    tool: 'crm_contact_update',
    input: { contact_id: '12345', props: { firstname: 'Ana', lifecyclestage: 'customer', hs_employee_count: 12, phone: null } },
    want: { method: 'PATCH', path: '/crm/v3/objects/contacts/12345', query: {}, headers: {}, body: { properties: { firstname: 'Ana', lifecyclestage: 'customer', hs_employee_count: '12', phone: '' } } },
  },
  {
    name: 'list with paging and archived',
    tool: 'crm_contacts_list',
    input: { limit: 50, after: '101', properties: 'email,firstname', archived: false },
    want: { method: 'GET', path: '/crm/v3/objects/contacts', query: { limit: '50', after: '101', properties: ['email', 'firstname'], archived: 'false' }, headers: {} },
  },
  {
    // The tool keeps HIGH/MEDIUM/LOW; HubSpot's hs_priority option values are high/medium/low (HubSpot knowledge base
    // "HubSpot's default deal properties": Priority is Low, Medium or High; the API reads and writes the lower-case
    // internal values; the official @hubspot/api-client types property values as plain strings, so it does not say).
    name: 'create a deal with close date and priority (sent as HubSpot\'s lower-case option value)',
    tool: 'crm_deal_create',
    input: { dealname: 'Acme renewal', amount: 12000.5, dealstage: 'appointmentscheduled', pipeline: 'default', closedate: '2026-06-30', hs_priority: 'HIGH', dealtype: 'newbusiness', description: 'Upsell' },
    want: {
      method: 'POST', path: '/crm/v3/objects/deals', query: {}, headers: {},
      body: { properties: { amount: '12000.5', dealname: 'Acme renewal', dealstage: 'appointmentscheduled', closedate: '2026-06-30', dealtype: 'newbusiness', description: 'Upsell', hs_priority: 'high', pipeline: 'default' } },
    },
  },
  {
    name: 'update a deal',
    tool: 'crm_deal_update',
    input: { deal_id: '4567', properties: { dealstage: 'closedwon', amount: 15000 } },
    want: { method: 'PATCH', path: '/crm/v3/objects/deals/4567', query: {}, headers: {}, body: { properties: { dealstage: 'closedwon', amount: '15000' } } },
  },
  {
    name: 'update a deal with good_deal as a deal property',
    tool: 'crm_deal_update',
    input: { deal_id: '4567', properties: { dealstage: 'closedwon' }, good_deal: true },
    want: { method: 'PATCH', path: '/crm/v3/objects/deals/4567', query: {}, headers: {}, body: { properties: { dealstage: 'closedwon', good_deal: 'true' } } },
  },
];

const deal = { dealname: 'D', amount: 1, dealstage: 'closedwon' };
export const crmRefuse: RefuseCase[] = [
  ...(['companies', 'contacts', 'deals'] as const).flatMap((x): RefuseCase[] => [
    { name: 'limit over 100', tool: `crm_${x}_search`, input: { limit: 101 }, pointer: '/limit', names: 'limit' },
    { name: 'limit 0', tool: `crm_${x}_search`, input: { limit: 0 }, pointer: '/limit', names: 'limit' },
    { name: 'filterGroups not JSON', tool: `crm_${x}_search`, input: { filterGroups: '[{filters: }' }, pointer: '/filterGroups', names: 'filterGroups' },
    { name: 'takes no tool_version', tool: `crm_${x}_search`, input: { tool_version: '1.0.0' }, pointer: '/tool_version', names: 'tool_version' },
    // filterGroups, as an array or as a JSON string, is checked the same way, each error at its pointer.
    { name: 'filterGroups operator unknown (array)', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQUALS', value: 'a' }] }] }, pointer: '/filterGroups/0/filters/0/operator', names: 'filterGroups[0].filters[0].operator must be one of: EQ, NEQ' },
    { name: 'filterGroups operator unknown (string)', tool: `crm_${x}_search`, input: { filterGroups: '[{"filters":[{"propertyName":"name","operator":"like","value":"a"}]}]' }, pointer: '/filterGroups/0/filters/0/operator', names: 'operator must be one of' },
    { name: 'filterGroups propertyName missing', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: [{ operator: 'HAS_PROPERTY' }] }] }, pointer: '/filterGroups/0/filters/0/propertyName', names: 'propertyName is required' },
    { name: 'filterGroups IN without values', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'IN', value: 'x' }] }] }, pointer: '/filterGroups/0/filters/0/values', names: 'values is required with operator IN' },
    { name: 'filterGroups BETWEEN without highValue', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'BETWEEN', value: '1' }] }] }, pointer: '/filterGroups/0/filters/0/highValue', names: 'highValue is required with operator BETWEEN' },
    { name: 'filterGroups HAS_PROPERTY with a value', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'HAS_PROPERTY', value: 'x' }] }] }, pointer: '/filterGroups/0/filters/0/value', names: 'value is not taken by operator HAS_PROPERTY' },
    { name: 'filterGroups a group without filters', tool: `crm_${x}_search`, input: { filterGroups: [{ filter: [] }] }, pointer: '/filterGroups/0/filters', names: 'filters is required' },
    { name: 'filterGroups an object, not a list', tool: `crm_${x}_search`, input: { filterGroups: '{"filters":[]}' }, pointer: '/filterGroups', names: 'must be an array of filter groups' },
    { name: 'filterGroups six groups', tool: `crm_${x}_search`, input: { filterGroups: Array.from({ length: 6 }, () => ({ filters: [{ propertyName: 'a', operator: 'HAS_PROPERTY' }] })) }, pointer: '/filterGroups', names: 'at most 5' },
    { name: 'filterGroups eleven filters in a group', tool: `crm_${x}_search`, input: { filterGroups: [{ filters: Array.from({ length: 11 }, () => ({ propertyName: 'a', operator: 'HAS_PROPERTY' })) }] }, pointer: '/filterGroups/0/filters', names: 'at most 10 in a group' },
    { name: 'filterGroups 26 filters in all', tool: `crm_${x}_search`, input: { filterGroups: [10, 10, 6].map((n) => ({ filters: Array.from({ length: n }, () => ({ propertyName: 'a', operator: 'HAS_PROPERTY' })) })) }, pointer: '/filterGroups', names: 'at most 25' },
  ]),
  { name: 'limit not a whole number', tool: 'crm_contacts_search', input: { limit: 2.5 }, pointer: '/limit', names: 'limit must be an integer' },
  { name: 'name missing', tool: 'crm_company_create', input: { domain: 'acme.com' }, pointer: '/name', names: 'name' },
  { name: 'annualrevenue not a number', tool: 'crm_company_create', input: { name: 'A', annualrevenue: '5M' }, pointer: '/annualrevenue', names: 'annualrevenue' },
  { name: 'company_id missing', tool: 'crm_company_get', input: {}, pointer: '/company_id', names: 'company_id' },
  { name: 'email missing', tool: 'crm_contact_create', input: { firstname: 'Ana' }, pointer: '/email', names: 'email' },
  { name: 'email invalid', tool: 'crm_contact_create', input: { email: 'ana-at-example' }, pointer: '/email', names: 'email' },
  { name: 'lifecyclestage unknown', tool: 'crm_contact_create', input: { email: 'a@b.co', lifecyclestage: 'vip' }, pointer: '/lifecyclestage', names: 'lifecyclestage' },
  { name: 'hs_lead_status unknown', tool: 'crm_contact_create', input: { email: 'a@b.co', hs_lead_status: 'HOT' }, pointer: '/hs_lead_status', names: 'hs_lead_status' },
  { name: 'takes no schema_version', tool: 'crm_contact_create', input: { email: 'a@b.co', schema_version: '1' }, pointer: '/schema_version', names: 'schema_version' },
  { name: 'contact_id missing', tool: 'crm_contact_get', input: { properties: 'email' }, pointer: '/contact_id', names: 'contact_id' },
  { name: 'props missing', tool: 'crm_contact_update', input: { contact_id: '1' }, pointer: '/props', names: 'props' },
  { name: 'props not an object', tool: 'crm_contact_update', input: { contact_id: '1', props: 'firstname=Ana' }, pointer: '/props', names: 'props' },
  { name: 'limit over 100', tool: 'crm_contacts_list', input: { limit: 101 }, pointer: '/limit', names: 'limit' },
  { name: 'archived not a boolean', tool: 'crm_contacts_list', input: { archived: 'yes' }, pointer: '/archived', names: 'archived' },
  { name: 'amount missing', tool: 'crm_deal_create', input: { dealname: 'D', dealstage: 's' }, pointer: '/amount', names: 'amount' },
  { name: 'dealstage missing', tool: 'crm_deal_create', input: { dealname: 'D', amount: 1 }, pointer: '/dealstage', names: 'dealstage' },
  { name: 'hs_priority unknown', tool: 'crm_deal_create', input: { ...deal, hs_priority: 'URGENT' }, pointer: '/hs_priority', names: 'hs_priority' },
  { name: 'hs_priority lower case', tool: 'crm_deal_create', input: { ...deal, hs_priority: 'high' }, pointer: '/hs_priority', names: 'hs_priority' },
  { name: 'industry not a HubSpot option', tool: 'crm_company_create', input: { name: 'A', industry: 'Software' }, pointer: '/industry', names: 'industry must be one of: ACCOUNTING' },
  { name: 'closedate not a calendar date', tool: 'crm_deal_create', input: { ...deal, closedate: '2026-02-30' }, pointer: '/closedate', names: 'closedate' },
  { name: 'closedate not YYYY-MM-DD', tool: 'crm_deal_create', input: { ...deal, closedate: '30/06/2026' }, pointer: '/closedate', names: 'closedate' },
  { name: 'properties missing', tool: 'crm_deal_update', input: { deal_id: '1' }, pointer: '/properties', names: 'properties' },
  { name: 'good_deal not a boolean', tool: 'crm_deal_update', input: { deal_id: '1', properties: {}, good_deal: 'yes' }, pointer: '/good_deal', names: 'good_deal' },
];
