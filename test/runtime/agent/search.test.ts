/**
 * The ranked tool search (runtime/agent/search.ts) over the generated tools: natural-language queries, as an agent or
 * a user would type them, against the tool expected first.
 */
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/tools.gen.js';
import { stem, ToolSearch } from '../../../runtime/agent/search.js';
import type { ToolDefinition } from '../../../runtime/types.js';

const search = new ToolSearch(tools as readonly ToolDefinition[]);

const CASES: [query: string, first: string][] = [
  ['schedule a meeting with Ana tomorrow', 'calendar_create_event'],
  ['find a contact by e-mail', 'crm_contacts_search'],
  ['find a contact by email', 'crm_contacts_search'],
  ['cancel my dentist appointment', 'calendar_delete_event'],
  ['list my calendars', 'calendar_list_calendars'],
  ['add a row to a notion database', 'workspace_database_insert_row'],
  ['add a row to a spreadsheet', 'sheets_append_values'],
  ['append rows to a google sheet', 'sheets_append_values'],
  ['what meetings do I have tomorrow', 'calendar_list_events'],
  ['write values into cells of a spreadsheet', 'sheets_update_values'],
  ['create a new company in hubspot', 'crm_company_create'],
  ['move a deal to another stage', 'crm_deal_update'],
  ['read a google doc', 'docs_read_document'],
  ['comment on a page', 'workspace_comment_create'],
  ['search notion pages', 'workspace_search'],
  ['new contact', 'crm_contact_create'],
  ['update a contact phone number', 'crm_contact_update'],
  ['create a document', 'docs_create_document'],
  ['hubspot_contact_create', 'crm_contact_create'],
];

describe('ToolSearch', () => {
  it.each(CASES)('%s -> %s', (query, first) => {
    expect(search.search(query)[0]?.name).toBe(first);
  });

  it('ranks, rather than requiring every word: a query with words no tool has still finds the tool', () => {
    const hits = search.search('schedule a meeting with Ana tomorrow');
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('searches only among the given tools, and honours the limit', () => {
    const among = new Set(['crm_contacts_search', 'crm_contact_get']);
    const hits = search.search('schedule a meeting with a contact', { among, limit: 5 });
    expect(hits.map((h) => h.name).every((n) => among.has(n))).toBe(true);
    expect(search.search('event', { limit: 2 })).toHaveLength(2);
  });

  it('finds nothing for an empty query or stop words only', () => {
    expect(search.search('')).toEqual([]);
    expect(search.search('the a of')).toEqual([]);
  });

  it('stems plurals only', () => {
    expect([stem('contacts'), stem('companies'), stem('properties'), stem('process'), stem('status'), stem('values')]).toEqual([
      'contact',
      'company',
      'property',
      'process',
      'status',
      'value',
    ]);
  });
});
