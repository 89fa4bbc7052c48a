/**
 * `details.scopes_to_request`: what a step-up link asks the user for after a missing-scope refusal. Where the provider
 * names scopes of which any one would do (Google's challenge, HubSpot's "One or more of the following scopes are
 * required."), one is asked for; where it says all of them are needed (HubSpot's "All of the following scopes are
 * required."), all are, or none when one of them is a scope neither the connector nor the connection asks for (a link
 * that leaves one out could not make the call work).
 */
import { describe, expect, it } from 'vitest';
import { scopesToRequest } from '../../../runtime/executor/scope-refusal.js';

const defaults = ['crm.objects.contacts.read', 'crm.objects.companies.read', 'crm.objects.deals.read'];

describe('scopesToRequest', () => {
  it('of scopes any one of which would do, asks for the one the connector asks for by default', () => {
    expect(scopesToRequest({ scopes: ['crm.schemas.deals.read', 'crm.objects.deals.read'], all: false }, defaults, [])).toEqual(['crm.objects.deals.read']);
  });

  it('else the first the connection asks for', () => {
    expect(scopesToRequest({ scopes: ['crm.schemas.deals.read', 'crm.objects.deals.sensitive.read.v2'], all: false }, defaults, ['crm.objects.deals.sensitive.read.v2'])).toEqual([
      'crm.objects.deals.sensitive.read.v2',
    ]);
  });

  it('of scopes all of which are needed, asks for every one', () => {
    expect(scopesToRequest({ scopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'], all: true }, defaults, [])).toEqual([
      'crm.objects.contacts.read',
      'crm.objects.companies.read',
    ]);
  });

  it('of scopes all of which are needed, asks for none when one is outside the connector and the connection', () => {
    expect(scopesToRequest({ scopes: ['crm.objects.contacts.read', 'account-info.security.read'], all: true }, defaults, [])).toEqual([]);
  });

  it('never offers a scope that neither the connector nor the connection asks for', () => {
    expect(scopesToRequest({ scopes: ['https://mail.google.com/'], all: false }, defaults, [])).toEqual([]);
    expect(scopesToRequest({ scopes: ['https://mail.google.com/'], all: true }, defaults, [])).toEqual([]);
  });
});
