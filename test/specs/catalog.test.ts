import { describe, expect, it } from 'vitest';
import * as generated from '../../generated/tools.gen.js';
import { connectors } from '../../generated/connectors.gen.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { tool, violations, type BuildCase } from './harness.js';
import { calendarBuild } from './cases/calendar.js';
import { crmBuild } from './cases/crm.js';
import { docsBuild } from './cases/docs.js';
import { sheetsBuild } from './cases/sheets.js';
import { DB, PAGE, PAGE_HEX, workspaceBuild } from './cases/workspace.js';

const tools = generated.tools as readonly ToolDefinition[];

/** The 34 tools of the service specification, with the hosted product's name as the alias of the non-workspace ones. */
const EXPECTED: Record<string, string | null> = {
  workspace_comment_create: null, workspace_comment_retrieve: null, workspace_comments_list: null, workspace_search: null,
  workspace_database_create: null, workspace_database_retrieve: null, workspace_database_insert_row: null,
  workspace_database_query_properties: null, workspace_database_query: null, workspace_page_create: null,
  calendar_create_event: 'googlecalendar_create_event', calendar_delete_event: 'googlecalendar_delete_event',
  calendar_get_event_by_id: 'googlecalendar_get_event_by_id', calendar_list_calendars: 'googlecalendar_list_calendars',
  calendar_list_events: 'googlecalendar_list_events', calendar_update_event: 'googlecalendar_update_event',
  crm_companies_search: 'hubspot_companies_search', crm_contacts_search: 'hubspot_contacts_search', crm_deals_search: 'hubspot_deals_search',
  crm_company_create: 'hubspot_company_create', crm_company_get: 'hubspot_company_get', crm_contact_create: 'hubspot_contact_create',
  crm_contact_get: 'hubspot_contact_get', crm_contact_update: 'hubspot_contact_update', crm_contacts_list: 'hubspot_contacts_list',
  crm_deal_create: 'hubspot_deal_create', crm_deal_update: 'hubspot_deal_update',
  sheets_create_spreadsheet: 'googlesheets_create_spreadsheet', sheets_get_values: 'googlesheets_get_values',
  sheets_read_spreadsheet: 'googlesheets_read_spreadsheet', sheets_update_values: 'googlesheets_update_values',
  docs_create_document: 'googledocs_create_document', docs_read_document: 'googledocs_read_document',
  docs_update_document: 'googledocs_update_document',
};

const allBuild: BuildCase[] = [...workspaceBuild, ...calendarBuild, ...crmBuild, ...sheetsBuild, ...docsBuild];
/** One valid input per tool (the first build case of each). */
const validInput = new Map<string, Record<string, unknown>>();
for (const c of allBuild) if (!validInput.has(c.tool)) validInput.set(c.tool, c.input);

describe('the tool set', () => {
  it('has exactly the 34 tools of the specification', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(tools).toHaveLength(34);
  });

  it('has a build case for every tool', () => {
    expect([...validInput.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s has the alias %s, resolved by toolsByName', (name, alias) => {
    const byName = generated.toolsByName as ReadonlyMap<string, ToolDefinition>;
    expect(byName.get(name)).toBe(tool(name));
    expect(tool(name).aliases).toEqual(alias === null ? [] : [alias]);
    if (alias !== null) expect(byName.get(alias)).toBe(tool(name));
  });

  it('uses the safe retry policy only for reads sent as POST, and never retries creates', () => {
    const safe = tools.filter((t) => t.retry === 'safe').map((t) => t.name).sort();
    expect(safe).toEqual(['crm_companies_search', 'crm_contacts_search', 'crm_deals_search', 'workspace_database_query', 'workspace_database_query_properties', 'workspace_search']);
    for (const name of ['calendar_create_event', 'crm_contact_create', 'workspace_page_create', 'docs_update_document', 'sheets_create_spreadsheet']) expect(tool(name).retry).toBe('never');
    for (const name of ['calendar_delete_event', 'sheets_update_values', 'crm_contact_get']) expect(tool(name).retry).toBe('idempotent');
  });

  it('takes workspace_version on every workspace tool, limited to the versions the tools are built for', () => {
    // The specification lists it on eight of the ten; issue 12.5 (2025-09-03 end to end) adds search and the
    // property-limited query, whose requests and answers change with the version too.
    const withIt = tools.filter((t) => Object.hasOwn((t.inputSchema.properties ?? {}) as object, 'workspace_version'));
    expect(withIt.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).filter((n) => n.startsWith('workspace_')).sort());
    for (const t of withIt) {
      expect((t.inputSchema.properties as Record<string, { enum?: string[] }>).workspace_version!.enum).toEqual(connectors.workspace.api.versionHeader!.supported);
    }
  });

  it('publishes _parent as read-only and never requires it', () => {
    for (const name of ['workspace_database_insert_row', 'workspace_page_create']) {
      const schema = tool(name).inputSchema as { properties: Record<string, { readOnly?: boolean }>; required?: string[] };
      expect(schema.properties._parent?.readOnly).toBe(true);
      expect(schema.required ?? []).not.toContain('_parent');
    }
  });
});

