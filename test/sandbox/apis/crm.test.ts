import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { ASSOCIATION_TYPES, DEFAULT_ASSOCIATION_TYPE_IDS, RECORD_TYPES } from '../../../sandbox/apis/crm/schema.js';
import { Crm } from '../../../sandbox/apis/crm/store.js';
import { ASSOCIATION_TYPE_IDS } from '../../../runtime/helpers/crm.js';

type Json = Record<string, any>;

describe('HubSpot CRM fake', () => {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ providerRateLimits: false });
    token = sb.control.issueTokens('hubspot', 'alice@example.com').accessToken;
  });
  afterAll(() => sb.close());

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${sb.url}/hubspot${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Json };
  }

  it('starts with sample companies, contacts and deals, and one owner (the user)', async () => {
    const owners = await call('GET', '/crm/v3/owners');
    expect(owners.body.results).toHaveLength(1);
    const ownerId = owners.body.results[0].id;
    for (const [type, count] of [['companies', 3], ['contacts', 4], ['deals', 3]] as const) {
      const list = await call('GET', `/crm/v3/objects/${type}?properties=hubspot_owner_id`);
      expect(list.body.results, type).toHaveLength(count);
      for (const r of list.body.results) expect(r.properties.hubspot_owner_id).toBe(ownerId);
    }
    const deals = await call('GET', '/crm/v3/objects/deals?properties=hs_priority,dealstage');
    expect(deals.body.results.map((d: Json) => d.properties.hs_priority).sort()).toEqual(['high', 'low', 'medium']);
    expect(owners.body.results[0]).toMatchObject({ email: 'alice@example.com', type: 'PERSON', archived: false });
    expect(owners.body).not.toHaveProperty('paging');
    expect((await call('GET', `/crm/v3/owners/${owners.body.results[0].id}`)).status).toBe(200);
  });

  it('creates with 201 and string-typed values; get with properties comma-joined or repeated, unknown ignored', async () => {
    const c = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Big deal', amount: 1500.5, dealstage: 'qualifiedtobuy', hs_priority: 'high' } });
    expect(c.status).toBe(201);
    expect(c.body.properties).toMatchObject({ dealname: 'Big deal', amount: '1500.5', hs_object_id: c.body.id });
    expect(typeof c.body.id).toBe('string');
    expect(c.body).toMatchObject({ archived: false });
    const dflt = await call('GET', `/crm/v3/objects/deals/${c.body.id}`);
    expect(Object.keys(dflt.body.properties).sort()).toEqual(['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline']);
    expect(dflt.body.properties.pipeline).toBe('default');
    const picked = await call('GET', `/crm/v3/objects/deals/${c.body.id}?properties=dealname,nonsense&properties=hs_priority`);
    expect(picked.body.properties).toMatchObject({ dealname: 'Big deal', hs_priority: 'high' });
    expect(picked.body.properties).not.toHaveProperty('nonsense');
    expect(picked.body.properties).not.toHaveProperty('amount');
  });

  it("a company's PATCH refuses an unknown property, a wrong option, a number that is none and a read-only one, all in one answer, changing nothing", async () => {
    const acme = (await call('POST', '/crm/v3/objects/companies', { properties: { name: 'Patch Co', city: 'Lyon', numberofemployees: '10' } })).body.id;
    const bad = await call('PATCH', `/crm/v3/objects/companies/${acme}`, {
      properties: { city: 'Paris', favourite_colour: 'blue', industry: 'Software', numberofemployees: 'fifty', hs_object_id: '1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(bad.body.errors.map((e: Json) => [e.code, e.context.propertyName[0]])).toEqual([
      ['PROPERTY_DOESNT_EXIST', 'favourite_colour'],
      ['INVALID_OPTION', 'industry'],
      ['INVALID_FLOAT', 'numberofemployees'],
      ['READ_ONLY_VALUE', 'hs_object_id'],
    ]);
    const details = JSON.parse(bad.body.message.slice('Property values were not valid: '.length));
    expect(details.map((d: Json) => d.message)).toEqual([
      'Property "favourite_colour" does not exist',
      expect.stringMatching(/^Software was not one of the allowed options: \[label: "Accounting"\nvalue: "ACCOUNTING"/),
      'fifty was not a valid number.',
      'hs_object_id is a read only property; its value cannot be set.',
    ]);
    // Nothing was written, not even the valid city.
    expect((await call('GET', `/crm/v3/objects/companies/${acme}?properties=city,numberofemployees`)).body.properties).toMatchObject({ city: 'Lyon', numberofemployees: '10' });

    const ok = await call('PATCH', `/crm/v3/objects/companies/${acme}`, { properties: { industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', city: '' } });
    expect(ok.status).toBe(200);
    expect(ok.body.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', city: null, hs_object_id: acme });
    expect((await call('PATCH', '/crm/v3/objects/companies/999999', { properties: { city: 'Paris' } })).body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
  });

  it('refuses unknown properties and bad options on write', async () => {
    const bad = await call('POST', '/crm/v3/objects/companies', { properties: { name: 'X', favourite_colour: 'blue' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(bad.body.message).toContain('PROPERTY_DOESNT_EXIST');
    expect((await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'z@example.com', lifecyclestage: 'bogus' } })).status).toBe(400);
  });

  // HubSpot's enumeration options are internal values: hs_priority high/medium/low, industry COMPUTER_SOFTWARE, ...;
  // a wrong one is 400 VALIDATION_ERROR whose message lists the options in HubSpot's protobuf text form.
  it('refuses a wrong option value as HubSpot does, listing the allowed options', async () => {
    const upper = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'D', hs_priority: 'HIGH' } });
    expect(upper.status).toBe(400);
    expect(upper.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OPTION', context: { propertyName: ['hs_priority'] } }] });
    expect(upper.body.message).toMatch(/^Property values were not valid: \[/);
    const [detail] = JSON.parse(upper.body.message.slice('Property values were not valid: '.length));
    expect(detail).toMatchObject({ isValid: false, error: 'INVALID_OPTION', name: 'hs_priority' });
    expect(detail.message).toMatch(/^HIGH was not one of the allowed options: \[label: "Low"\nvalue: "low"\ndisplay_order: 0\n/);
    const industry = await call('POST', '/crm/v3/objects/companies', { properties: { name: 'X', industry: 'Software' } });
    expect(industry.status).toBe(400);
    expect(industry.body.message).toContain('Software was not one of the allowed options: [label: \\"Accounting\\"');
    expect((await call('POST', '/crm/v3/objects/companies', { properties: { name: 'X', industry: 'COMPUTER_SOFTWARE' } })).status).toBe(201);
  });

  // GET /crm/v3/pipelines/deals: HubSpot's default pipeline and stages, metadata values as strings; the stage and
  // pipeline ids it lists are exactly what a deal may hold, and a label is refused naming the stages by their labels.
  it('lists the default deal pipeline with its stages; a deal takes their ids, not their labels', async () => {
    const listed = await call('GET', '/crm/v3/pipelines/deals');
    expect(listed.status).toBe(200);
    expect(listed.body).not.toHaveProperty('paging');
    expect(listed.body.results).toHaveLength(1);
    const [pipeline] = listed.body.results;
    expect(pipeline).toMatchObject({ id: 'default', label: 'Sales Pipeline', displayOrder: 0, archived: false, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(pipeline.stages.map((s: Json) => [s.id, s.label, s.displayOrder, s.metadata.probability, s.metadata.isClosed])).toEqual([
      ['appointmentscheduled', 'Appointment Scheduled', 0, '0.2', 'false'],
      ['qualifiedtobuy', 'Qualified To Buy', 1, '0.4', 'false'],
      ['presentationscheduled', 'Presentation Scheduled', 2, '0.6', 'false'],
      ['decisionmakerboughtin', 'Decision Maker Bought-In', 3, '0.8', 'false'],
      ['contractsent', 'Contract Sent', 4, '0.9', 'false'],
      ['closedwon', 'Closed Won', 5, '1.0', 'true'],
      ['closedlost', 'Closed Lost', 6, '0.0', 'true'],
    ]);
    for (const stage of pipeline.stages) {
      const deal = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: `In ${stage.label}`, dealstage: stage.id, pipeline: pipeline.id } });
      expect(deal.status, stage.id).toBe(201);
    }
    const label = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'By label', dealstage: 'Contract Sent' } });
    expect(label.status).toBe(400);
    expect(label.body.message).toContain('Contract Sent was not one of the allowed options: [label: \\"Appointment Scheduled\\"\\nvalue: \\"appointmentscheduled\\"');
    const other = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Other pipeline', dealstage: 'closedwon', pipeline: 'Sales Pipeline' } });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_OPTION', context: { propertyName: ['pipeline'] } })]);
    // Only deal pipelines are modelled: another object type is a request the sandbox has no route for.
    expect((await call('GET', '/crm/v3/pipelines/tickets')).status).toBe(404);
  });

  it('a datetime property (closedate) takes epoch milliseconds or an ISO 8601 date of a real day, on create and update', async () => {
    for (const closedate of ['2026-06-30', '2026-06-30T09:30:00Z', '2026-06-30T09:30:00.000+02:00', '1782777600000']) {
      expect((await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'D', closedate } })).status, closedate).toBe(201);
    }
    const deal = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'D' } });
    for (const closedate of ['next friday', '30/06/2026', '2026-02-30', '2026-06-30 09:30']) {
      const res = await call('PATCH', `/crm/v3/objects/deals/${deal.body.id}`, { properties: { closedate } });
      expect(res.status, closedate).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_LONG', context: { propertyName: ['closedate'] } }] });
    }
    expect((await call('GET', `/crm/v3/objects/deals/${deal.body.id}?properties=closedate`)).body.properties.closedate).toBeNull();
  });

  it('associations on create: a type HubSpot does not define from this object is refused, quoted, and nothing is made', async () => {
    const contact = (await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'assoc-types@example.com' } })).body;
    const deal = (type: unknown) => ({ properties: { dealname: 'Typed', dealstage: 'qualifiedtobuy' }, associations: [{ to: { id: contact.id }, types: [type] }] });
    // 279 is contact to company: not a type from a deal.
    const wrong = await call('POST', '/crm/v3/objects/deals', deal({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      message: 'One or more associations are invalid',
      context: { associationSpec: ['HUBSPOT_DEFINED=279'], INVALID_ASSOCIATION_TYPE_ID: ['HUBSPOT_DEFINED=279 is not a valid association definition id'] },
    });
    const untyped = await call('POST', '/crm/v3/objects/deals', deal({ associationTypeId: { id: 3 } }));
    expect(untyped.body.context.associationSpec).toEqual(['null={"id":3}']);
    const found = await call('POST', '/crm/v3/objects/deals/search', { query: 'Typed' });
    expect(found.body.total).toBe(0);
    const made = await call('POST', '/crm/v3/objects/deals', deal({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }));
    expect(made.status).toBe(201);
  });

  it('409 CONFLICT naming the existing id on a duplicate contact e-mail', async () => {
    const first = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'dup@example.com', firstname: 'Dee' } });
    const again = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'DUP@example.com' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', category: 'CONFLICT', message: `Contact already exists. Existing ID: ${first.body.id}` });
    expect(typeof again.body.correlationId).toBe('string');
  });

  it('updates with PATCH and answers 404 OBJECT_NOT_FOUND for unknown ids', async () => {
    const c = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'pat@example.com', firstname: 'Pat' } });
    // HubSpot clears a property on "" and ignores null (issue 12).
    const u = await call('PATCH', `/crm/v3/objects/contacts/${c.body.id}`, { properties: { lastname: 'Lee', firstname: '' } });
    expect(u.status).toBe(200);
    expect(u.body.properties).toMatchObject({ lastname: 'Lee', firstname: null });
    expect((await call('PATCH', `/crm/v3/objects/contacts/${c.body.id}`, { properties: { lastname: null } })).status).toBe(200);
    expect((await call('GET', `/crm/v3/objects/contacts/${c.body.id}?properties=lastname,firstname`)).body.properties).toMatchObject({ lastname: 'Lee', firstname: null });
    const got = await call('GET', `/crm/v3/objects/contacts/pat@example.com?idProperty=email&properties=lastname`);
    expect(got.body.properties.lastname).toBe('Lee');
    const missing = await call('GET', '/crm/v3/objects/contacts/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
    expect((await call('PATCH', '/crm/v3/objects/contacts/999999', { properties: {} })).status).toBe(404);
  });

  it('lists contacts with limit/after; paging omitted on the last page; limit max 100; archived', async () => {
    for (let i = 0; i < 12; i++) await call('POST', '/crm/v3/objects/contacts', { properties: { email: `list${i}@example.com` } });
    const all = (await call('GET', '/crm/v3/objects/contacts?limit=100')).body.results.length;
    const p1 = await call('GET', '/crm/v3/objects/contacts');
    expect(p1.body.results).toHaveLength(10);
    expect(p1.body.paging.next.after).toEqual(expect.any(String));
    let seen = p1.body.results.length;
    let after = p1.body.paging.next.after;
    while (after) {
      const p = await call('GET', `/crm/v3/objects/contacts?limit=10&after=${after}`);
      seen += p.body.results.length;
      after = p.body.paging?.next.after;
      if (!after) expect(p.body).not.toHaveProperty('paging');
    }
    expect(seen).toBe(all);
    expect((await call('GET', '/crm/v3/objects/contacts?limit=101')).status).toBe(400);
    const victim = p1.body.results[0].id;
    expect((await call('DELETE', `/crm/v3/objects/contacts/${victim}`)).status).toBe(204);
    const archived = await call('GET', '/crm/v3/objects/contacts?archived=true');
    expect(archived.body.results.map((r: Json) => r.id)).toEqual([victim]);
    expect(archived.body.results[0].archived).toBe(true);
  });

  describe('search', () => {
    let ids: Record<string, string> = {};
    beforeAll(async () => {
      const mk = async (name: string, props: Record<string, string>) => {
        ids[name] = (await call('POST', '/crm/v3/objects/companies', { properties: { name, ...props } })).body.id;
      };
      ids = {};
      await mk('Acme Corp', { domain: 'acme.com', industry: 'COMPUTER_SOFTWARE', numberofemployees: '50', city: 'Berlin' });
      await mk('Globex', { domain: 'globex.io', numberofemployees: '500', city: 'Paris' });
      await mk('Initech', { domain: 'initech.com', numberofemployees: '5' });
    });
    const search = (body: unknown) => call('POST', '/crm/v3/objects/companies/search', body);
    const names = (r: { body: Json }) => r.body.results.map((x: Json) => x.properties.name);

    it('ANDs filters in a group and ORs groups; returns total', async () => {
      const r = await search({
        filterGroups: [
          { filters: [{ propertyName: 'numberofemployees', operator: 'GTE', value: '10' }, { propertyName: 'city', operator: 'EQ', value: 'berlin' }] },
          { filters: [{ propertyName: 'domain', operator: 'CONTAINS_TOKEN', value: 'initech' }] },
        ],
        properties: ['name', 'numberofemployees'],
        sorts: [{ propertyName: 'numberofemployees', direction: 'DESCENDING' }],
      });
      expect(r.status).toBe(200);
      expect(names(r)).toEqual(['Acme Corp', 'Initech']);
      expect(r.body.total).toBe(2);
      expect(r.body).not.toHaveProperty('paging');
      expect(r.body.results[0].properties).toHaveProperty('numberofemployees', '50');
    });

    it.each([
      ['NEQ', { value: 'Globex' }, ['Acme Corp', 'Initech']],
      ['LT', { value: '50' }, ['Initech']],
      ['LTE', { value: '50' }, ['Acme Corp', 'Initech']],
      ['GT', { value: '50' }, ['Globex']],
      ['BETWEEN', { value: '5', highValue: '50' }, ['Acme Corp', 'Initech']],
      ['IN', { values: ['Globex', 'Initech'] }, ['Globex', 'Initech']],
      ['NOT_IN', { values: ['Globex'] }, ['Acme Corp', 'Initech']],
      ['HAS_PROPERTY', {}, ['Acme Corp', 'Globex']],
      ['NOT_HAS_PROPERTY', {}, ['Initech']],
      ['NOT_CONTAINS_TOKEN', { value: 'glob*' }, ['Acme Corp', 'Initech']],
    ] as const)('operator %s', async (operator, extra, want) => {
      const prop = operator === 'HAS_PROPERTY' || operator === 'NOT_HAS_PROPERTY' ? 'city' : ['NEQ', 'IN', 'NOT_IN', 'NOT_CONTAINS_TOKEN'].includes(operator) ? 'name' : 'numberofemployees';
      const r = await search({ filterGroups: [{ filters: [{ propertyName: prop, operator, ...extra }] }] });
      expect(names(r).filter((n: string) => ['Acme Corp', 'Globex', 'Initech'].includes(n))).toEqual(want);
    });

    it('query, limit/after paging and bad input', async () => {
      expect(names(await search({ query: 'glob' }))).toEqual(['Globex']);
      const p1 = await search({ limit: 2 });
      expect(p1.body.results).toHaveLength(2);
      expect(p1.body.total).toBeGreaterThanOrEqual(3);
      const p2 = await search({ limit: 2, after: p1.body.paging.next.after });
      expect(p2.body.results[0].id).not.toBe(p1.body.results[0].id);
      expect((await search({ filterGroups: [{ filters: [{ propertyName: 'name', operator: 'LIKE', value: 'x' }] }] })).body.category).toBe('VALIDATION_ERROR');
      expect((await search({ limit: 201 })).status).toBe(400);
      expect((await search({ filterGroups: Array.from({ length: 6 }, () => ({ filters: [] })) })).status).toBe(400);
    });
  });

  it("notes search: a record's notes by associations.*, newest first on hs_timestamp as instants, paged by after; HubSpot's note properties", async () => {
    const contact = (await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'notes-search@example.com' } })).body.id;
    const other = (await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'notes-other@example.com' } })).body.id;
    const deal = (await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Notes deal' } })).body.id;
    const on = (...ids: [string, number][]) => ids.map(([id, associationTypeId]) => ({ to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }] }));
    const note = async (hs_timestamp: string, associations: unknown) =>
      (await call('POST', '/crm/v3/objects/notes', { properties: { hs_note_body: `at ${hs_timestamp}`, hs_timestamp }, associations })).body;
    // Written in three forms: 09:00Z (with an offset), 10:00Z (epoch milliseconds), 09:30Z; and one on another contact.
    const nine = await note('2026-03-02T10:00:00+01:00', on([contact, 202]));
    const ten = await note(String(Date.parse('2026-03-02T10:00:00Z')), on([contact, 202], [deal, 214]));
    const half = await note('2026-03-02T09:30:00Z', on([contact, 202]));
    await note('2026-03-03T00:00:00Z', on([other, 202]));
    expect(Object.keys(nine.properties).sort()).toEqual(['hs_createdate', 'hs_lastmodifieddate', 'hs_note_body', 'hs_object_id', 'hs_timestamp']);

    const body = (property: string, id: string) => ({
      filterGroups: [{ filters: [{ propertyName: property, operator: 'EQ', value: id }] }],
      sorts: [{ propertyName: 'hs_timestamp', direction: 'DESCENDING' }],
      properties: ['hs_note_body', 'hs_timestamp', 'hubspot_owner_id'],
    });
    const p1 = await call('POST', '/crm/v3/objects/notes/search', { ...body('associations.contact', contact), limit: 2 });
    expect(p1.status, JSON.stringify(p1.body)).toBe(200);
    expect(p1.body.total).toBe(3);
    expect(p1.body.results.map((r: Json) => r.id)).toEqual([ten.id, half.id]);
    expect(p1.body.paging.next.after).toBe('2');
    // The properties asked for (hubspot_owner_id null when unset) and the ones HubSpot adds: a note's are hs_createdate and hs_lastmodifieddate.
    expect(Object.keys(p1.body.results[0].properties).sort()).toEqual(['hs_createdate', 'hs_lastmodifieddate', 'hs_note_body', 'hs_object_id', 'hs_timestamp', 'hubspot_owner_id']);
    expect(p1.body.results[0].properties).toMatchObject({ hs_note_body: ten.properties.hs_note_body, hubspot_owner_id: null });
    const p2 = await call('POST', '/crm/v3/objects/notes/search', { ...body('associations.contact', contact), limit: 2, after: p1.body.paging.next.after });
    expect(p2.body.results.map((r: Json) => r.id)).toEqual([nine.id]);
    expect(p2.body).not.toHaveProperty('paging');

    expect((await call('POST', '/crm/v3/objects/notes/search', body('associations.deal', deal))).body.results.map((r: Json) => r.id)).toEqual([ten.id]);
    // Ascending too, and HubSpot's default set (hs_createdate, hs_lastmodifieddate, hs_object_id) without properties.
    const asc = await call('POST', '/crm/v3/objects/notes/search', { ...body('associations.contact', contact), sorts: [{ propertyName: 'hs_timestamp', direction: 'ASCENDING' }], properties: undefined });
    expect(asc.body.results.map((r: Json) => r.id)).toEqual([nine.id, half.id, ten.id]);
    expect(Object.keys(asc.body.results[0].properties).sort()).toEqual(['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id']);
    // A range filter on hs_timestamp compares instants too: epoch milliseconds against ISO values.
    const after930 = await call('POST', '/crm/v3/objects/notes/search', {
      filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: contact }, { propertyName: 'hs_timestamp', operator: 'GTE', value: String(Date.parse('2026-03-02T09:30:00Z')) }] }],
    });
    expect(after930.body.results.map((r: Json) => r.id).sort()).toEqual([ten.id, half.id].sort());
  });

  it('HubSpot search has its own 5-per-second limit without rate headers', async () => {
    const limited = await startSandbox();
    try {
      const t = limited.control.issueTokens('hubspot', 'fast@example.com').accessToken;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await fetch(`${limited.url}/hubspot/crm/v3/objects/contacts/search`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: '{}' });
        expect(r.headers.get('x-hubspot-ratelimit-max')).toBeNull();
        statuses.push(r.status);
        if (r.status === 429) expect(await r.json()).toMatchObject({ policyName: 'SECONDLY', category: 'RATE_LIMITS' });
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('v4 default association: PUT links two existing records (200, HubSpot\'s batch answer), found by associations.* search', async () => {
    const contact = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'v4link@example.com' } });
    const deal = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'V4 linked', amount: '1', dealstage: 'appointmentscheduled' } });
    const path = `/crm/v4/objects/deals/${deal.body.id}/associations/default/contacts/${contact.body.id}`;
    const linked = await call('PUT', path);
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({
      status: 'COMPLETE',
      results: [{ from: { id: deal.body.id }, to: { id: contact.body.id }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 } }],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    const found = await call('POST', '/crm/v3/objects/deals/search', { filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: contact.body.id }] }] });
    expect(found.body.results.map((r: Json) => r.id)).toEqual([deal.body.id]);
    expect((await call('PUT', path)).status).toBe(200);

    const missing = await call('PUT', `/crm/v4/objects/deals/999999/associations/default/contacts/888888`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      message: 'One or more associations are invalid',
      context: { INVALID_OBJECT_IDS: ['DEAL=999999 is not valid', 'CONTACT=888888 is not valid'], objectId: ['999999', '888888'], objectType: ['DEAL', 'CONTACT'] },
    });
    const ticket = await call('PUT', `/crm/v4/objects/tickets/1/associations/default/contacts/${contact.body.id}`);
    expect(ticket.status).toBe(400);
    expect(ticket.body.message).toBe('Unable to infer object type from: tickets');
    // Not a route: the labelled PUT (with a body of types) is not modelled.
    expect((await call('PUT', `/crm/v4/objects/deals/${deal.body.id}/associations/contacts/${contact.body.id}`, [])).status).toBe(404);
  });

  it('v4 default association: one store, a repeat from either end stores nothing more; a default type is the create path\'s non-primary type', () => {
    const crm = new Crm('store@example.com', Date.parse('2026-01-01T00:00:00Z'));
    const contact = crm.create('contacts', { email: 'store.link@example.com' }, Date.now());
    const company = crm.create('companies', { name: 'Store Co' }, Date.now());
    expect(crm.associateDefault({ type: 'contacts', id: contact.id }, { type: 'companies', id: company.id })).toBe(279);
    const stored = crm.associations.length;
    expect(crm.associateDefault({ type: 'contacts', id: contact.id }, { type: 'companies', id: company.id })).toBe(279);
    expect(crm.associateDefault({ type: 'companies', id: company.id }, { type: 'contacts', id: contact.id })).toBe(280);
    expect(crm.associations.length).toBe(stored);
    expect([...crm.associatedIds('companies', company.id, 'contacts')]).toEqual([contact.id]);

    for (const from of RECORD_TYPES) for (const to of RECORD_TYPES) expect(ASSOCIATION_TYPES[from][DEFAULT_ASSOCIATION_TYPE_IDS[from][to]], `${from} -> ${to}`).toBe(to);
    expect(DEFAULT_ASSOCIATION_TYPE_IDS.deals.contacts).toBe(ASSOCIATION_TYPE_IDS.deal.contact);
    expect(DEFAULT_ASSOCIATION_TYPE_IDS.deals.companies).toBe(ASSOCIATION_TYPE_IDS.deal.company.other);
    expect(DEFAULT_ASSOCIATION_TYPE_IDS.contacts.companies).toBe(ASSOCIATION_TYPE_IDS.contact.company.other);
  });
});
