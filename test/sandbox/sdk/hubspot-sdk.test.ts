/**
 * HubSpot's official Node client (@hubspot/api-client) as a conformance client:
 *
 * 1. Unchanged, pointed at the sandbox's HubSpot origin (`basePath`), it runs every operation the CRM tools cover
 *    and gets HubSpot's refusals in the shape it parses.
 * 2. For every CRM tool, the request our builder makes equals what the client sends for the same operation
 *    (method, path, query, body), both captured by a local recording server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssociationTypes, Client } from '@hubspot/api-client';
import { startSandbox } from '../../../sandbox/index.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { tools } from '../../../generated/tools.gen.js';
import type { ToolDefinition } from '../../../runtime/types.js';
import { build } from '../../specs/harness.js';
import { clients, hubspotTokens } from '../helpers.js';
import { asSeenUpstream, builderRequest, startRecordingServer, type RecordingServer } from './recording-server.js';
import { expectEveryToolCovered } from './tool-coverage.js';

const SCOPES = [
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'crm.objects.owners.read',
].join(' ');

/** The client's enum value for HubSpot-defined association types (its models type the field as that enum). */
const HUBSPOT_DEFINED = 'HUBSPOT_DEFINED' as never;

/** The client as an application would build it; no retries, so a refusal reaches the test as the first answer. */
function hubspot(basePath: string, accessToken: string): Client {
  return new Client({ accessToken, basePath, numberOfApiCallRetries: 0 });
}

/** The HTTP status and parsed body of a refused client call (the client throws an ApiException). */
async function refusal(call: Promise<unknown>): Promise<{ code: number; body: { status: string; category: string; message: string } }> {
  try {
    await call;
  } catch (err) {
    const e = err as { code?: number; body?: unknown };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, body: (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as never };
  }
  throw new Error('the call was expected to be refused');
}

