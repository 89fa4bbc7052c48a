import { describe, expect, it } from 'vitest';
import { checkHubspotFilterGroups } from '../../../runtime/helpers/hubspot-filter-groups.js';
import { checkHubspotPropertyList, domainProblem, propertyNameProblem } from '../../../runtime/helpers/hubspot-property-names.js';
import { checkCompanyProperties } from '../../../runtime/helpers/crm.js';

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

describe('domainProblem: a company domain is the domain alone', () => {
  it('takes a bare domain (and a search wildcard), names the bare domain of a URL', () => {
    for (const d of ['acme.com', 'www.acme.co.uk', '*.acme.com', 'acme*']) expect(domainProblem(d), d).toBeUndefined();
    expect(domainProblem('https://acme.com/about')).toBe('without protocol or path: "acme.com", not "https://acme.com/about"');
    expect(domainProblem('acme.com/pricing')).toBe('without protocol or path: "acme.com", not "acme.com/pricing"');
  });
});

describe("checkCompanyProperties: crm_company_update's properties", () => {
  it('takes internal names and a bare domain; refuses a label and a URL at their pointers', () => {
    expect(checkCompanyProperties({ industry: 'COMPUTER_SOFTWARE', numberofemployees: 250, domain: 'acme.com', phone: null }, '/properties')).toEqual([]);
    expect(checkCompanyProperties({ 'Annual Revenue': 5, domain: 'http://acme.com' }, '/properties')).toEqual([
      { pointer: '/properties/Annual Revenue', keyword: 'pattern', message: `properties: "Annual Revenue" ${LABEL}` },
      { pointer: '/properties/domain', keyword: 'format', message: 'properties.domain must be the domain alone, without protocol or path: "acme.com", not "http://acme.com"' },
    ]);
    expect(checkCompanyProperties({ ' city': 'Lyon' }, '/properties')[0]).toMatchObject({ pointer: '/properties/ city', message: expect.stringContaining('has whitespace around it') });
    // A name holding "/" is escaped in its pointer (RFC 6901).
    expect(checkCompanyProperties({ 'Revenue / Year': 1 }, '/properties')[0]?.pointer).toBe('/properties/Revenue ~1 Year');
    expect(checkCompanyProperties('city=Lyon', '/properties')).toEqual([]);
  });
});
