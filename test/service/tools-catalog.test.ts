import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_FORMATS, withoutReadOnly } from '../../runtime/agent/formats/index.js';
import { createClient } from '../../runtime/client/index.js';
import { connectSandboxUser, startWithToken, type Harness } from './harness.js';
import { tools as generatedTools } from '../../generated/tools.gen.js';

let h: Harness;
let token: string;
beforeAll(async () => ({ h, token } = await startWithToken()));
afterAll(async () => h?.close());

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ROOT_COMPOSITION = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'enum'];

describe('GET /api/v1/tools', () => {
  it('lists the whole catalog and filters by connector and query words', async () => {
    const all = (await h.call('GET', '/api/v1/tools', { token })).body.tools;
    expect(all).toHaveLength(generatedTools.length);
    const crm = (await h.call('GET', '/api/v1/tools?connector=crm', { token })).body.tools;
    // The catalog's own CRM tools, never a literal count: a new tool's YAML must not break this test.
    expect(crm.map((t: { name: string }) => t.name).sort()).toEqual(generatedTools.filter((t) => t.connector === 'crm').map((t) => t.name).sort());
    const found = (await h.call('GET', `/api/v1/tools?query=${encodeURIComponent('spreadsheet create')}`, { token })).body.tools;
    // Ranked, best first (runtime/agent/search.ts; its own test holds the table of queries).
    expect(found[0].name).toBe('sheets_create_spreadsheet');
    const meeting = (await h.call('GET', `/api/v1/tools?query=${encodeURIComponent('schedule a meeting with Ana tomorrow')}`, { token })).body.tools;
    expect(meeting[0].name).toBe('calendar_create_event');
    const onlyCrm = (await h.call('GET', `/api/v1/tools?connector=crm&query=${encodeURIComponent('create')}`, { token })).body.tools;
    expect(onlyCrm.length).toBeGreaterThan(0);
    expect(onlyCrm.every((t: { connector: string }) => t.connector === 'crm')).toBe(true);
  });

  it('resolves a tool by alias', async () => {
    const res = await h.call('GET', '/api/v1/tools/hubspot_contact_create', { token });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('crm_contact_create');
  });

  it('gives OpenAI function definitions with an object schema at the root and no composition there', async () => {
    const tools = (await h.call('GET', '/api/v1/tools?format=openai', { token })).body.tools;
    expect(tools).toHaveLength(generatedTools.length);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['function', 'type']);
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(NAME);
      expect(typeof tool.function.description).toBe('string');
      expect(tool.function.parameters.type).toBe('object');
      expect(typeof tool.function.parameters.properties).toBe('object');
      for (const key of [...ROOT_COMPOSITION, '$schema', '$id']) expect(tool.function.parameters).not.toHaveProperty(key);
    }
  });

  it('gives Anthropic tool definitions with input_schema of type object and no root composition', async () => {
    const tools = (await h.call('GET', '/api/v1/tools?format=anthropic&connector=workspace', { token })).body.tools;
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(generatedTools.filter((t) => t.connector === 'workspace').map((t) => t.name).sort());
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(tool.name).toMatch(NAME);
      expect(tool.input_schema.type).toBe('object');
      for (const key of ROOT_COMPOSITION) expect(tool.input_schema).not.toHaveProperty(key);
    }
    // The root rule (exactly one of database_id / parent_page_id) is gone from the advertised schema, not from the
    // tool: the service still refuses an input that breaks it.
    const page = tools.find((t: { name: string }) => t.name === 'workspace_page_create');
    expect(page.input_schema.properties).toHaveProperty('database_id');
  });

  it('leaves out the properties the service computes (readOnly) from the OpenAI and Anthropic formats, and from required', async () => {
    const names = ['workspace_page_create', 'workspace_database_insert_row'];
    const catalog = (await h.call('GET', '/api/v1/tools?connector=workspace', { token })).body.tools;
    for (const name of names) {
      // The catalog keeps the full input schema, where `_parent` is documented as computed.
      const entry = catalog.find((t: { name: string }) => t.name === name);
      expect(entry.input_schema.properties._parent.readOnly).toBe(true);
    }
    const openai = (await h.call('GET', '/api/v1/tools?format=openai&connector=workspace', { token })).body.tools;
    const anthropic = (await h.call('GET', '/api/v1/tools?format=anthropic&connector=workspace', { token })).body.tools;
    const schemas = [
      ...openai.map((t: { function: { name: string; parameters: unknown } }) => [t.function.name, t.function.parameters]),
      ...anthropic.map((t: { name: string; input_schema: unknown }) => [t.name, t.input_schema]),
    ] as [string, Record<string, unknown>][];
    for (const [name, schema] of schemas) {
      expect(JSON.stringify(schema), name).not.toContain('"readOnly":true');
      expect(JSON.stringify(schema), name).not.toContain('_parent');
    }
    const insert = schemas.find(([name]) => name === 'workspace_database_insert_row')![1];
    expect(insert.required).toEqual(['database_id', 'properties']);
    expect(Object.keys(insert.properties as object)).toEqual(expect.arrayContaining(['database_id', 'properties']));
  });
});

