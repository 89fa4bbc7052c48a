import { describe, expect, it } from 'vitest';
import * as generated from '../../generated/tools.gen.js';
import { connectors } from '../../generated/connectors.gen.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { buildCases, toolSpecs } from './examples.js';
import { tool, violations } from './harness.js';

const tools = generated.tools as readonly ToolDefinition[];
const names = tools.map((t) => t.name);

/** Workspace/notes page and database ids used by the id-format checks below. */
const PAGE = '59833787-2cf9-4fdf-8782-e53db20768a5';
const PAGE_HEX = PAGE.replace(/-/g, '');
const DB = 'd9824bdc-8445-4327-be8b-5b47500af6ce';

/**
 * The hosted product's name of each tool is its alias: the connector's prefix is the product's (the workspace tools
 * have none). A rule, not a table: a new tool follows it.
 */
const HOSTED_PREFIX: Record<string, string | null> = { workspace: null, calendar: 'googlecalendar', crm: 'hubspot', sheets: 'googlesheets', docs: 'googledocs' };
const aliasOf = (t: ToolDefinition): string | null => {
  const prefix = HOSTED_PREFIX[t.connector];
  return prefix ? `${prefix}_${t.name.slice(t.connector.length + 1)}` : null;
};

/** One valid input per tool (its first request example). */
const validInput = new Map<string, Record<string, unknown>>();
for (const c of buildCases) if (!validInput.has(c.tool)) validInput.set(c.tool, c.input);

describe('the tool set', () => {
  it('names every tool <connector>_<what>, uniquely', () => {
    for (const t of tools) expect(t.name.startsWith(`${t.connector}_`), t.name).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has a build case for every tool', () => {
    expect([...validInput.keys()].sort()).toEqual([...names].sort());
  });

  it.each(tools.map((t) => [t.name, aliasOf(t)] as const))('%s has the alias %s, resolved by toolsByName', (name, alias) => {
    const byName = generated.toolsByName as ReadonlyMap<string, ToolDefinition>;
    expect(byName.get(name)).toBe(tool(name));
    expect(tool(name).aliases).toEqual(alias === null ? [] : [alias]);
    if (alias !== null) expect(byName.get(alias)).toBe(tool(name));
  });

  it('uses the safe retry policy exactly for reads sent as POST, and never retries creates', () => {
    // A rule, not a list of names: a new read sent as POST (a search, a free/busy query) joins it from its spec.
    const method = new Map(toolSpecs.map((s) => [s.name, s.request.method]));
    const safe = tools.filter((t) => t.retry === 'safe').map((t) => t.name).sort();
    const postReads = tools.filter((t) => t.annotations.readOnly && method.get(t.name) === 'POST').map((t) => t.name).sort();
    expect(safe).toEqual(postReads);
    expect(safe).toEqual(expect.arrayContaining(['crm_contacts_search', 'workspace_database_query', 'workspace_search']));
    for (const name of ['calendar_create_event', 'crm_contact_create', 'workspace_page_create', 'docs_update_document', 'sheets_create_spreadsheet']) expect(tool(name).retry).toBe('never');
    for (const name of ['calendar_delete_event', 'sheets_update_values', 'crm_contact_get']) expect(tool(name).retry).toBe('idempotent');
  });

  it('takes workspace_version on every workspace tool, limited to the versions the tools are built for', () => {
    // The specification lists it on eight of the ten; issue 12.5 (2025-09-03 end to end) adds search and the
    // property-limited query, whose requests and answers change with the version too.
    const withIt = tools.filter((t) => Object.hasOwn((t.inputSchema.properties ?? {}) as object, 'workspace_version'));
    expect(withIt.map((t) => t.name).sort()).toEqual(names.filter((n) => n.startsWith('workspace_')).sort());
    for (const t of withIt) {
      expect((t.inputSchema.properties as Record<string, { enum?: string[] }>).workspace_version!.enum).toEqual(connectors.workspace.api.versionHeader!.supported);
    }
  });

  it('names the key a misspelt one inside a parameter meant, at its pointer', () => {
    const found = violations('workspace_database_query', { database_id: DB, sorts: [{ timestamp: 'created_time', direciton: 'ascending' }] });
    expect(found).toContainEqual({ pointer: '/sorts/0/direciton', message: "unknown key 'direciton' in sorts[0]. Did you mean 'direction'?", keyword: 'additionalProperties' });
  });

  it('publishes _parent as read-only and never requires it', () => {
    for (const name of ['workspace_database_insert_row', 'workspace_page_create']) {
      const schema = tool(name).inputSchema as { properties: Record<string, { readOnly?: boolean }>; required?: string[] };
      expect(schema.properties._parent?.readOnly).toBe(true);
      expect(schema.required ?? []).not.toContain('_parent');
    }
  });
});

describe.each(names)('%s', (name) => {
  const input = () => validInput.get(name)!;
  const versioned = !name.startsWith('crm_');

  it('refuses an unknown parameter', () => {
    const found = violations(name, { ...input(), colour: 'blue' });
    expect(found.some((v) => v.message.includes('colour'))).toBe(true);
    // Nothing declared is near 'colour': no guess, but the parameters the tool does take (never a computed one, nor a
    // version parameter: models are not shown those).
    const declared = Object.entries(tool(name).inputSchema.properties as Record<string, { readOnly?: boolean }>)
      .filter(([k, s]) => s.readOnly !== true && !tool(name).versionParameters.includes(k))
      .map(([k]) => k);
    expect(declared.some((k) => k.endsWith('_version'))).toBe(false);
    const known = declared.length > 0 ? `Known parameters: ${declared.join(', ')}` : 'The tool takes no parameters: send {}';
    expect(found.find((v) => v.pointer === '/colour')?.message).toBe(`unknown parameter 'colour'. ${known}`);
  });

  it('names the parameter a camelCase or misspelt one meant, never a computed or version one', () => {
    const properties = tool(name).inputSchema.properties as Record<string, { readOnly?: boolean }>;
    for (const [param, schema] of Object.entries(properties)) {
      if (tool(name).versionParameters.includes(param)) {
        // Models are not shown the version parameters: `schemaVersion` is refused without pointing at `schema_version`.
        const wrong = param.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
        const refused = violations(name, { ...input(), [wrong]: '1' });
        expect(refused.map((v) => v.pointer)).toContain(`/${wrong}`);
        expect(refused.every((v) => !v.message.includes(`'${param}'`) && !v.message.includes(` ${param}`)), JSON.stringify(refused)).toBe(true);
        continue;
      }
      if (schema.readOnly === true) {
        // `_parent` is the host's: `parent` is not told to send it.
        const refused = violations(name, { ...input(), [param.replace(/^_+/, '')]: {} });
        expect(refused.every((v) => !v.message.includes(param)), JSON.stringify(refused)).toBe(true);
        continue;
      }
      const camel = param.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      const misspelt = param.slice(0, -1);
      for (const wrong of new Set([camel, misspelt].filter((w) => w !== param && !Object.hasOwn(properties, w)))) {
        const found = violations(name, { ...input(), [wrong]: input()[param] ?? 1 });
        expect(found).toContainEqual({ pointer: `/${wrong}`, message: `unknown parameter '${wrong}'. Did you mean '${param}'?`, keyword: 'additionalProperties' });
      }
    }
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
