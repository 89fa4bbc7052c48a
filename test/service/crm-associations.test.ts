/**
 * "Add Ana as a contact and create a 5,000 EUR deal for her", through the HTTP service, the executor and the sandbox:
 * crm_deal_create links the deal to the contact (and companies) it names, crm_deals_search finds a contact's deals by
 * HubSpot's associations.contact pseudo-property, crm_contact_create links company records, and an id that names no
 * record is refused in HubSpot's words with a hint, creating nothing. crm_association_create links records that already
 * exist (HubSpot's v4 default association), once however often it is asked. crm_note_create logs a note on a contact
 * (note to contact 202), stamped now when no timestamp is given; an unknown contact id makes no note. crm_notes_list
 * reads a record's notes back, newest first on their timeline time, a page at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  // Several searches in a second: HubSpot's search limit (5 a second) is not what this file is about.
  h = await startHarness({ sandboxOptions: { providerRateLimits: false } });
  ({ token } = await crmUser(h, 'kim', 'kim@example.com'));
});
afterAll(async () => h?.close());

const run = (tool_name: string, tool_input: unknown) => h.call('POST', '/api/v1/execute_tool', { token, body: { identifier: 'kim', tool_name, tool_input } });
/** A call straight to the sandbox's HubSpot as kim, to read what it stored. */
const hubspot = async (method: string, path: string, body?: unknown): Promise<any> => {
  const { accessToken } = h.sandbox.control.issueTokens('hubspot', 'kim@example.com');
  const res = await fetch(`${h.sandbox.endpoints('crm').apiBaseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, path).toBe(200);
  return res.json();
};
const notesOn = (contactId: string) => hubspot('POST', '/crm/v3/objects/notes/search', { filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: contactId }] }] });
const linkedTo = (property: string, id: string) => ({ filterGroups: [{ filters: [{ propertyName: property, operator: 'EQ', value: id }] }], properties: 'dealname,amount' });
/**
 * HubSpot's refusal of an association to a record that does not exist (HubSpot/hubspot-api-nodejs#646), as the
 * service passes it on: 400 upstream_error with HubSpot's body, and the tool's hint.
 */
function expectInvalidAssociation(res: { status: number; body: any }, objectType: string, id: string, hint: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({
    code: 'upstream_error',
    details: {
      status: 400,
      body: {
        status: 'error',
        category: 'VALIDATION_ERROR',
        message: 'One or more associations are invalid',
        context: { INVALID_OBJECT_IDS: [`${objectType}=${id} is not valid`], objectId: [id], objectType: [objectType] },
      },
    },
  });
  expect(res.body.error.details.hint).toMatch(hint);
}

describe('CRM associations', () => {
  it("a deal created for a contact is linked to her, and crm_deals_search lists her deals", async () => {
    const ana = await run('crm_contact_create', { email: 'ana.silva@example.com', firstname: 'Ana', lastname: 'Silva' });
    expect(ana.status, JSON.stringify(ana.body)).toBe(200);
    const anaId = ana.body.data.id as string;
    const other = await run('crm_deal_create', { dealname: 'Someone else', amount: 100, dealstage: 'qualifiedtobuy' });
    expect(other.status).toBe(200);

    h.sandbox.control.clearRequests();
    const deal = await run('crm_deal_create', { dealname: 'Ana Silva - onboarding', amount: 5000, dealstage: 'appointmentscheduled', contact_ids: [anaId] });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect(h.sandbox.control.requests('crm').at(-1)?.body).toMatchObject({
      associations: [{ to: { id: anaId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }],
    });
    // HubSpot answers the created object alone, without its associations.
    expect(Object.keys(deal.body.data).sort()).toEqual(['archived', 'createdAt', 'id', 'properties', 'updatedAt']);

    const hers = await run('crm_deals_search', linkedTo('associations.contact', anaId));
    expect(hers.status, JSON.stringify(hers.body)).toBe(200);
    expect(hers.body.data.total).toBe(1);
    expect(hers.body.data.results[0]).toMatchObject({ id: deal.body.data.id, properties: { dealname: 'Ana Silva - onboarding', amount: '5000' } });
  });

  it('companies: the first given is the primary company; a contact links companies too; searches find either end', async () => {
    const acme = await run('crm_company_create', { name: 'Acme Assoc', domain: 'acme-assoc.example' });
    const beta = await run('crm_company_create', { name: 'Beta Assoc', domain: 'beta-assoc.example' });
    const [acmeId, betaId] = [acme.body.data.id as string, beta.body.data.id as string];

    h.sandbox.control.clearRequests();
    const lee = await run('crm_contact_create', { email: 'lee.assoc@example.com', firstname: 'Lee', company_ids: [acmeId] });
    expect(lee.status, JSON.stringify(lee.body)).toBe(200);
    expect(h.sandbox.control.requests('crm').at(-1)?.body).toMatchObject({ associations: [{ to: { id: acmeId }, types: [{ associationTypeId: 1 }] }] });

    const deal = await run('crm_deal_create', { dealname: 'Acme and Beta', amount: 900, dealstage: 'qualifiedtobuy', company_ids: [acmeId, betaId] });
    expect(deal.status, JSON.stringify(deal.body)).toBe(200);
    expect(h.sandbox.control.requests('crm').at(-1)?.body).toMatchObject({
      associations: [
        { to: { id: acmeId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 5 }] },
        { to: { id: betaId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 341 }] },
      ],
    });
    for (const companyId of [acmeId, betaId]) {
      const found = await run('crm_deals_search', linkedTo('associations.company', companyId));
      expect(found.body.data.results.map((r: { id: string }) => r.id)).toEqual([deal.body.data.id]);
    }
    // Associations are two-way: the company's contacts are found from the company's side.
    const acmeContacts = await run('crm_contacts_search', { filterGroups: [{ filters: [{ propertyName: 'associations.company', operator: 'EQ', value: acmeId }] }] });
    expect(acmeContacts.body.data.results.map((r: { id: string }) => r.id)).toEqual([lee.body.data.id]);
  });

  it("as each search's filterGroups description says: a company's contacts by associations.company, a contact's companies by associations.contact", async () => {
    const zed = await run('crm_company_create', { name: 'Zed Desc', domain: 'zed-desc.example' });
    const other = await run('crm_company_create', { name: 'Other Desc', domain: 'other-desc.example' });
    const [zedId, otherId] = [zed.body.data.id as string, other.body.data.id as string];
    const mo = await run('crm_contact_create', { email: 'mo.desc@example.com', firstname: 'Mo', company_ids: [zedId, otherId] });
    const noa = await run('crm_contact_create', { email: 'noa.desc@example.com', firstname: 'Noa', company_ids: [zedId] });
    expect([mo.status, noa.status], JSON.stringify([mo.body, noa.body])).toEqual([200, 200]);
    const [moId, noaId] = [mo.body.data.id as string, noa.body.data.id as string];
    const by = (property: string, id: string) => ({ filterGroups: [{ filters: [{ propertyName: property, operator: 'EQ', value: id }] }] });

    const zedContacts = await run('crm_contacts_search', by('associations.company', zedId));
    expect(zedContacts.status, JSON.stringify(zedContacts.body)).toBe(200);
    expect(zedContacts.body.data.results.map((r: { id: string }) => r.id).sort()).toEqual([moId, noaId].sort());
    const otherContacts = await run('crm_contacts_search', by('associations.company', otherId));
    expect(otherContacts.body.data.results.map((r: { id: string }) => r.id)).toEqual([moId]);

    const moCompanies = await run('crm_companies_search', by('associations.contact', moId));
    expect(moCompanies.status, JSON.stringify(moCompanies.body)).toBe(200);
    expect(moCompanies.body.data.results.map((r: { id: string }) => r.id).sort()).toEqual([zedId, otherId].sort());
    const noaCompanies = await run('crm_companies_search', by('associations.contact', noaId));
    expect(noaCompanies.body.data.results.map((r: { id: string }) => r.id)).toEqual([zedId]);
  });

  it('a name where an associations.* filter takes the record id is refused before sending, naming the tool that gives the id', async () => {
    h.sandbox.control.clearRequests();
    const byName = await run('crm_deals_search', linkedTo('associations.contact', 'Ana'));
    expect(byName.status).toBe(400);
    expect(byName.body.error.code).toBe('invalid_input');
    expect(byName.body.error.details.violations).toEqual([
      expect.objectContaining({ pointer: '/filterGroups/0/filters/0/value', message: expect.stringMatching(/must be a contact's record id for associations\.contact.*not "Ana": send the record's id from crm_contacts_search/) }),
    ]);
    const companyByName = await run('crm_contacts_search', { filterGroups: '[{"filters":[{"propertyName":"associations.company","operator":"EQ","value":"Acme"}]}]' });
    expect(companyByName.status).toBe(400);
    expect(companyByName.body.error.details.violations[0].message).toMatch(/send the record's id from crm_companies_search/);
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });

  it("an id that names no record is refused as HubSpot refuses it, with a hint, and no deal is made", async () => {
    const before = await run('crm_deals_search', { query: 'Orphan' });
    expect(before.body.data.total).toBe(0);
    const refused = await run('crm_deal_create', { dealname: 'Orphan deal', amount: 5000, dealstage: 'appointmentscheduled', contact_ids: ['999999'] });
    expectInvalidAssociation(refused, 'CONTACT', '999999', /contact_ids or company_ids names no record .*crm_contacts_search/);
    const after = await run('crm_deals_search', { query: 'Orphan' });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.data.total).toBe(0);

    const noCompany = await run('crm_contact_create', { email: 'nobody.assoc@example.com', company_ids: ['424242'] });
    expect(noCompany.status).toBe(400);
    expect(noCompany.body.error.details.body.context).toMatchObject({ INVALID_OBJECT_IDS: ['COMPANY=424242 is not valid'] });
    expect(noCompany.body.error.details.hint).toMatch(/company_ids names no company/);
  });

  it('crm_association_create links an existing deal to an existing contact; the search finds it; a repeat links nothing more', async () => {
    const lia = await run('crm_contact_create', { email: 'lia.link@example.com', firstname: 'Lia' });
    const deal = await run('crm_deal_create', { dealname: 'Lia - later linked', amount: 700, dealstage: 'qualifiedtobuy' });
    expect([lia.status, deal.status]).toEqual([200, 200]);
    const [liaId, dealId] = [lia.body.data.id as string, deal.body.data.id as string];
    expect((await run('crm_deals_search', linkedTo('associations.contact', liaId))).body.data.total).toBe(0);

    h.sandbox.control.clearRequests();
    const input = { from_object_type: 'deals', from_object_id: dealId, to_object_type: 'contacts', to_object_id: liaId };
    const linked = await run('crm_association_create', input);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const sent = h.sandbox.control.requests('crm').at(-1);
    expect([sent?.method, sent?.path]).toEqual(['PUT', `/crm/v4/objects/deals/${dealId}/associations/default/contacts/${liaId}`]);
    // The default deal-to-contact type is the one crm_deal_create's contact_ids sends (3).
    expect(linked.body.data).toMatchObject({
      status: 'COMPLETE',
      results: [{ from: { id: dealId }, to: { id: liaId }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 } }],
    });

    const hers = await run('crm_deals_search', linkedTo('associations.contact', liaId));
    expect(hers.body.data.results.map((r: { id: string }) => r.id)).toEqual([dealId]);

    // Idempotent: again, and from the other end, the pair stays linked once.
    for (const again of [input, { from_object_type: 'contacts', from_object_id: liaId, to_object_type: 'deals', to_object_id: dealId }]) {
      const res = await run('crm_association_create', again);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await run('crm_deals_search', linkedTo('associations.contact', liaId))).body.data.total).toBe(1);
  });

  it('crm_association_create: "Ana works at Acme" links a contact to a company (279); an id that names no record is refused in HubSpot\'s words', async () => {
    const ana = await run('crm_contact_create', { email: 'ana.works@example.com', firstname: 'Ana' });
    const acme = await run('crm_company_create', { name: 'Acme Works', domain: 'acme-works.example' });
    const [anaId, acmeId] = [ana.body.data.id as string, acme.body.data.id as string];
    const works = await run('crm_association_create', { from_object_type: 'contacts', from_object_id: anaId, to_object_type: 'companies', to_object_id: acmeId });
    expect(works.status, JSON.stringify(works.body)).toBe(200);
    expect(works.body.data.results[0].associationSpec.associationTypeId).toBe(279);
    const staff = await run('crm_contacts_search', { filterGroups: [{ filters: [{ propertyName: 'associations.company', operator: 'EQ', value: acmeId }] }] });
    expect(staff.body.data.results.map((r: { id: string }) => r.id)).toEqual([anaId]);

    const refused = await run('crm_association_create', { from_object_type: 'contacts', from_object_id: anaId, to_object_type: 'companies', to_object_id: '424243' });
    expectInvalidAssociation(refused, 'COMPANY', '424243', /from_object_id or to_object_id names no record .*crm_companies_search/);
    // A deal id given as a contact's: the from record is named too.
    const wrongType = await run('crm_association_create', { from_object_type: 'contacts', from_object_id: '30001', to_object_type: 'companies', to_object_id: acmeId });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.body.context).toMatchObject({ INVALID_OBJECT_IDS: ['CONTACT=30001 is not valid'] });
  });

  it('crm_note_create logs a note on a contact: stored with its body, a timestamp of now, and the link to her', async () => {
    const ana = await run('crm_contact_create', { email: 'ana.note@example.com', firstname: 'Ana' });
    expect(ana.status, JSON.stringify(ana.body)).toBe(200);
    const anaId = ana.body.data.id as string;

    h.sandbox.control.clearRequests();
    const before = Date.now();
    const note = await run('crm_note_create', { note_body: 'Called her, she wants a demo next week.', contact_ids: [anaId] });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    const sent = h.sandbox.control.requests('crm').at(-1);
    expect([sent?.method, sent?.path]).toEqual(['POST', '/crm/v3/objects/notes']);
    expect(sent?.body).toMatchObject({ associations: [{ to: { id: anaId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }] }] });
    const stamp = Date.parse(note.body.data.properties.hs_timestamp as string);
    expect(stamp).toBeGreaterThanOrEqual(before - 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now() + 1000);
    expect(note.body.data.properties.hs_note_body).toBe('Called her, she wants a demo next week.');

    // What the sandbox stored, read back through HubSpot's own endpoints: the note, and the notes on Ana.
    const stored = await hubspot('GET', `/crm/v3/objects/notes/${note.body.data.id}?properties=hs_note_body,hs_timestamp`);
    expect(stored.properties).toMatchObject({ hs_note_body: 'Called her, she wants a demo next week.', hs_timestamp: note.body.data.properties.hs_timestamp });
    expect((await notesOn(anaId)).results.map((r: { id: string }) => r.id)).toEqual([note.body.data.id]);
  });

  it('crm_note_create: a contact id that names no record is refused in HubSpot\'s words, with a hint, and no note is made', async () => {
    const notesBefore = (await hubspot('GET', '/crm/v3/objects/notes?limit=100')).results.length;
    const refused = await run('crm_note_create', { note_body: 'Orphan note', timestamp: '2026-03-02T10:00:00Z', contact_ids: ['999999'] });
    expectInvalidAssociation(refused, 'CONTACT', '999999', /contact_ids, company_ids or deal_ids names no record .*crm_contacts_search/);
    expect((await hubspot('GET', '/crm/v3/objects/notes?limit=100')).results.length).toBe(notesBefore);
  });
  it('crm_notes_list: "what did we last discuss with Ana?" reads her notes back newest first, a page at a time, others\' left out', async () => {
    const ana = await run('crm_contact_create', { email: 'ana.notes@example.com', firstname: 'Ana' });
    const bob = await run('crm_contact_create', { email: 'bob.notes@example.com', firstname: 'Bob' });
    const deal = await run('crm_deal_create', { dealname: 'Ana notes deal', amount: 10, dealstage: 'qualifiedtobuy' });
    const [anaId, bobId, dealId] = [ana.body.data.id as string, bob.body.data.id as string, deal.body.data.id as string];
    const log = async (note_body: string, timestamp: string, ids: Record<string, string[]>) => {
      const res = await run('crm_note_create', { note_body, timestamp, ...ids });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.id as string;
    };
    // Logged out of order; the Paris-time one is 09:00Z, between the other two.
    const demo = await log('Demo went well; she wants pricing.', '2026-03-05T16:00:00Z', { contact_ids: [anaId], deal_ids: [dealId] });
    const intro = await log('Intro call.', '2026-03-01T10:00:00Z', { contact_ids: [anaId] });
    const followUp = await log('Sent the deck.', '2026-03-03T10:00:00+01:00', { contact_ids: [anaId] });
    await log('Bob: not now.', '2026-03-06T10:00:00Z', { contact_ids: [bobId] });

    h.sandbox.control.clearRequests();
    const latest = await run('crm_notes_list', { contact_id: anaId, limit: 2 });
    expect(latest.status, JSON.stringify(latest.body)).toBe(200);
    const sent = h.sandbox.control.requests('crm').at(-1);
    expect([sent?.method, sent?.path]).toEqual(['POST', '/crm/v3/objects/notes/search']);
    expect(sent?.body).toEqual({
      filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: anaId }] }],
      sorts: [{ propertyName: 'hs_timestamp', direction: 'DESCENDING' }],
      properties: ['hs_note_body', 'hs_timestamp', 'hubspot_owner_id'],
      limit: 2,
    });
    expect(latest.body.data.total).toBe(3);
    expect(latest.body.data.results.map((r: { id: string; properties: Record<string, string> }) => [r.id, r.properties.hs_note_body])).toEqual([
      [demo, 'Demo went well; she wants pricing.'],
      [followUp, 'Sent the deck.'],
    ]);
    const older = await run('crm_notes_list', { contact_id: anaId, limit: 2, after: latest.body.data.paging.next.after });
    expect(older.body.data.results.map((r: { id: string }) => r.id)).toEqual([intro]);
    expect(older.body.data).not.toHaveProperty('paging');

    expect((await run('crm_notes_list', { deal_id: dealId })).body.data.results.map((r: { id: string }) => r.id)).toEqual([demo]);
    const none = await run('crm_notes_list', { company_id: '20001' });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.data).toMatchObject({ total: 0, results: [] });
  });

  it('crm_notes_list: a name where the id goes, or no record at all, is refused before sending, saying what to give', async () => {
    h.sandbox.control.clearRequests();
    const byName = await run('crm_notes_list', { contact_id: 'Ana' });
    expect(byName.status).toBe(400);
    expect(byName.body.error.code).toBe('invalid_input');
    expect(byName.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/contact_id']);
    const nothing = await run('crm_notes_list', { limit: 5 });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.details.violations[0].message).toMatch(/exactly one of contact_id, company_id or deal_id/);
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });
});
