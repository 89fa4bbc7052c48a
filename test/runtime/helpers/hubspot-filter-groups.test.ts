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
