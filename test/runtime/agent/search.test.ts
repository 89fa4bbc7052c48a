/**
 * The ranked tool search (runtime/agent/search.ts) over the generated tools: natural-language queries, as an agent or
 * a user would type them, against the tool expected first.
 */
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/tools.gen.js';
import { stem, ToolSearch } from '../../../runtime/agent/search.js';
import type { ToolDefinition } from '../../../runtime/types.js';

const search = new ToolSearch(tools as readonly ToolDefinition[]);

/** A synthetic tool: its name is its title, its parameters are strings. */
function tool(name: string, description: string, parameters: string[] = [], readOnly = false): ToolDefinition {
  const base = tools[0] as ToolDefinition;
  return {
    ...base,
    name,
    aliases: [],
    title: name,
    description,
    annotations: { ...base.annotations, readOnly },
    inputSchema: { type: 'object', properties: Object.fromEntries(parameters.map((p) => [p, { type: 'string' }])) },
  };
}

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
  ['add a meeting to my calendar', 'calendar_create_event'],
  ['append a row to a sheet', 'sheets_append_values'],
  ['write text in a google doc', 'docs_update_document'],
  // sheets_read_spreadsheet's own words are "read" and "metadata"; "get" reaches it as "read" is folded to "get",
  // "which" through a synonym.
  ['get the sheet names of a spreadsheet', 'sheets_read_spreadsheet'],
  ['which sheets does the spreadsheet have', 'sheets_read_spreadsheet'],
  // A new tab in a spreadsheet the user has, not a new spreadsheet. ("new sheet in my spreadsheet" still finds
  // sheets_create_spreadsheet first: "new" reads as create, and its name says create and spreadsheet.)
  ['add a tab', 'sheets_add_sheet'],
  ['add a tab to my spreadsheet', 'sheets_add_sheet'],
  ['add a new tab called Week 48 to my spreadsheet', 'sheets_add_sheet'],
  ['create a worksheet', 'sheets_add_sheet'],
  ['add a worksheet', 'sheets_add_sheet'],
  ['create a spreadsheet', 'sheets_create_spreadsheet'],
  // Clearing values, not writing them: "erase" and "delete" found sheets_update_values first until the description
  // said them.
  ["clear last week's numbers", 'sheets_clear_values'],
  ['clear a range', 'sheets_clear_values'],
  ['erase spreadsheet values', 'sheets_clear_values'],
  ['delete values from a sheet', 'sheets_clear_values'],
  // Measured ranking the wrong tool first (a single-item tool above the one that lists, or a tool named with the
  // query's verb above the one that does what it asks).
  ['list databases', 'workspace_search'],
  ['list notion databases', 'workspace_search'],
  ['list sheets in a spreadsheet', 'sheets_read_spreadsheet'],
  ['sheet titles', 'sheets_read_spreadsheet'],
  ['read cells', 'sheets_get_values'],
  ['read a range', 'sheets_get_values'],
  ['get calendar ids', 'calendar_list_calendars'],
  ['find event id', 'calendar_list_events'],
  ['show events', 'calendar_list_events'],
  ['comments on a page', 'workspace_comments_list'],
  // HubSpot's full-text query covers a contact's company property; there is no associations tool.
  ['which contacts work at Acme', 'crm_contacts_search'],
  // Everyday queries across the five connectors.
  ['delete an event', 'calendar_delete_event'],
  ['reschedule my meeting with Bob to Friday', 'calendar_update_event'],
  ['get the details of an event', 'calendar_get_event_by_id'],
  ['get an event', 'calendar_get_event_by_id'],
  ['list events', 'calendar_list_events'],
  ['what time zone is my calendar in', 'calendar_list_calendars'],
  ['search companies by domain', 'crm_companies_search'],
  ['find deals closing this month', 'crm_deals_search'],
  ['create a deal for Acme', 'crm_deal_create'],
  ['link this deal to Ana', 'crm_association_create'],
  ['link the Acme deal to Ana', 'crm_association_create'],
  ['associate contact with company', 'crm_association_create'],
  ['associate a deal with a company', 'crm_association_create'],
  ['Ana works at Acme', 'crm_association_create'],
  ['log a note on a contact', 'crm_note_create'],
  ['add a note to the Acme deal', 'crm_note_create'],
  // Reading notes back: the listing, not the tool that logs one.
  ['what did we last discuss with Ana', 'crm_notes_list'],
  ['show the notes on a contact', 'crm_notes_list'],
  ['read the notes on the Acme deal', 'crm_notes_list'],
  ['list notes', 'crm_notes_list'],
  ['get a company by id', 'crm_company_get'],
  ['list all contacts', 'crm_contacts_list'],
  ['change the amount of a deal', 'crm_deal_update'],
  ["show a contact's details", 'crm_contact_get'],
  ['read the contents of a google doc', 'docs_read_document'],
  ['replace text in a document', 'docs_update_document'],
  ['new google doc', 'docs_create_document'],
  ['create a spreadsheet', 'sheets_create_spreadsheet'],
  ['update cells in a sheet', 'sheets_update_values'],
  ['read values from a sheet', 'sheets_get_values'],
  ['log a row to a google sheet', 'sheets_append_values'],
  ['create a notion page', 'workspace_page_create'],
  ['reply to a comment', 'workspace_comment_create'],
  ["get a database's columns", 'workspace_database_retrieve'],
  ['query a notion database', 'workspace_database_query'],
  ['create a notion database', 'workspace_database_create'],
  ['find a notion page', 'workspace_search'],
  ['get a comment by id', 'workspace_comment_retrieve'],
  ['write to a sheet', 'sheets_update_values'],
  // What is written to or into something changes a thing that exists: not a new spreadsheet.
  ['write to a spreadsheet', 'sheets_update_values'],
  ['write into the cells of my sheet', 'sheets_update_values'],
  ['events this week', 'calendar_list_events'],
  ['page comments', 'workspace_comments_list'],
  ['contacts at a company', 'crm_contacts_search'],
  // A page's content: reading it, and adding to a page that exists (workspace_page_create writes a new one).
  ['read the content of a notion page', 'workspace_page_read'],
  ['summarize my meeting notes page', 'workspace_page_read'],
  ['get the text of a page', 'workspace_page_read'],
  ['get block children', 'workspace_page_read'],
  ['add text to a page', 'workspace_page_append'],
  ['add these action items to the project page', 'workspace_page_append'],
  ['add a paragraph to a notion page', 'workspace_page_append'],
  ['add content to a page', 'workspace_page_append'],
  // Changing a page that exists: its properties, its title, the trash.
  ['mark the notion task done', 'workspace_page_update'],
  ['set the due date of a task in notion', 'workspace_page_update'],
  ['rename a notion page', 'workspace_page_update'],
  ['archive a notion page', 'workspace_page_update'],
  ['update a notion page', 'workspace_page_update'],
  // Several events, but only a tool that deletes one: still the one.
  ['delete events', 'calendar_delete_event'],
  // The search tools return {results: [{id, properties, createdAt, updatedAt}]}: "updatedAt" is not "update".
  ['update deals', 'crm_deal_update'],
  ['update contacts', 'crm_contact_update'],
  ['update companies', 'crm_company_update'],
  ['update a company', 'crm_company_update'],
  ["change a company's industry", 'crm_company_update'],
  ["set a company's number of employees", 'crm_company_update'],
  // The deal pipelines and their stage ids; moving a deal is still the update, the listing comes after it.
  ['what stages can a deal be in', 'crm_deal_pipelines_list'],
  ['list deal pipelines', 'crm_deal_pipelines_list'],
  ['which pipelines does hubspot have', 'crm_deal_pipelines_list'],
  ['get the stage ids of a pipeline', 'crm_deal_pipelines_list'],
  ['hubspot pipeline stages', 'crm_deal_pipelines_list'],
  ['move the Acme deal to Demo booked', 'crm_deal_update'],
  // Availability: free/busy, not the events themselves.
  ['when am I free tomorrow', 'calendar_free_busy'],
  ['find a free slot', 'calendar_free_busy'],
  ['check availability', 'calendar_free_busy'],
  ['when are Ana and I both free this week', 'calendar_free_busy'],
  ["find a time when I'm free on Thursday afternoon", 'calendar_free_busy'],
  ['is Ana busy on Friday', 'calendar_free_busy'],
  ['when is everyone available', 'calendar_free_busy'],
];

