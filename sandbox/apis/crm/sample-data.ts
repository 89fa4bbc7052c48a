import type { Crm } from './store.js';

/**
 * What a new sandbox CRM user starts with, as the consent page promises ("a new one starts with sample data"): a few
 * companies, their contacts and open and closed deals, every value one HubSpot accepts (internal option names for
 * `industry`, `lifecyclestage`, `dealstage`, `hs_priority`), owned by the user, and associated as a portal's records
 * are: each contact with the company whose domain its e-mail has (HubSpot's "create and associate companies with
 * contacts" matches a contact's e-mail domain to a company's Company Domain Name), each deal with its company and
 * contact, all with the default unlabelled types (contact to company 279, deal to company 341, deal to contact 3; the
 * primary-company label is not modelled). HubSpot's associations are two-way, and the sandbox reads each from either
 * end, so `associations.contact` finds a contact's company and `associations.company` a company's contacts.
 * @see https://knowledge.hubspot.com/articles/kcs_article/contacts/why-was-my-contact-automatically-associated-with-a-company-in-hubspot-crm
 * @see https://knowledge.hubspot.com/records/associate-records
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

/** Each deal with the domain of its company and the e-mail of its contact. */
const DEALS: { properties: Record<string, string>; company: string; contact: string }[] = [
  {
    properties: { dealname: 'Northwind - annual renewal', amount: '48000', dealstage: 'closedwon', hs_priority: 'high', dealtype: 'existingbusiness', closedate: '2026-01-15T00:00:00.000Z' },
    company: 'northwind.example',
    contact: 'ana.lopez@northwind.example',
  },
  {
    properties: { dealname: 'Contoso - fleet tracking pilot', amount: '12500', dealstage: 'presentationscheduled', hs_priority: 'medium', dealtype: 'newbusiness', closedate: '2026-06-30T00:00:00.000Z' },
    company: 'contoso.example',
    contact: 'chloe.martin@contoso.example',
  },
  {
    properties: { dealname: 'Fabrikam - expense tool', amount: '7200', dealstage: 'qualifiedtobuy', hs_priority: 'low', dealtype: 'newbusiness', closedate: '2026-09-30T00:00:00.000Z' },
    company: 'fabrikam.example',
    contact: 'dev.patel@fabrikam.example',
  },
];

export function seedSampleCrm(crm: Crm, ownerId: string, now: number): void {
  const companyIds = new Map<string, string>();
  const contactIds = new Map<string, string>();
  for (const c of COMPANIES) companyIds.set(c.domain as string, crm.create('companies', { ...c, hubspot_owner_id: ownerId }, now).id);
  for (const c of CONTACTS) {
    const contact = crm.create('contacts', { ...c, hubspot_owner_id: ownerId }, now);
    contactIds.set(c.email as string, contact.id);
    crm.associateDefault({ type: 'contacts', id: contact.id }, { type: 'companies', id: companyIds.get((c.email as string).split('@')[1] as string) as string });
  }
  for (const d of DEALS) {
    const deal = crm.create('deals', { ...d.properties, pipeline: 'default', hubspot_owner_id: ownerId }, now);
    crm.associateDefault({ type: 'deals', id: deal.id }, { type: 'companies', id: companyIds.get(d.company) as string });
    crm.associateDefault({ type: 'deals', id: deal.id }, { type: 'contacts', id: contactIds.get(d.contact) as string });
  }
}