describe('the HubSpot client against the sandbox, unchanged', () => {
  let sb: Sandbox;
  let hs: Client;

  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), providerRateLimits: false });
    const { access_token } = await hubspotTokens(sb, 'sdk@example.com', SCOPES);
    hs = hubspot(sb.origins.hubspot!, access_token);
  });
  afterAll(() => sb.close());

  it('companies: create, getById with properties, update, search', async () => {
    const created = await hs.crm.companies.basicApi.create({ properties: { name: 'SDK Corp', domain: 'sdk-corp.example', city: 'Lyon' }, associations: [] });
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties.name).toBe('SDK Corp');

    const updated = await hs.crm.companies.basicApi.update(created.id, { properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', city: '' } });
    expect(updated.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', city: null });
    const refused = await refusal(hs.crm.companies.basicApi.update(created.id, { properties: { favourite_colour: 'blue', numberofemployees: 'fifty' } }));
    expect(refused.code).toBe(400);
    expect(refused.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', errors: [{ code: 'PROPERTY_DOESNT_EXIST' }, { code: 'INVALID_FLOAT' }] });
    expect((await refusal(hs.crm.companies.basicApi.update('999999999', { properties: { city: 'Paris' } }))).code).toBe(404);

    const got = await hs.crm.companies.basicApi.getById(created.id, ['name', 'domain']);
    expect(got.properties.domain).toBe('sdk-corp.example');

    const found = await hs.crm.companies.searchApi.doSearch({ query: 'SDK Corp', properties: ['name'], limit: 10, after: '0', sorts: [], filterGroups: [] });
    expect(found.results.map((r) => r.id)).toContain(created.id);
  });

  it('contacts: create, getById, update, getPage, search by e-mail', async () => {
    const created = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-ana@example.com', firstname: 'Ana', lifecyclestage: 'lead' }, associations: [] });
    expect(created.properties.email).toBe('sdk-ana@example.com');

    const updated = await hs.crm.contacts.basicApi.update(created.id, { properties: { firstname: 'Anna', jobtitle: 'CTO' } });
    expect(updated.properties.firstname).toBe('Anna');

    const got = await hs.crm.contacts.basicApi.getById(created.id, ['firstname', 'jobtitle']);
    expect(got.properties.jobtitle).toBe('CTO');

    const page = await hs.crm.contacts.basicApi.getPage(100, undefined, ['email'], undefined, undefined, false);
    expect(page.results.map((r) => r.id)).toContain(created.id);

    const search = await hs.crm.contacts.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ' as never, value: 'sdk-ana@example.com' }] }],
      properties: ['email'],
      limit: 5,
      after: '0',
      sorts: [],
    });
    expect(search.results.map((r) => r.id)).toEqual([created.id]);
  });

  // The Owners guide: an owner's id "should be used ... when assigning an owner to a record"; its userId "will result
  // in an error if it is used to assign ownership".
  it("hubspot_owner_id takes an owner's id; the owner's userId or an id no owner has is refused, nothing written", async () => {
    const [owner] = (await hs.crm.owners.ownersApi.getPage()).results;
    expect(String(owner!.userId)).not.toBe(owner!.id);
    const contact = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-owned@example.com' }, associations: [] });
    expect((await hs.crm.contacts.basicApi.update(contact.id, { properties: { hubspot_owner_id: owner!.id } })).properties.hubspot_owner_id).toBe(owner!.id);
    for (const bad of [String(owner!.userId), '12345']) {
      const refused = await refusal(hs.crm.contacts.basicApi.update(contact.id, { properties: { hubspot_owner_id: bad, jobtitle: 'CTO' } }));
      expect(refused.code).toBe(400);
      expect(refused.body).toMatchObject({ category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OWNER_ID', context: { propertyName: ['hubspot_owner_id'] } }] });
      const refusedCreate = await refusal(hs.crm.deals.basicApi.create({ properties: { dealname: 'SDK owned', hubspot_owner_id: bad }, associations: [] }));
      expect(refusedCreate.code).toBe(400);
    }
    const kept = await hs.crm.contacts.basicApi.getById(contact.id, ['hubspot_owner_id', 'jobtitle']);
    expect(kept.properties).toMatchObject({ hubspot_owner_id: owner!.id, jobtitle: null });
    // An empty string clears the owner, as it clears any property.
    expect((await hs.crm.contacts.basicApi.update(contact.id, { properties: { hubspot_owner_id: '' } })).properties.hubspot_owner_id).toBeNull();
  });

  it('deals: create and update', async () => {
    const created = await hs.crm.deals.basicApi.create({ properties: { dealname: 'SDK deal', amount: '1200', dealstage: 'appointmentscheduled', pipeline: 'default' }, associations: [] });
    expect(created.properties.dealname).toBe('SDK deal');
    const updated = await hs.crm.deals.basicApi.update(created.id, { properties: { dealstage: 'closedwon' } });
    expect(updated.properties.dealstage).toBe('closedwon');
  });

  it('deal pipelines: getAll lists the stages, and a deal takes a stage id from it', async () => {
    const { results } = await hs.crm.pipelines.pipelinesApi.getAll('deals');
    const pipeline = results.find((p) => p.id === 'default')!;
    expect(pipeline.label).toBe('Sales Pipeline');
    expect(pipeline.createdAt).toBeInstanceOf(Date);
    const stage = pipeline.stages.find((s) => s.label === 'Contract Sent')!;
    expect(stage).toMatchObject({ id: 'contractsent', metadata: { probability: '0.9', isClosed: 'false' } });
    const created = await hs.crm.deals.basicApi.create({ properties: { dealname: 'SDK staged deal', dealstage: stage.id, pipeline: pipeline.id }, associations: [] });
    expect(created.properties).toMatchObject({ dealstage: 'contractsent', pipeline: 'default' });
  });

  it('deals: create linked to a contact and a company (associations), then found by associations.contact', async () => {
    const contact = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-assoc@example.com' }, associations: [] });
    const company = await hs.crm.companies.basicApi.create({ properties: { name: 'SDK Assoc Corp' }, associations: [] });
    const deal = await hs.crm.deals.basicApi.create({
      properties: { dealname: 'SDK linked deal', amount: '5000', dealstage: 'appointmentscheduled' },
      associations: [
        { to: { id: contact.id }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.dealToContact }] },
        { to: { id: company.id }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.primaryDealToCompany }] },
      ],
    });
    expect(deal.properties.dealname).toBe('SDK linked deal');
    const found = await hs.crm.deals.searchApi.doSearch({ filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ' as never, value: contact.id }] }], properties: ['dealname'], limit: 10, after: '0', sorts: [] });
    expect(found.results.map((r) => r.id)).toEqual([deal.id]);

    const unknown = await refusal(
      hs.crm.deals.basicApi.create({
        properties: { dealname: 'SDK orphan', amount: '1', dealstage: 'appointmentscheduled' },
        associations: [{ to: { id: '999999999' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.dealToContact }] }],
      }),
    );
    expect(unknown.code).toBe(400);
    expect(unknown.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      message: 'One or more associations are invalid',
      context: { INVALID_OBJECT_IDS: ['CONTACT=999999999 is not valid'], objectId: ['999999999'], objectType: ['CONTACT'] },
    });
  });

  // A portal's contacts are associated with the company whose domain their e-mail has (HubSpot's "create and associate
  // companies with contacts"), and its deals with the company and contact they are with; associations are two-way.
  it("sample data: each contact is associated with its company, each deal with its company and contact, seen from either end", async () => {
    const search = (api: 'contacts' | 'companies' | 'deals', propertyName: string, value: string, properties: string[]) =>
      hs.crm[api].searchApi.doSearch({ filterGroups: [{ filters: [{ propertyName, operator: 'EQ' as never, value }] }], properties, limit: 10, after: '0', sorts: [] });
    const northwind = (await search('companies', 'domain', 'northwind.example', ['name'])).results;
    expect(northwind.map((c) => c.properties.name)).toEqual(['Northwind Traders']);
    const staff = await search('contacts', 'associations.company', northwind[0]!.id, ['email']);
    expect(staff.results.map((c) => c.properties.email).sort()).toEqual(['ana.lopez@northwind.example', 'ben.okafor@northwind.example']);
    const ana = staff.results.find((c) => c.properties.email === 'ana.lopez@northwind.example')!;
    expect((await search('companies', 'associations.contact', ana.id, ['name'])).results.map((c) => c.properties.name)).toEqual(['Northwind Traders']);
    expect((await search('deals', 'associations.company', northwind[0]!.id, ['dealname'])).results.map((d) => d.properties.dealname)).toEqual(['Northwind - annual renewal']);
    expect((await search('deals', 'associations.contact', ana.id, ['dealname'])).results.map((d) => d.properties.dealname)).toEqual(['Northwind - annual renewal']);
    // Every seeded contact has its one company.
    const contacts = await hs.crm.contacts.basicApi.getPage(100, undefined, ['email']);
    for (const c of contacts.results.filter((r) => r.properties.email?.endsWith('.example') && !r.properties.email.startsWith('sdk'))) {
      const companies = (await search('companies', 'associations.contact', c.id, ['domain'])).results;
      expect(companies.map((co) => co.properties.domain)).toEqual([c.properties.email!.split('@')[1]]);
    }
  });

  it('associations v4: createDefault links an existing deal and contact (type 3), found by associations.contact; an unknown id is refused', async () => {
    const contact = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-v4link@example.com' }, associations: [] });
    const deal = await hs.crm.deals.basicApi.create({ properties: { dealname: 'SDK v4 linked', amount: '10', dealstage: 'appointmentscheduled' }, associations: [] });
    const linked = await hs.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', contact.id);
    expect(linked.status).toBe('COMPLETE');
    // The client names HubSpot's `from` `_from`.
    expect(linked.results).toMatchObject([{ _from: { id: deal.id }, to: { id: contact.id }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: AssociationTypes.dealToContact } }]);
    expect(linked.startedAt).toBeInstanceOf(Date);
    const again = await hs.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', contact.id);
    expect(again.status).toBe('COMPLETE');
    const found = await hs.crm.deals.searchApi.doSearch({ filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ' as never, value: contact.id }] }], properties: ['dealname'], limit: 10, after: '0', sorts: [] });
    expect(found.results.map((r) => r.id)).toEqual([deal.id]);

    const unknown = await refusal(hs.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', '999999998'));
    expect(unknown.code).toBe(400);
    expect(unknown.body).toMatchObject({ category: 'VALIDATION_ERROR', message: 'One or more associations are invalid', context: { INVALID_OBJECT_IDS: ['CONTACT=999999998 is not valid'] } });
  });

  it('notes: create logged on a contact (noteToContact), read back; a missing hs_timestamp and an unknown contact are refused', async () => {
    const contact = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-note@example.com' }, associations: [] });
    const note = await hs.crm.objects.notes.basicApi.create({
      properties: { hs_note_body: 'Called: wants a demo', hs_timestamp: '2026-03-02T10:00:00Z' },
      associations: [{ to: { id: contact.id }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToContact }] }],
    });
    expect(note.properties).toMatchObject({ hs_note_body: 'Called: wants a demo', hs_timestamp: '2026-03-02T10:00:00Z' });
    const read = await hs.crm.objects.notes.basicApi.getById(note.id, ['hs_note_body']);
    expect(read.properties.hs_note_body).toBe('Called: wants a demo');

    const untimed = await refusal(hs.crm.objects.notes.basicApi.create({ properties: { hs_note_body: 'no time' }, associations: [] }));
    expect(untimed.code).toBe(400);
    expect(untimed.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', message: 'Error creating NOTE.  Some required properties were not set.', context: { properties: ['hs_timestamp'] } });

    const unknown = await refusal(
      hs.crm.objects.notes.basicApi.create({
        properties: { hs_note_body: 'orphan', hs_timestamp: '2026-03-02T10:00:00Z' },
        associations: [{ to: { id: '999999997' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToContact }] }],
      }),
    );
    expect(unknown.code).toBe(400);
    expect(unknown.body).toMatchObject({ message: 'One or more associations are invalid', context: { INVALID_OBJECT_IDS: ['CONTACT=999999997 is not valid'] } });
  });

  it("notes: searchApi.doSearch lists a contact's notes by associations.contact, newest first on hs_timestamp, paged by after", async () => {
    const contact = await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-notes-list@example.com' }, associations: [] });
    const onContact = [{ to: { id: contact.id }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToContact }] }];
    const first = await hs.crm.objects.notes.basicApi.create({ properties: { hs_note_body: 'first', hs_timestamp: '2026-03-01T10:00:00Z' }, associations: onContact });
    const last = await hs.crm.objects.notes.basicApi.create({ properties: { hs_note_body: 'last', hs_timestamp: '2026-03-03T10:00:00Z' }, associations: onContact });
    const middle = await hs.crm.objects.notes.basicApi.create({ properties: { hs_note_body: 'middle', hs_timestamp: '2026-03-02T10:00:00Z' }, associations: onContact });
    // The client types sorts as strings; HubSpot takes {propertyName, direction} (HubSpot/hubspot-api-nodejs#559).
    const request = (after?: string) => ({
      filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ' as never, value: contact.id }] }],
      sorts: [{ propertyName: 'hs_timestamp', direction: 'DESCENDING' }] as never,
      properties: ['hs_note_body', 'hs_timestamp', 'hubspot_owner_id'],
      limit: 2,
      ...(after === undefined ? {} : { after }),
    });
    const page1 = await hs.crm.objects.notes.searchApi.doSearch(request());
    expect(page1.total).toBe(3);
    expect(page1.results.map((r) => [r.id, r.properties.hs_note_body])).toEqual([[last.id, 'last'], [middle.id, 'middle']]);
    expect(page1.results[0]!.createdAt).toBeInstanceOf(Date);
    const page2 = await hs.crm.objects.notes.searchApi.doSearch(request(page1.paging!.next!.after));
    expect(page2.results.map((r) => r.id)).toEqual([first.id]);
    expect(page2.paging).toBeUndefined();
  });

  it("refusals in HubSpot's shape: a duplicate e-mail (409), a missing record (404), a bad token (401)", async () => {
    await hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-dup@example.com' }, associations: [] });
    const dup = await refusal(hs.crm.contacts.basicApi.create({ properties: { email: 'sdk-dup@example.com' }, associations: [] }));
    expect(dup.code).toBe(409);
    expect(dup.body).toMatchObject({ status: 'error', category: 'CONFLICT' });

    const missing = await refusal(hs.crm.contacts.basicApi.getById('999999999999'));
    expect(missing.code).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });

    const anonymous = hubspot(sb.origins.hubspot!, 'not-a-token');
    const unauth = await refusal(anonymous.crm.contacts.basicApi.getPage(10));
    expect(unauth.code).toBe(401);
    expect(unauth.body.category).toMatch(/AUTHENTICATION/);
  });

  it('search: a query of more than 3,000 characters is refused (400), one of 3,000 taken', async () => {
    // HubSpot's search guide, Limits: "A query can contain a maximum of 3,000 characters. If the body of your
    // request exceeds 3,000 characters, a 400 error will be returned."
    const search = (query: string) => hs.crm.contacts.searchApi.doSearch({ query, filterGroups: [], properties: [], limit: 1, after: '0', sorts: [] });
    const long = await refusal(search('a'.repeat(3001)));
    expect(long.code).toBe(400);
    expect(long.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect((await search('a'.repeat(3000))).total).toBe(0);
  });

  it("a missing scope (403 MISSING_SCOPES) names every scope HubSpot would take, any one of them admitting the call", async () => {
    // HubSpot's "Using Object APIs" guide: reading deals without crm.objects.deals.read answers "One or more of the
    // following scopes are required." naming the schema, sensitive, plain and highly sensitive read scopes.
    const { access_token } = await hubspotTokens(sb, 'sdk-scopes@example.com', 'crm.objects.contacts.read');
    const limited = hubspot(sb.origins.hubspot!, access_token);
    const read = await refusal(limited.crm.deals.basicApi.getPage(10));
    expect(read.code).toBe(403);
    expect(read.body).toMatchObject({
      category: 'MISSING_SCOPES',
      errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: ['crm.schemas.deals.read', 'crm.objects.deals.sensitive.read.v2', 'crm.objects.deals.read', 'crm.objects.deals.highly_sensitive.read.v2'] } }],
    });
    const search = await refusal(limited.crm.deals.searchApi.doSearch({ filterGroups: [], properties: [], limit: 1, after: '0', sorts: [] }));
    expect(search.body).toMatchObject({ errors: [{ context: { requiredGranularScopes: ['crm.schemas.deals.read', 'crm.objects.deals.sensitive.read.v2', 'crm.objects.deals.read', 'crm.objects.deals.highly_sensitive.read.v2'] } }] });
    // A write names the write scopes of the same four kinds.
    const write = await refusal(limited.crm.companies.basicApi.create({ properties: { name: 'No scope Inc' }, associations: [] }));
    expect(write.code).toBe(403);
    expect(write.body).toMatchObject({
      errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: ['crm.schemas.companies.write', 'crm.objects.companies.sensitive.write.v2', 'crm.objects.companies.write', 'crm.objects.companies.highly_sensitive.write.v2'] } }],
    });
    // "One or more": a token holding another of the named scopes is admitted.
    const { access_token: sensitive } = await hubspotTokens(sb, 'sdk-sensitive@example.com', 'crm.objects.deals.sensitive.read.v2');
    const page = await hubspot(sb.origins.hubspot!, sensitive).crm.deals.basicApi.getPage(10);
    expect(page.results.length).toBeGreaterThan(0);
  });
});

