/**
 * The CRM tools send what HubSpot honours, and the sandbox answers as HubSpot does (issue 12, items 1, 2 and 8),
 * through the HTTP service: null clears a property (sent as ""), hs_priority goes out as HubSpot's option value (on
 * create and update), industry is one of HubSpot's internal option names, and a new user starts with sample records.
 * crm_company_update changes only the properties given, and HubSpot's refusals of a company write reach the agent with
 * a hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  ({ token } = await crmUser(h, 'kim', 'kim@example.com'));
});
afterAll(async () => h?.close());

const run = (tool_name: string, tool_input: unknown) => h.call('POST', '/api/v1/execute_tool', { token, body: { identifier: 'kim', tool_name, tool_input } });
const proxy = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'kim', method, path, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) } });

describe('CRM fidelity', () => {
  it('a new user starts with the sample contacts, companies and deals the consent page promises', async () => {
    const contacts = await run('crm_contacts_list', { properties: 'email,company' });
    expect(contacts.status).toBe(200);
    expect(contacts.body.data.results.map((c: { properties: { email: string } }) => c.properties.email)).toContain('ana.lopez@northwind.example');
    const companies = await run('crm_companies_search', { filterGroups: [{ filters: [{ propertyName: 'industry', operator: 'HAS_PROPERTY' }] }], properties: 'name,industry' });
    expect(companies.body.data.total).toBe(3);
    const deals = await run('crm_deals_search', { query: 'renewal', properties: 'dealname,hs_priority' });
    expect(deals.body.data.results[0].properties).toMatchObject({ dealname: 'Northwind - annual renewal', hs_priority: 'high' });
  });

  it('a null in an update clears the property (sent as "", which HubSpot honours); the sandbox ignores a raw null', async () => {
    const created = await run('crm_contact_create', { email: 'lee@example.com', phone: '+1 555 0100', jobtitle: 'CFO' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    h.sandbox.control.clearRequests();
    expect((await run('crm_contact_update', { contact_id: id, props: { phone: null } })).status).toBe(200);
    expect(h.sandbox.control.requests('crm').at(-1)?.body).toEqual({ properties: { phone: '' } });
    // HubSpot itself ignores null: the proxy sends it raw and the value stays.
    expect((await proxy('PATCH', `/crm/v3/objects/contacts/${id}`, { properties: { jobtitle: null } })).body.status).toBe(200);
    const read = await run('crm_contact_get', { contact_id: id, properties: 'phone,jobtitle' });
    expect(read.body.data.properties).toMatchObject({ phone: null, jobtitle: 'CFO' });

    const deal = await run('crm_deal_create', { dealname: 'Clear me', amount: 100, dealstage: 'qualifiedtobuy', description: 'to clear' });
    expect((await run('crm_deal_update', { deal_id: deal.body.data.id, properties: { description: null } })).status).toBe(200);
    const dealRead = await proxy('GET', `/crm/v3/objects/deals/${deal.body.data.id}`, undefined, { properties: 'description' });
    expect(dealRead.body.body.properties.description).toBeNull();
  });

  it('a contact\'s industry given by its label gets crm_contact_update\'s INVALID_OPTION hint, though HubSpot lists every option', async () => {
    const created = await run('crm_contact_create', { email: 'industry@example.com' });
    const res = await run('crm_contact_update', { contact_id: created.body.data.id, props: { industry: 'Computer Software' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^The upstream API answered 400 to PATCH \/crm\/v3\/objects\/contacts\/\d+: Property values were not valid: .*…/s);
    expect(res.body.error.details.hint).toMatch(/takes an option's internal value, not its label/);
    expect(res.body.error.details.body).toMatchObject({ category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OPTION' }] });
  });

  it('hs_priority HIGH is sent as HubSpot\'s "high"; the sandbox refuses "HIGH" as HubSpot does', async () => {
    const created = await run('crm_deal_create', { dealname: 'Priority deal', amount: 5000, dealstage: 'qualifiedtobuy', hs_priority: 'HIGH' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const read = await proxy('GET', `/crm/v3/objects/deals/${created.body.data.id}`, undefined, { properties: 'hs_priority' });
    expect(read.body.body.properties.hs_priority).toBe('high');
    const raw = await proxy('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Raw', hs_priority: 'HIGH' } });
    expect(raw.body.status).toBe(400);
    expect(raw.body.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(raw.body.body.message).toContain('HIGH was not one of the allowed options');
    // crm_deal_update takes the same HIGH/MEDIUM/LOW in its properties (HubSpot's own low too), and refuses others before sending.
    expect((await run('crm_deal_update', { deal_id: created.body.data.id, properties: { hs_priority: 'MEDIUM' } })).status).toBe(200);
    const updated = await proxy('GET', `/crm/v3/objects/deals/${created.body.data.id}`, undefined, { properties: 'hs_priority' });
    expect(updated.body.body.properties.hs_priority).toBe('medium');
    expect((await run('crm_deal_update', { deal_id: created.body.data.id, properties: { hs_priority: 'low' } })).status).toBe(200);
    h.sandbox.control.clearRequests();
    const refusedUpdate = await run('crm_deal_update', { deal_id: created.body.data.id, properties: { hs_priority: 'URGENT' } });
    expect(refusedUpdate.status).toBe(400);
    expect(refusedUpdate.body.error.details.violations[0]).toMatchObject({ pointer: '/properties/hs_priority', keyword: 'enum' });
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });

  it('industry takes HubSpot\'s internal option names and refuses anything else before sending', async () => {
    expect((await run('crm_company_create', { name: 'Soft Co', industry: 'COMPUTER_SOFTWARE' })).status).toBe(200);
    h.sandbox.control.clearRequests();
    const refused = await run('crm_company_create', { name: 'Soft Co 2', industry: 'Software' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.violations[0]).toMatchObject({ pointer: '/industry', keyword: 'enum' });
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });
  it('crm_company_update changes the properties given (numbers as strings, null clears); HubSpot\'s refusals come back with hints', async () => {
    const acme = await run('crm_company_create', { name: 'Update Co', domain: 'update-co.example', city: 'Lyon', phone: '+33 1' });
    expect(acme.status, JSON.stringify(acme.body)).toBe(200);
    const id = acme.body.data.id as string;
    h.sandbox.control.clearRequests();
    const updated = await run('crm_company_update', { company_id: id, properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: 250, annualrevenue: 5000000, phone: null } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const sent = h.sandbox.control.requests('crm').at(-1);
    expect([sent?.method, sent?.path, sent?.body]).toEqual(['PATCH', `/crm/v3/objects/companies/${id}`, { properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', annualrevenue: '5000000', phone: '' } }]);
    expect(updated.body.data.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', annualrevenue: '5000000', phone: null });
    const read = await run('crm_company_get', { company_id: id, properties: 'name,domain,city,phone' });
    expect(read.body.data.properties).toMatchObject({ name: 'Update Co', domain: 'update-co.example', city: 'Lyon', phone: null });

    // HubSpot's words, with the tool's hint: an option's label, a number with words, a property companies lack, no such company.
    const hintFor = async (properties: Record<string, unknown>, companyId = id) => {
      const res = await run('crm_company_update', { company_id: companyId, properties });
      expect(res.status).toBe(companyId === id ? 400 : 404);
      expect(res.body.error.code).toBe('upstream_error');
      return { hint: res.body.error.details.hint as string, body: res.body.error.details.body };
    };
    // HubSpot's refusal of an industry lists all its options (over 16 KB): read whole for its code, so the hint is
    // found by it, and passed on as JSON with its long strings clipped.
    const option = await hintFor({ industry: 'Computer Software' });
    expect(option.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OPTION', context: { propertyName: ['industry'] } }] });
    expect(option.body.message).toMatch(/^Property values were not valid: .*Computer Software was not one of the allowed options.*…$/s);
    expect(option.hint).toMatch(/industry one of the names crm_company_create's industry parameter lists \(COMPUTER_SOFTWARE, not Computer Software\)/);
    expect((await hintFor({ lifecyclestage: 'Customer' })).hint).toMatch(/internal value, not its label/);
    expect((await hintFor({ numberofemployees: 'about 50' })).hint).toMatch(/plain number/);
    expect((await hintFor({ favourite_colour: 'blue' })).hint).toMatch(/properties names a property companies do not have/);
    expect((await hintFor({ city: 'Paris' }, '999999')).hint).toMatch(/crm_companies_search finds companies/);
    expect((await run('crm_company_get', { company_id: id, properties: 'industry,city' })).body.data.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', city: 'Lyon' });
  });

  it('crm_company_update refuses a label for a property name, a URL for the domain and a name for the id before sending', async () => {
    h.sandbox.control.clearRequests();
    const label = await run('crm_company_update', { company_id: '20001', properties: { 'Number of Employees': 50 } });
    expect(label.status).toBe(400);
    expect(label.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/properties/Number of Employees', message: expect.stringContaining("looks like a property's label") })]);
    const url = await run('crm_company_update', { company_id: '20001', properties: { domain: 'https://www.acme.com/' } });
    expect(url.body.error.details.violations).toEqual([
      expect.objectContaining({ pointer: '/properties/domain', message: 'properties.domain must be the domain alone, without protocol or path: "www.acme.com", not "https://www.acme.com/"' }),
    ]);
    const byName = await run('crm_company_update', { company_id: 'Acme', properties: { city: 'Paris' } });
    expect(byName.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/company_id']);
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });
});
