/**
 * Choosing tools for an agent (connector, read_only, the connectors where an identifier is ACTIVE), and running the
 * strict formats' inputs through the real executor: nulls for absent parameters, open maps as {name, value} pairs,
 * free-form values as JSON text, all read back once before validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTool, openAiStrictTool } from '../../runtime/agent/formats/index.js';
import { decodeModelInput, readModelInput } from '../../runtime/agent/model-input.js';
import { selectTools, toolDefinitions } from '../../runtime/agent/tool-definitions.js';
import { startHarness, type Harness } from '../runtime/connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('crm', 'crm-conn');
  await h.connection('calendar', 'cal-conn');
  await h.connection('workspace', 'ws-conn');
  await h.authorize('crm-conn', 'ana');
  await h.authorize('cal-conn', 'ana');
  await h.authorize('ws-conn', 'ana');
  await h.authorize('crm-conn', 'li');
});
afterAll(() => h?.close());

describe('toolDefinitions', () => {
  it("with identifier: only the connectors where that user's account is ACTIVE", async () => {
    const names = (defs: unknown[]) => defs.map((d) => (d as { function: { name: string } }).function.name);
    const all = h.connector.tools.list();
    const ana = names(await toolDefinitions('openai-strict', { identifier: 'ana', environment: h.env, tools: all }));
    expect(new Set(ana.map((n) => n.split('_')[0]))).toEqual(new Set(['crm', 'calendar', 'workspace']));
    const li = names(await toolDefinitions('openai-strict', { identifier: 'li', environment: h.env, tools: all }));
    expect(li.length).toBeGreaterThan(0);
    expect(li.every((n) => n.startsWith('crm_'))).toBe(true);
    expect(await toolDefinitions('openai', { identifier: 'nobody', environment: h.env, tools: all })).toEqual([]);

    // A disconnected account no longer counts.
    const [account] = await h.env.listAccounts({ identifier: 'li' });
    await h.env.disconnectAccount(account!.id);
    expect(await toolDefinitions('openai', { identifier: 'li', environment: h.env, tools: all })).toEqual([]);
  });

  it('filters by connector and by the declared read_only annotation, not the HTTP method', async () => {
    const all = h.connector.tools.list();
    const reads = await selectTools(all, { read_only: true });
    const writes = await selectTools(all, { read_only: false });
    expect(reads.length + writes.length).toBe(all.length);
    expect(reads.map((t) => t.name)).toEqual(expect.arrayContaining(['crm_contacts_search', 'workspace_search', 'workspace_database_query']));
    expect(writes.map((t) => t.name)).toEqual(expect.arrayContaining(['calendar_delete_event', 'crm_contact_create']));
    const crmReads = await selectTools(all, { connector: 'crm', read_only: true });
    expect(crmReads.every((t) => t.connector === 'crm' && t.annotations.readOnly)).toBe(true);
    await expect(selectTools(all, { identifier: 'ana' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('the executor reads strict-format inputs back (one code path, before validation)', () => {
  it('crm_contact_update: props as {name, value} pairs, as a strict model sends them, update the contact', async () => {
    const created = await h.env.executeTool({ tool_name: 'crm_contact_create', identifier: 'ana', tool_input: { email: 'pairs@example.com', firstname: 'Old', lastname: null } });
    const id = (created.data as { id: string }).id;
    h.sandbox.control.clearRequests();
    const result = await h.env.executeTool({
      tool_name: 'crm_contact_update',
      identifier: 'ana',
      tool_input: { contact_id: id, props: [{ name: 'firstname', value: 'Ana' }, { name: 'jobtitle', value: 'CTO' }] },
    });
    expect((result.data as { properties: Record<string, string> }).properties).toMatchObject({ firstname: 'Ana', jobtitle: 'CTO' });
    const sent = h.sandbox.control.requests('crm').at(-1)!;
    expect(sent.body).toEqual({ properties: { firstname: 'Ana', jobtitle: 'CTO' } });
  });

  it('calendar_create_event: every optional parameter null (what strict mode sends) means absent', async () => {
    const strict = openAiStrictTool(h.connector.tools.resolve('calendar_create_event')!).function.parameters as { properties: Record<string, unknown> };
    const input: Record<string, unknown> = Object.fromEntries(Object.keys(strict.properties).map((k) => [k, null]));
    Object.assign(input, { start_datetime: '2026-05-04T10:00:00+02:00', summary: 'Strict call' });
    h.sandbox.control.clearRequests();
    const result = await h.env.executeTool({ tool_name: 'calendar_create_event', identifier: 'ana', tool_input: input });
    expect((result.data as { summary: string }).summary).toBe('Strict call');
    const body = h.sandbox.control.requests('calendar').at(-1)!.body as Record<string, unknown>;
    expect(JSON.stringify(body)).not.toContain('null');
    // Default length: 30 minutes, as when the parameters are left out.
    expect(body.end).toMatchObject({ dateTime: '2026-05-04T10:30:00+02:00' });
  });

  it('workspace_page_create: properties as pairs of JSON text and child blocks as JSON text create the page', async () => {
    const search = await h.env.executeTool({ tool_name: 'workspace_search', identifier: 'ana', tool_input: { query: 'Tasks', page_size: null } });
    const db = (search.data as { results: Array<{ object: string; id: string; parent: { page_id: string } }> }).results.find((r) => r.object === 'database')!;
    const retrieved = await h.env.executeTool({ tool_name: 'workspace_database_retrieve', identifier: 'ana', tool_input: { database_id: db.id } });
    const parentPage = (retrieved.data as { parent: { page_id: string } }).parent.page_id;
    const title = { title: [{ text: { content: 'Strict page' } }] };
    const block = { object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'Hello' } }] } };
    h.sandbox.control.clearRequests();
    const result = await h.env.executeTool({
      tool_name: 'workspace_page_create',
      identifier: 'ana',
      tool_input: { parent_page_id: parentPage, database_id: null, properties: [{ name: 'title', value: JSON.stringify(title) }], child_blocks: [JSON.stringify(block)], icon: null, cover: null },
    });
    expect((result.data as { object: string }).object).toBe('page');
    const body = h.sandbox.control.requests('workspace').at(-1)!.body as Record<string, unknown>;
    expect(body.properties).toEqual({ title });
    expect(body.children).toEqual([block]);
  });

  it('what does not read back is refused by the validator at its pointer, with nothing sent', async () => {
    h.sandbox.control.clearRequests();
    const dup = await h.env
      .executeTool({ tool_name: 'crm_contact_update', identifier: 'ana', tool_input: { contact_id: '1', props: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] } })
      .catch((e: unknown) => e);
    // The message says why the pairs were not read as the map, so a model given the pair format can correct them.
    expect(dup).toMatchObject({
      code: 'invalid_input',
      details: { violations: [{ pointer: '/props', keyword: 'type', message: 'props must be an object or a list of {name, value} pairs; "a" is given twice' }] },
    });
    const valueless = await h.env
      .executeTool({ tool_name: 'crm_contact_update', identifier: 'ana', tool_input: { contact_id: '1', props: [{ name: 'a', value: '1' }, { name: 'b' }] } })
      .catch((e: unknown) => e);
    expect(valueless).toMatchObject({
      details: { violations: [{ pointer: '/props', message: 'props must be an object or a list of {name, value} pairs; item 1 needs a string name and a value' }] },
    });
    const badJson = await h.env
      .executeTool({ tool_name: 'workspace_page_create', identifier: 'ana', tool_input: { parent_page_id: '59833787-2cf9-4fdf-8782-e53db20768a5', properties: [{ name: 'title', value: '{not json' }] } })
      .catch((e: unknown) => e);
    // At the pair's value the model wrote, not at the key it was read back to (which its array does not have).
    expect(badJson).toMatchObject({ code: 'invalid_input', details: { violations: [expect.objectContaining({ pointer: '/properties/0/value', message: expect.stringMatching(/^properties\[0\]\.value must be an object: /) })] } });
    expect((badJson as Error).message).toMatch(/^Invalid input for workspace_page_create: properties\[0\]\.value must be an object: /);
    // A required parameter sent as null is not "absent": it is refused as null.
    const required = await h.env.executeTool({ tool_name: 'crm_contact_get', identifier: 'ana', tool_input: { contact_id: null } }).catch((e: unknown) => e);
    expect(required).toMatchObject({ code: 'invalid_input', details: { violations: [expect.objectContaining({ pointer: '/contact_id' })] } });
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });
});

describe('decodeModelInput', () => {
  const schema = {
    type: 'object',
    properties: {
      a: { type: 'string' },
      b: { type: ['string', 'null'] },
      nested: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x'] },
      map: { type: 'object', additionalProperties: { type: 'object' } },
      scalars: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } },
      free: { type: 'object' },
      list: { type: 'array', items: { type: 'object' } },
    },
    required: ['a'],
  };

  it('drops null where it means absent, keeps it where the schema admits null, at every depth', () => {
    expect(decodeModelInput(schema, { a: null, b: null, nested: { x: null, y: null } })).toStrictEqual({ a: null, b: null, nested: { x: null } });
  });

  it('reads pairs back into maps (JSON text values for object maps, as they are for scalar maps) and objects as they are', () => {
    expect(decodeModelInput(schema, { map: [{ name: 'k', value: '{"v":1}' }], scalars: [{ name: 'n', value: '42' }, { name: 'z', value: null }] })).toStrictEqual({
      map: { k: { v: 1 } },
      scalars: { n: '42', z: null },
    });
    expect(decodeModelInput(schema, { map: { k: { v: 1 } } })).toStrictEqual({ map: { k: { v: 1 } } });
  });

  it('parses free-form objects sent as JSON text, in arrays too, and leaves what is not a JSON object', () => {
    expect(decodeModelInput(schema, { free: '{"q":true}', list: ['{"i":0}', { i: 1 }] })).toStrictEqual({ free: { q: true }, list: [{ i: 0 }, { i: 1 }] });
    expect(decodeModelInput(schema, { free: '[1]' })).toStrictEqual({ free: '[1]' });
  });

  // The validator and the pre-checks see the decoded input; a violation goes back to the model said of what it wrote.
  const said = (input: Record<string, unknown>, pointer: string, message: string) => readModelInput(schema, input).modelSide({ pointer, message, keyword: 'type' });

  it("points a violation of a pair's value at that pair's value, and renames it in the message", () => {
    const input = { a: 'x', map: [{ name: 'k', value: '{bad' }, { name: 'j', value: '{"v":1}' }], scalars: [{ name: 'n', value: true }] };
    expect(said(input, '/map/k', 'map.k must be an object: the text is not JSON')).toStrictEqual({ pointer: '/map/0/value', message: 'map[0].value must be an object: the text is not JSON', keyword: 'type' });
    expect(said(input, '/map/j', 'map.j must be an object')).toMatchObject({ pointer: '/map/1/value', message: 'map[1].value must be an object' });
    // A scalar map's value is sent as it is, so a pointer below it goes below the pair's value.
    expect(said(input, '/scalars/n', 'scalars.n must be a string or a number or null')).toMatchObject({ pointer: '/scalars/0/value', message: 'scalars[0].value must be a string or a number or null' });
    // A name no pair has (a required key): the list it goes in, the message as it was.
    expect(said(input, '/map/missing', 'map.missing is required')).toMatchObject({ pointer: '/map', message: 'map.missing is required' });
  });

  it('points a violation inside a value read from JSON text at the text, the message saying where inside it', () => {
    const input = { a: 'x', map: [{ name: 'k', value: '{"v":{"w":"1"}}' }], free: '{"q":1}', list: ['{"i":0}', { i: 1 }] };
    expect(said(input, '/map/k/v/w', 'map.k.v.w must be an integer')).toMatchObject({ pointer: '/map/0/value', message: 'v.w in the JSON text of map[0].value must be an integer' });
    expect(said(input, '/map/k/v', '`k` is a select column; `v` must be an object')).toMatchObject({ pointer: '/map/0/value', message: 'In the JSON text of map[0].value, at v: `k` is a select column; `v` must be an object' });
    expect(said(input, '/free/q', 'free.q: no such key')).toMatchObject({ pointer: '/free', message: 'q in the JSON text of free: no such key' });
    expect(said(input, '/list/0/i', 'list[0].i must be a string')).toMatchObject({ pointer: '/list/0', message: 'i in the JSON text of list[0] must be a string' });
    expect(said(input, '/list/1/i', 'list[1].i must be a string')).toMatchObject({ pointer: '/list/1/i', message: 'list[1].i must be a string' });
    // A whole map sent as the JSON text of its object.
    expect(said({ a: 'x', map: '{"k":{"v":1}}' }, '/map/k/v', 'map.k.v must be a string')).toMatchObject({ pointer: '/map', message: 'k.v in the JSON text of map must be a string' });
  });

  it('keeps every pointer and message of an input sent as objects, and where null was read as absent', () => {
    const input = { a: 'x', b: null, nested: { x: 1, y: null }, map: { k: { v: 1 } }, scalars: { n: 1 }, free: { q: 1 }, list: [{ i: 0 }] };
    for (const pointer of ['', '/a', '/b', '/nested/y', '/map/k/v', '/scalars/n', '/free/q', '/list/0/i', '/map/a~1b']) {
      const violation = { pointer, message: `${pointer} is wrong`, keyword: 'type' };
      expect(readModelInput(schema, input).modelSide(violation)).toStrictEqual(violation);
    }
    // A pair list that is not read back is refused at the list, where the model's own pointers hold.
    expect(said({ a: 'x', map: [{ name: 'k', value: '{}' }, { name: 'k', value: '{}' }] }, '/map/1/value', 'map[1].value is wrong')).toMatchObject({ pointer: '/map/1/value', message: 'map[1].value is wrong' });
  });

  it('leaves the input it was given unchanged', () => {
    const input = { a: 'x', b: null, map: [{ name: 'k', value: '{}' }] };
    const copy = structuredClone(input);
    decodeModelInput(schema, input);
    expect(input).toStrictEqual(copy);
  });
});

it('the anthropic format of a tool with an open map is pairs, like the strict ones', () => {
  const properties = anthropicTool(h.connector.tools.resolve('crm_contact_update')!).input_schema.properties as Record<string, { type: string }>;
  expect(properties.props?.type).toBe('array');
});

it('a tool that takes no parameters is the closed empty object in every format, not a JSON-text string', () => {
  const empty = { type: 'object', properties: {}, additionalProperties: false };
  const tool = { ...h.connector.tools.resolve('crm_contacts_list')!, name: 'crm_nothing_list', inputSchema: empty, versionParameters: [] };
  expect(anthropicTool(tool).input_schema).toStrictEqual(empty);
  // OpenAI strict mode lists every property as required, none here (its own transform adds the empty list too).
  expect(openAiStrictTool(tool).function.parameters).toStrictEqual({ ...empty, required: [] });
  expect(decodeModelInput(tool.inputSchema, {})).toStrictEqual({});
});
