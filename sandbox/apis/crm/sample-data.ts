import type { Crm } from './store.js';

/**
 * What a new sandbox CRM user starts with, as the consent page promises ("a new one starts with sample data"): a few
 * companies, their contacts and open and closed deals, every value one HubSpot accepts (internal option names for
 * `industry`, `lifecyclestage`, `dealstage`, `hs_priority`), owned by the user.
 */
const COMPANIES: Record<string, string>[] = [
  { name: 'Northwind Traders', domain: 'northwind.example', industry: 'COMPUTER_SOFTWARE', city: 'Boston', country: 'United States', lifecyclestage: 'customer' },
  { name: 'Contoso', domain: 'contoso.example', industry: 'LOGISTICS_AND_SUPPLY_CHAIN', city: 'Hamburg', country: 'Germany', lifecyclestage: 'opportunity' },
  { name: 'Fabrikam', domain: 'fabrikam.example', industry: 'FINANCIAL_SERVICES', city: 'Austin', country: 'United States', lifecyclestage: 'lead' },
];

const CONTACTS: Record<string, string>[] = [
  { email: 'ana.lopez@northwind.example', firstname: 'Ana', lastname: 'Lopez', jobtitle: 'CTO', company: 'Northwind Traders', lifecyclestage: 'customer', hs_lead_status: 'CONNECTED' },
  { email: 'ben.okafor@northwind.example', firstname: 'Ben', lastname: 'Okafor', jobtitle: 'Head of Procurement', company: 'Northwind Traders', lifecyclestage: 'customer' },
  { email: 'chloe.martin@contoso.example', firstname: 'Chloé', lastname: 'Martin', jobtitle: 'Operations Director', company: 'Contoso', lifecyclestage: 'opportunity', hs_lead_status: 'IN_PROGRESS' },
  { email: 'dev.patel@fabrikam.example', firstname: 'Dev', lastname: 'Patel', jobtitle: 'Finance Manager', company: 'Fabrikam', lifecyclestage: 'lead', hs_lead_status: 'NEW' },
];

const DEALS: Record<string, string>[] = [
  { dealname: 'Northwind - annual renewal', amount: '48000', dealstage: 'closedwon', hs_priority: 'high', dealtype: 'existingbusiness', closedate: '2026-01-15T00:00:00.000Z' },
  { dealname: 'Contoso - fleet tracking pilot', amount: '12500', dealstage: 'presentationscheduled', hs_priority: 'medium', dealtype: 'newbusiness', closedate: '2026-06-30T00:00:00.000Z' },
  { dealname: 'Fabrikam - expense tool', amount: '7200', dealstage: 'qualifiedtobuy', hs_priority: 'low', dealtype: 'newbusiness', closedate: '2026-09-30T00:00:00.000Z' },
];

export function seedSampleCrm(crm: Crm, ownerId: string, now: number): void {
  for (const c of COMPANIES) crm.create('companies', { ...c, hubspot_owner_id: ownerId }, now);
  for (const c of CONTACTS) crm.create('contacts', { ...c, hubspot_owner_id: ownerId }, now);
  for (const d of DEALS) crm.create('deals', { ...d, pipeline: 'default', hubspot_owner_id: ownerId }, now);
}