/**
 * Queries close to a tool that other tools' descriptions name ("its id from workspace_search"): workspace_search is
 * named by workspace_database_create, _insert_row and _query, crm_contacts_search by crm_contact_update and
 * crm_contacts_list, sheets_read_spreadsheet by sheets_get_values, calendar_list_calendars by calendar_create_event.
 */
const MENTIONED: [query: string, first: string][] = [
  ['search a database by title', 'workspace_search'],
  ['look up a database', 'workspace_search'],
  ['show my calendars', 'calendar_list_calendars'],
  ['workspace_search', 'workspace_search'],
  ['crm_contacts_search', 'crm_contacts_search'],
  ['sheets_read_spreadsheet', 'sheets_read_spreadsheet'],
  ['calendar_list_calendars', 'calendar_list_calendars'],
  ['crm_association_create', 'crm_association_create'],
];

/**
 * What a failure says to the maintainer whose new or changed tool now ranks above the one a query wants (the usual
 * cause: a description, or its example, sharing the query's words).
 */
function outranked(query: string, first: string): string {
  const got = search.search(query)[0]?.name;
  return `'${query}' ranks ${got} first, above ${first}: the search weighs names, aliases, descriptions and parameter names, ` +
    `so a description sharing this query's words (its example included) outranks the tool meant; reword it in ` +
    `${got === undefined ? 'its spec' : `specs/tools/${got.split('_')[0]}/${got}.yaml`}, or, if ${got} is the better answer, change this case`;
}

