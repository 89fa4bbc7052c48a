import { describe, expect, it } from 'vitest';
import { checkHubspotFilterGroups } from '../../../runtime/helpers/hubspot-filter-groups.js';
import { checkHubspotPropertyList, propertyNameProblem } from '../../../runtime/helpers/hubspot-property-names.js';

const LABEL = "looks like a property's label; HubSpot takes its internal name, lower case without spaces (e.g. firstname, lastname, email, lifecyclestage, dealstage, closedate)";

describe('propertyNameProblem: a HubSpot internal name never holds whitespace', () => {
  it('takes internal names, and one-word names whatever their case (a one-word label is not guessed at)', () => {
    for (const name of ['firstname', 'hs_lead_status', 'lifecyclestage', 'Email', 'FIRSTNAME']) expect(propertyNameProblem(name, 'properties'), name).toBeUndefined();
  });

  it('says a name with a space inside looks like a label, where, and what to send', () => {
    expect(propertyNameProblem('First Name', 'properties')).toBe(`properties: "First Name" ${LABEL}`);
    expect(propertyNameProblem('Close\tDate', 'x')).toBe(`x: "Close\\tDate" ${LABEL}`);
  });

  it('says a name with whitespace only around it is to be sent without it', () => {
    expect(propertyNameProblem(' email ', 'p')).toBe(`p: " email " has whitespace around it; HubSpot's internal property names have none (send "email")`);
  });

  it('quotes a long name clipped', () => {
    expect(propertyNameProblem(`a ${'b'.repeat(200)}`, 'p')).toContain(`"a ${'b'.repeat(78)}…"`);
  });
});

describe('checkHubspotPropertyList: the comma-separated properties parameter', () => {
  it('refuses each label at the parameter, and nothing else', () => {
    expect(checkHubspotPropertyList('email, First Name,lastname,Lifecycle Stage', '/properties')).toEqual([
      { pointer: '/properties', keyword: 'pattern', message: `properties: "First Name" ${LABEL}` },
      { pointer: '/properties', keyword: 'pattern', message: `properties: "Lifecycle Stage" ${LABEL}` },
    ]);
  });

  it('leaves spaces around the commas and empty items to splitList (trimmed, dropped), as before', () => {
    expect(checkHubspotPropertyList(' email , firstname,,', '/properties')).toEqual([]);
    expect(checkHubspotPropertyList(',', '/properties')).toEqual([]);
  });
});

describe('checkHubspotFilterGroups: a filter propertyName', () => {
  it('is refused with the same rule, at its pointer, in either form', () => {
    const groups = [{ filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' }, { propertyName: 'Lifecycle Stage', operator: 'EQ', value: 'customer' }] }];
    const want = [{ pointer: '/filterGroups/0/filters/1/propertyName', keyword: 'pattern', message: `filterGroups[0].filters[1].propertyName: "Lifecycle Stage" ${LABEL}` }];
    expect(checkHubspotFilterGroups(groups, '/filterGroups')).toEqual(want);
    expect(checkHubspotFilterGroups(JSON.stringify(groups), '/filterGroups')).toEqual(want);
  });

  it('is required when blank', () => {
    expect(checkHubspotFilterGroups([{ filters: [{ propertyName: '  ', operator: 'HAS_PROPERTY' }] }], '/filterGroups')).toEqual([
      { pointer: '/filterGroups/0/filters/0/propertyName', keyword: 'required', message: 'filterGroups[0].filters[0].propertyName is required: the internal name of the property, e.g. "email"' },
    ]);
  });
});