describe.each(Object.keys(EXPECTED))('%s', (name) => {
  const input = () => validInput.get(name)!;
  const versioned = !name.startsWith('crm_');

  it('refuses an unknown parameter', () => {
    const found = violations(name, { ...input(), colour: 'blue' });
    expect(found.some((v) => v.message.includes('colour'))).toBe(true);
  });

  it('refuses an input that is not an object', () => {
    expect(violations(name, 'hello').length).toBeGreaterThan(0);
    expect(violations(name, null).length).toBeGreaterThan(0);
  });

  if (versioned) {
    it('accepts its own tool_version and schema_version and refuses unknown ones, listing the versions', () => {
      const t = tool(name);
      expect(t.validate({ ...input(), tool_version: t.version, schema_version: t.schemaVersions[0] }).ok).toBe(true);
      const bad = violations(name, { ...input(), tool_version: '9.9.9' });
      const v = bad.find((x) => x.pointer === '/tool_version');
      expect(v?.message).toContain('tool_version');
      for (const known of t.versions) expect(v?.message).toContain(known);
      const badSchema = violations(name, { ...input(), schema_version: '99' });
      expect(badSchema.find((x) => x.pointer === '/schema_version')?.message).toContain('schema_version');
    });
  } else {
    it('takes neither schema_version nor tool_version', () => {
      expect(violations(name, { ...input(), tool_version: tool(name).version }).length).toBeGreaterThan(0);
      expect(violations(name, { ...input(), schema_version: '1' }).length).toBeGreaterThan(0);
    });
  }

  it('describes every parameter with an example', () => {
    const t = tool(name);
    expect(t.description.length).toBeGreaterThan(80);
    const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string; examples?: unknown[]; readOnly?: boolean }>;
    for (const [p, schema] of Object.entries(props)) {
      expect(schema.description, `${name}.${p} description`).toBeTruthy();
      if (!schema.readOnly && p !== 'schema_version' && p !== 'tool_version') expect(schema.examples?.length, `${name}.${p} examples`).toBeGreaterThan(0);
    }
  });
});

describe('workspace ids', () => {
  const forms: Array<[string, string]> = [
    ['hyphenated UUID', PAGE],
    ['upper-case UUID', PAGE.toUpperCase()],
    ['32 hex', PAGE_HEX],
    ['page address', `https://www.notion.so/acme/Roadmap-${PAGE_HEX}`],
    ['page address with query', `https://www.notion.so/Roadmap-${PAGE_HEX}?pvs=4`],
  ];
  it.each(forms)('normalizes a %s to the hyphenated UUID', (_label, id) => {
    const t = tool('workspace_page_create');
    const result = t.validate({ parent_page_id: id });
    expect(result.ok).toBe(true);
    if (result.ok) expect(t.buildRequest(result.value).body).toEqual({ parent: { page_id: PAGE } });
    const list = tool('workspace_comments_list').validate({ block_id: id });
    if (list.ok) expect(tool('workspace_comments_list').buildRequest(list.value).query).toEqual({ block_id: PAGE });
    else expect.unreachable(JSON.stringify(list.violations));
  });

  it.each([['too short', PAGE_HEX.slice(1)], ['not hex', 'z'.repeat(32)], ['address without id', 'https://www.notion.so/acme/Roadmap']])(
    'refuses an id that is %s',
    (_label, id) => {
      expect(violations('workspace_database_retrieve', { database_id: id }).some((v) => v.pointer === '/database_id')).toBe(true);
    },
  );

  it('puts the normalized id in paths', () => {
    const t = tool('workspace_database_query');
    const r = t.validate({ database_id: DB.replace(/-/g, '').toUpperCase() });
    expect(r.ok && t.buildRequest(r.value).path).toBe(`/v1/databases/${DB}/query`);
  });
});
