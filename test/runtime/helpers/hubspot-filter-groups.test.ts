import { describe, expect, it } from 'vitest';
import { checkHubspotFilterGroups } from '../../../runtime/helpers/hubspot-filter-groups.js';

describe('checkHubspotFilterGroups: a group that is not an object', () => {
  it('is left to the schema in the array form (items: {type: object} says it, once)', () => {
    expect(checkHubspotFilterGroups(['{"filters": []}', 3], '/filterGroups')).toEqual([]);
  });

  it('is refused in the JSON-string form, which the schema does not look inside', () => {
    expect(checkHubspotFilterGroups('["x"]', '/filterGroups')).toEqual([
      { pointer: '/filterGroups/0', keyword: 'type', message: 'filterGroups[0] must be an object {"filters": [...]}' },
    ]);
  });

  it('names a group without filters at its filters, in either form', () => {
    const want = [{ pointer: '/filterGroups/0/filters', keyword: 'required', message: 'filterGroups[0].filters is required: an array of filters' }];
    expect(checkHubspotFilterGroups([{}], '/filterGroups')).toEqual(want);
    expect(checkHubspotFilterGroups('[{}]', '/filterGroups')).toEqual(want);
  });
});

describe('checkHubspotFilterGroups: an associations.* filter', () => {
  const filter = (f: Record<string, unknown>) => [{ filters: [{ operator: 'EQ', ...f }] }];

  it('refuses a name where the record id goes, saying which search tool gives the id', () => {
    expect(checkHubspotFilterGroups(filter({ propertyName: 'associations.contact', value: 'Ana' }), '/filterGroups')).toEqual([
      {
        pointer: '/filterGroups/0/filters/0/value',
        keyword: 'format',
        message: 'filterGroups[0].filters[0].value must be a contact\'s record id for associations.contact, digits such as "101", not "Ana": send the record\'s id from crm_contacts_search',
      },
    ]);
    const company = checkHubspotFilterGroups(JSON.stringify(filter({ propertyName: 'associations.company', value: 'Acme Inc' })), '/filterGroups');
    expect(company.map((v) => v.message)).toEqual([expect.stringContaining("send the record's id from crm_companies_search")]);
    const deal = checkHubspotFilterGroups([{ filters: [{ propertyName: 'associations.deal', operator: 'IN', values: ['101', 'Onboarding'] }] }], '/filterGroups');
    expect(deal).toEqual([expect.objectContaining({ pointer: '/filterGroups/0/filters/0/values/1', keyword: 'format', message: expect.stringContaining('from crm_deals_search') })]);
  });

  it('takes a record id, as a string or a number, and HAS_PROPERTY without one', () => {
    expect(checkHubspotFilterGroups(filter({ propertyName: 'associations.contact', value: '101' }), '/filterGroups')).toEqual([]);
    expect(checkHubspotFilterGroups(filter({ propertyName: 'associations.company', value: 2002 }), '/filterGroups')).toEqual([]);
    expect(checkHubspotFilterGroups([{ filters: [{ propertyName: 'associations.contact', operator: 'NOT_IN', values: ['1', 2] }] }], '/filterGroups')).toEqual([]);
    expect(checkHubspotFilterGroups([{ filters: [{ propertyName: 'associations.deal', operator: 'HAS_PROPERTY' }] }], '/filterGroups')).toEqual([]);
  });

  it('holds each of IN\'s values to the property\'s form, as a value is', () => {
    const dates = checkHubspotFilterGroups([{ filters: [{ propertyName: 'closedate', operator: 'IN', values: ['2026-03-31', 'last week'] }] }], '/filterGroups');
    expect(dates).toEqual([expect.objectContaining({ pointer: '/filterGroups/0/filters/0/values/1', keyword: 'format', message: expect.stringContaining('must be a date for closedate') })]);
  });
});