describe('GET /api/v1/tools: formats and filters', () => {
  it('serves every format for every tool, the same as the formats layer', async () => {
    const all = h.connector.tools.list().length;
    for (const format of TOOL_FORMATS) {
      const res = await h.call('GET', `/api/v1/tools?format=${format}`, { token });
      expect(res.status, format).toBe(200);
      expect(res.body.tools, format).toHaveLength(all);
    }
    const gemini = (await h.call('GET', '/api/v1/tools?format=gemini&connector=crm', { token })).body.tools;
    expect(gemini.every((d: { name: string; parameters?: { type: string } }) => d.parameters === undefined || d.parameters.type === 'OBJECT')).toBe(true);
    const one = await h.call('GET', '/api/v1/tools/hubspot_contacts_search?format=openai-responses', { token });
    expect(one.body).toMatchObject({ type: 'function', name: 'crm_contacts_search', strict: true });
    const bad = await h.call('GET', '/api/v1/tools?format=llama', { token });
    expect(bad.status).toBe(400);
  });

  it('read_only keeps the tools declared read-only (a POST search included) or the others', async () => {
    const res = await h.call('GET', '/api/v1/tools?read_only=true', { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reads = res.body.tools;
    const writes = (await h.call('GET', '/api/v1/tools?read_only=false', { token })).body.tools;
    expect(reads.every((t: { annotations: { read_only: boolean } }) => t.annotations.read_only)).toBe(true);
    expect(writes.every((t: { annotations: { read_only: boolean } }) => !t.annotations.read_only)).toBe(true);
    expect(reads.length + writes.length).toBe(h.connector.tools.list().length);
    expect(reads.map((t: { name: string }) => t.name)).toContain('workspace_search');
  });

  it("identifier keeps the tools of the connectors where that user is ACTIVE; the HTTP client's toolDefinitions says the same", async () => {
    await connectSandboxUser(h, { connector: 'calendar', connection: 'cal-formats', identifier: 'formats-user', user: 'formats-user@example.com' });
    const mine = (await h.call('GET', '/api/v1/tools?identifier=formats-user&format=anthropic', { token })).body.tools;
    expect(mine.length).toBe(h.connector.tools.list().filter((t) => t.connector === 'calendar').length);
    expect(mine.every((t: { name: string }) => t.name.startsWith('calendar_'))).toBe(true);
    expect((await h.call('GET', '/api/v1/tools?identifier=nobody-here', { token })).body.tools).toEqual([]);

    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const viaClient = await client.toolDefinitions('openai-strict', { identifier: 'formats-user', read_only: true });
    const names = viaClient.map((d) => (d as { function: { name: string } }).function.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('calendar_') && h.connector.tools.resolve(n)!.annotations.readOnly)).toBe(true);
  });
});

describe('withoutReadOnly', () => {
  it('drops readOnly properties at any depth and from required, leaving data keywords alone', () => {
    const schema = {
      type: 'object',
      required: ['a', 'ro'],
      properties: {
        a: { type: 'string', enum: [{ readOnly: true }] },
        ro: { type: 'string', readOnly: true },
        nested: { type: 'array', items: { type: 'object', required: ['x'], properties: { x: { readOnly: true }, y: { type: 'number' } } } },
      },
    };
    expect(withoutReadOnly(schema)).toEqual({
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: 'string', enum: [{ readOnly: true }] },
        nested: { type: 'array', items: { type: 'object', properties: { y: { type: 'number' } } } },
      },
    });
    // The input is not modified.
    expect(schema.properties).toHaveProperty('ro');
  });
});