describe('ToolSearch', () => {
  it.each(CASES)('%s -> %s', (query, first) => {
    expect(search.search(query)[0]?.name, outranked(query, first)).toBe(first);
  });

  it.each(MENTIONED)('%s -> %s, above the tools whose descriptions name it', (query, first) => {
    const mentioning = tools.filter((tool) => tool.name !== first && tool.description.includes(first));
    expect(mentioning.length).toBeGreaterThan(0);
    expect(search.search(query)[0]?.name, outranked(query, first)).toBe(first);
  });

  it('does not find a tool by the name of another tool its description mentions', () => {
    const index = new ToolSearch([
      tool('notes_search', 'Find notes by title.'),
      tool('notes_delete', 'Delete a note; its id comes from notes_search.'),
      tool('notes_archive', 'Archive a note found by a search (notes_search).'),
    ]);
    // notes_delete has "search" only inside the name notes_search; notes_archive has it as a word of its own too.
    expect(index.search('search').map((hit) => hit.name)).toEqual(['notes_search', 'notes_archive']);
    // The real tools: "search" is in these five descriptions only as part of workspace_search or crm_contacts_search.
    const among = new Set(['workspace_database_create', 'workspace_database_insert_row', 'workspace_database_query', 'crm_contact_update', 'crm_contacts_list']);
    expect(search.search('search', { among })).toEqual([]);
  });

  it('indexes a description without its example or the JSON in it', () => {
    const index = new ToolSearch([
      tool('notes_list', 'List notes. Returns {results: [{id, title, archivedAt}], cursor}.\nExample: {"folder": "Inbox", "sort": "modified"}'),
      tool('note_tag', 'Tag a note: tags is `["urgent"]`, e.g. {"tags": ["todo"]}.\nExample (with a color): {"note_id": "n1", "tags": ["later"]}'),
      tool('note_archive', 'Archive a note; it keeps its folder.'),
    ]);
    // Only in an example, a returned shape, an inline object or backticked JSON: no match.
    for (const word of ['inbox', 'modified', 'archivedAt', 'cursor', 'urgent', 'todo', 'later', 'color']) expect(index.search(word)).toEqual([]);
    // "archive" is not the start of notes_list's `archivedAt`; "folder" only note_archive's prose says.
    expect(index.search('archive notes').map((hit) => hit.name)).toEqual(['note_archive', 'notes_list', 'note_tag']);
    expect(index.search('folder').map((hit) => hit.name)).toEqual(['note_archive']);
    // The prose around the JSON still counts.
    expect(index.search('tag')[0]?.name).toBe('note_tag');
    expect(index.search('list')[0]?.name).toBe('notes_list');
  });

  it('ranks update tools above the tools whose returned shapes say updatedAt', () => {
    for (const [query, first, second] of [
      ['update contacts', 'crm_contact_update', 'crm_contacts_list'],
      ['update deals', 'crm_deal_update', 'crm_deals_search'],
    ] as const) {
      const hits = search.search(query, { limit: 50 });
      expect(hits[0]?.name).toBe(first);
      // By a clear margin (0.3% and -8% when "updatedAt" in the JSON was read as "update").
      const other = hits.find((hit) => hit.name === second)?.score ?? 0;
      expect(hits[0]!.score).toBeGreaterThan(1.5 * other);
    }
  });

  it('counts a query word once, by its best reading, however many of its synonyms a tool says', () => {
    // "show" reads as itself, list or get: note_archive says all of them (and read), note_get says get, in its name.
    const index = new ToolSearch([tool('note_get', 'Get a note.'), tool('note_archive', 'Archive a note: show, list, get or read it first.')]);
    expect(index.search('show note').map((hit) => hit.name)).toEqual(['note_get', 'note_archive']);
  });

  it('reads a plural, or a word before "id", as several things or an id: not one a read-only tool takes by its id', () => {
    const index = new ToolSearch([
      tool('note_get', 'Get a note by its id: the note, its title and its text.', ['note_id'], true),
      tool('notes_search', 'Search notes; returns their titles and ids.', ['query'], true),
      tool('note_comment', 'Comment on a note.', ['note_id', 'comment']),
      tool('comments_list', 'List the comments on a note.', ['note_id'], true),
    ]);
    expect(index.search('note titles')[0]?.name).toBe('notes_search');
    expect(index.search('note ids')[0]?.name).toBe('notes_search');
    expect(index.search('get a note by id')[0]?.name).toBe('note_get');
    expect(index.search('comments on a note')[0]?.name).toBe('comments_list');
    expect(index.search('comment on a note')[0]?.name).toBe('note_comment');
    // A tool that changes one note is still the one for changing several.
    expect(index.search('comment on notes')[0]?.name).toBe('note_comment');
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
    expect([stem('contacts'), stem('companies'), stem('properties'), stem('process'), stem('status'), stem('values'), stem('ids')]).toEqual([
      'contact',
      'company',
      'property',
      'process',
      'status',
      'value',
      'id',
    ]);
  });
});