/** One tool input and the official client's call for the same operation. */
interface SameOperation {
  tool: string;
  input: Record<string, unknown>;
  sdk(hs: Client): Promise<unknown>;
}

// The client's type asks for `sorts`, but HubSpot treats it as optional and the tools send none.
const SEARCH = { query: 'acme', filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] }], properties: ['name', 'domain'], limit: 20, after: '20' } as never;
const SEARCH_INPUT = { query: 'acme', filterGroups: JSON.stringify([{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] }]), properties: 'name,domain', limit: 20, after: '20' };

const SAME: SameOperation[] = [
  {
    tool: 'crm_association_create',
    input: { from_object_type: 'deals', from_object_id: '30001', to_object_type: 'contacts', to_object_id: '101' },
    sdk: (hs) => hs.crm.associations.v4.basicApi.createDefault('deals', '30001', 'contacts', '101'),
  },
  {
    tool: 'crm_company_create',
    input: { name: 'Acme Corp', domain: 'acme.com', annualrevenue: 5000000, numberofemployees: 250, city: 'Lyon' },
    sdk: (hs) => hs.crm.companies.basicApi.create({ properties: { name: 'Acme Corp', domain: 'acme.com', annualrevenue: '5000000', numberofemployees: '250', city: 'Lyon' } } as never),
  },
  {
    tool: 'crm_company_update',
    input: { company_id: '20001', properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: 250, phone: null } },
    sdk: (hs) => hs.crm.companies.basicApi.update('20001', { properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', phone: '' } }),
  },
  {
    tool: 'crm_company_get',
    input: { company_id: '9876543210', properties: 'name,domain' },
    sdk: (hs) => hs.crm.companies.basicApi.getById('9876543210', ['name', 'domain']),
  },
  { tool: 'crm_companies_search', input: SEARCH_INPUT, sdk: (hs) => hs.crm.companies.searchApi.doSearch(SEARCH) },
  {
    tool: 'crm_contact_create',
    input: { email: 'ana@example.com', firstname: 'Ana', lastname: 'Silva', jobtitle: 'CTO', company_ids: ['20001', '20002'] },
    sdk: (hs) =>
      hs.crm.contacts.basicApi.create({
        properties: { email: 'ana@example.com', firstname: 'Ana', lastname: 'Silva', jobtitle: 'CTO' },
        associations: [
          { to: { id: '20001' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.primaryContactToCompany }] },
          { to: { id: '20002' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.contactToCompany }] },
        ],
      }),
  },
  {
    tool: 'crm_contact_get',
    input: { contact_id: '12345', properties: 'email,firstname' },
    sdk: (hs) => hs.crm.contacts.basicApi.getById('12345', ['email', 'firstname']),
  },
  {
    tool: 'crm_contact_update',
    input: { contact_id: '12345', props: { firstname: 'Ana', hs_employee_count: 12 } },
    sdk: (hs) => hs.crm.contacts.basicApi.update('12345', { properties: { firstname: 'Ana', hs_employee_count: '12' } }),
  },
  {
    tool: 'crm_contacts_list',
    input: { limit: 50, after: '101', properties: 'email,firstname', archived: false },
    sdk: (hs) => hs.crm.contacts.basicApi.getPage(50, '101', ['email', 'firstname'], undefined, undefined, false),
  },
  { tool: 'crm_contacts_search', input: SEARCH_INPUT, sdk: (hs) => hs.crm.contacts.searchApi.doSearch(SEARCH) },
  {
    tool: 'crm_deal_create',
    input: { dealname: 'Acme renewal', amount: 12000.5, dealstage: 'appointmentscheduled', pipeline: 'default', closedate: '2026-06-30', contact_ids: ['101'], company_ids: ['20001', '20002'] },
    sdk: (hs) =>
      hs.crm.deals.basicApi.create({
        properties: { dealname: 'Acme renewal', amount: '12000.5', dealstage: 'appointmentscheduled', pipeline: 'default', closedate: '2026-06-30' },
        associations: [
          { to: { id: '101' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.dealToContact }] },
          { to: { id: '20001' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.primaryDealToCompany }] },
          { to: { id: '20002' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.dealToCompany }] },
        ],
      }),
  },
  {
    tool: 'crm_note_create',
    input: { note_body: 'Called Ana: demo next week', timestamp: '2026-03-02T10:00:00Z', contact_ids: ['101'], company_ids: ['20001'], deal_ids: ['30001'] },
    sdk: (hs) =>
      hs.crm.objects.notes.basicApi.create({
        properties: { hs_note_body: 'Called Ana: demo next week', hs_timestamp: '2026-03-02T10:00:00Z' },
        associations: [
          { to: { id: '101' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToContact }] },
          { to: { id: '20001' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToCompany }] },
          { to: { id: '30001' }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: AssociationTypes.noteToDeal }] },
        ],
      }),
  },
  {
    tool: 'crm_notes_list',
    input: { contact_id: '101', limit: 5, after: '5' },
    sdk: (hs) =>
      hs.crm.objects.notes.searchApi.doSearch({
        filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ' as never, value: '101' }] }],
        sorts: [{ propertyName: 'hs_timestamp', direction: 'DESCENDING' }] as never,
        properties: ['hs_note_body', 'hs_timestamp', 'hubspot_owner_id'],
        limit: 5,
        after: '5',
      }),
  },
  {
    tool: 'crm_deal_update',
    input: { deal_id: '4567', properties: { dealstage: 'closedwon', amount: 15000 } },
    sdk: (hs) => hs.crm.deals.basicApi.update('4567', { properties: { dealstage: 'closedwon', amount: '15000' } }),
  },
  { tool: 'crm_deals_search', input: SEARCH_INPUT, sdk: (hs) => hs.crm.deals.searchApi.doSearch(SEARCH) },
  { tool: 'crm_deal_pipelines_list', input: {}, sdk: (hs) => hs.crm.pipelines.pipelinesApi.getAll('deals') },
  { tool: 'crm_owners_list', input: { email: 'ana@example.com', limit: 100, after: '100' }, sdk: (hs) => hs.crm.owners.ownersApi.getPage('ana@example.com', '100', 100) },
];

describe('our request builders send what the official HubSpot client sends', () => {
  let recorder: RecordingServer;
  let hs: Client;

  beforeAll(async () => {
    recorder = await startRecordingServer(() => ({ status: 200, body: { id: '1', properties: {}, results: [], createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', archived: false } }));
    hs = hubspot(recorder.url, 'recorded-token');
  });
  afterAll(() => recorder.close());

  it('covers every CRM tool', () => {
    const crm = (tools as readonly ToolDefinition[]).filter((t) => t.connector === 'crm').map((t) => t.name);
    expectEveryToolCovered('SAME in test/sandbox/sdk/hubspot-sdk.test.ts', SAME.map((c) => c.tool), crm);
  });

  it.each(SAME.map((c) => [c.tool, c] as const))('%s', async (_name, c) => {
    const built = build(c.tool, c.input);
    await c.sdk(hs).catch(() => undefined); // the recorder's canned answer may not parse as this operation's model
    const sent = recorder.take();
    expect(sent.headers.authorization).toBe('Bearer recorded-token');
    expect(builderRequest(built)).toEqual(asSeenUpstream(sent));
  });
});
