/**
 * Playing the model through each format: for everyday tasks across the five systems, the arguments a model bound by
 * that format's definitions writes (OpenAI strict: every property, null for the ones left out; the closed formats:
 * open maps as {name, value} pairs, free-form objects as JSON text; openai and mcp: the JSON Schema as it is), checked
 * against the schema the model is given, sent back as the docs say an application does (`executeTool` with the
 * arguments as the model wrote them), and the result checked against what the task wanted, on the sandbox.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type FunctionDeclaration, type Part } from '@google/genai';
import { generateText, jsonSchema, modelMessageSchema, tool as aiTool, type JSONValue, type ModelMessage, type ToolModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { formatTool, type ToolFormat } from '../../runtime/agent/formats/index.js';
import { isConnectorError } from '../../runtime/errors.js';
import type { ConnectorName } from '../../runtime/types.js';
import { startHarness, type Harness } from '../runtime/connector-harness.js';
import { geminiAsJsonSchema, withNulls } from './model-schema.js';

type Obj = Record<string, any>;
const FORMATS = ['openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;
type F = (typeof FORMATS)[number];
const closed = (f: F) => f !== 'openai' && f !== 'mcp';
const strict = (f: F) => f === 'openai-strict' || f === 'openai-responses';

function schemaOf(f: F, name: string): Obj {
  const d: any = formatTool(tools.find((t) => t.name === name)!, f as ToolFormat);
  return d.function?.parameters ?? d.parameters ?? d.input_schema ?? d.inputSchema;
}
const pairsJson = (o: Obj) => Object.entries(o).map(([name, value]) => ({ name, value: JSON.stringify(value) }));
const pairsStr = (o: Obj) => Object.entries(o).map(([name, value]) => ({ name, value: value === null ? null : String(value) }));
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const kind of ['workspace', 'calendar', 'crm', 'sheets', 'docs'] as ConnectorName[]) {
    await h.connection(kind, `${kind}-conn`);
    await h.authorize(`${kind}-conn`, 'u');
  }
});
afterAll(() => h.close());

async function call(f: F, name: string, args: Obj): Promise<any> {
  const schema = schemaOf(f, name);
  const sent = strict(f) ? withNulls(schema, args) : args;
  const validate = ajv.compile(f === 'gemini' ? geminiAsJsonSchema(schema) : schema);
  expect(validate(sent), `${f} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  const connector = name.split('_')[0]!;
  const r = await h.env.executeTool({ tool_name: name, connection_name: `${connector}-conn`, identifier: 'u', tool_input: JSON.parse(JSON.stringify(sent)) });
  return r.data;
}

for (const f of FORMATS) {
  describe(f, () => {
    const s: Obj = {};
    const c = closed(f);
    it('calendar: event with attendees and Meet link', async () => {
      const d = await call(f, 'calendar_create_event', { start_datetime: '2026-05-04T10:00:00+02:00', summary: `Sync ${f}`, attendees_emails: ['ana@example.com', 'li@example.com'], create_meeting_room: true, event_duration_hour: 1, timezone: 'Europe/Paris' });
      expect(d.attendees.map((a: Obj) => a.email)).toEqual(['ana@example.com', 'li@example.com']);
      expect(JSON.stringify(d.conferenceData ?? d.hangoutLink)).toContain('meet');
      expect(d.end.dateTime).toMatch(/11:00:00/);
    });
    it('calendar: free/busy', async () => {
      const d = await call(f, 'calendar_free_busy', { time_min: '2026-05-04T00:00:00Z', time_max: '2026-05-05T00:00:00Z' });
      expect(d.calendars.primary.busy.length).toBeGreaterThan(0);
    });
    it('crm: create contact, update props', async () => {
      const made = await call(f, 'crm_contact_create', { email: `p-${f}@example.com`, firstname: 'Pat' });
      s.contact = made.id;
      const props = { jobtitle: 'CTO', lifecyclestage: 'customer', phone: null };
      const d = await call(f, 'crm_contact_update', { contact_id: s.contact, props: c ? pairsStr(props) : props });
      expect(d.properties).toMatchObject({ jobtitle: 'CTO', lifecyclestage: 'customer' });
    });
    it('crm: company update', async () => {
      const made = await call(f, 'crm_company_create', { name: `Acme ${f}`, domain: `acme-${f}.example` });
      s.company = made.id;
      const props = c ? [{ name: 'industry', value: 'COMPUTER_SOFTWARE' }, { name: 'numberofemployees', value: '250' }, { name: 'city', value: 'Lyon' }] : { industry: 'COMPUTER_SOFTWARE', numberofemployees: 250, city: 'Lyon' };
      const d = await call(f, 'crm_company_update', { company_id: s.company, properties: props });
      expect(d.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', numberofemployees: '250', city: 'Lyon' });
    });
    it('crm: deals by stage and amount', async () => {
      const made = await call(f, 'crm_deal_create', { dealname: `Big ${f}`, amount: 5000, dealstage: 'contractsent', pipeline: 'default' });
      s.deal = made.id;
      const filters = [{ propertyName: 'dealstage', operator: 'EQ', value: 'contractsent' }, { propertyName: 'amount', operator: 'GTE', value: '4000' }];
      const fg = c ? [{ filters: filters.map((x) => JSON.stringify(x)) }] : [{ filters }];
      const d = await call(f, 'crm_deals_search', { filterGroups: fg, properties: 'dealname,amount,dealstage', limit: 10 });
      expect(d.results.map((r: Obj) => r.id)).toContain(s.deal);
      for (const r of d.results) { expect(r.properties.dealstage).toBe('contractsent'); expect(Number(r.properties.amount)).toBeGreaterThanOrEqual(4000); }
    });
    it('crm: association and notes on contact', async () => {
      await call(f, 'crm_association_create', { from_object_type: 'deals', from_object_id: s.deal, to_object_type: 'contacts', to_object_id: s.contact });
      await call(f, 'crm_note_create', { note_body: 'Called', timestamp: '2026-05-04T09:00:00Z', contact_ids: [s.contact] });
      const d = await call(f, 'crm_notes_list', { contact_id: s.contact, limit: 5 });
      expect(d.results.map((r: Obj) => r.properties.hs_note_body)).toEqual(['Called']);
    });
    it('workspace: db with multi_select, insert row, mark done, append/read', async () => {
      const search = await call(f, 'workspace_search', { query: 'Getting started' });
      const page = search.results.find((r: Obj) => r.object === 'page').id;
      const schemaProps = { Name: { title: {} }, Status: { select: { options: [{ name: 'Todo' }, { name: 'Done' }] } }, Due: { date: {} }, Done: { checkbox: {} }, Tags: { multi_select: { options: [{ name: 'ops' }, { name: 'web' }] } } };
      const db = await call(f, 'workspace_database_create', { parent: { page_id: page }, title: [{ type: 'text', text: { content: `DB ${f}` } }], properties: c ? pairsJson(schemaProps) : schemaProps });
      const row = { title: { title: [{ text: { content: 'Ship it' } }] }, Status: { select: { name: 'Todo' } }, Due: { date: { start: '2026-03-01' } }, Done: { checkbox: false }, Tags: { multi_select: [{ name: 'ops' }, { name: 'web' }] } };
      const r = await call(f, 'workspace_database_insert_row', { database_id: db.id, properties: c ? pairsJson(row) : row });
      expect(r.properties.Tags.multi_select.map((t: Obj) => t.name)).toEqual(['ops', 'web']);
      expect(r.properties.Due.date.start).toBe('2026-03-01');
      const upd = { Status: { select: { name: 'Done' } }, Done: { checkbox: true }, Due: { date: null } };
      const u = await call(f, 'workspace_page_update', { page_id: r.id, properties: c ? pairsJson(upd) : upd });
      expect(u.properties.Status.select.name).toBe('Done');
      expect(u.properties.Done.checkbox).toBe(true);
      expect(u.properties.Due.date).toBeNull();
      expect(u.in_trash ?? u.archived).toBe(false);
      const blocks = [{ type: 'to_do', to_do: { rich_text: [{ text: { content: 'Follow up' } }], checked: false } }];
      await call(f, 'workspace_page_append', { block_id: r.id, child_blocks: c ? blocks.map((b) => JSON.stringify(b)) : blocks });
      const read = await call(f, 'workspace_page_read', { block_id: r.id, page_size: 10 });
      expect(read.results.map((b: Obj) => b.type)).toEqual(['to_do']);
    });
    it('sheets: append, add sheet, clear', async () => {
      const sh = await call(f, 'sheets_create_spreadsheet', { title: `S ${f}` });
      s.sheet = sh.spreadsheetId;
      await call(f, 'sheets_update_values', { spreadsheet_id: s.sheet, range: 'Sheet1!A1:C1', values: [['Date', 'Item', 'Qty']] });
      const a = await call(f, 'sheets_append_values', { spreadsheet_id: s.sheet, range: 'Sheet1', values: [['2026-03-01', 'Anvil', 2], ['2026-03-02', 'Rope', null]] });
      expect(a.updates.updatedRange).toBe('Sheet1!A2:C3');
      const add = await call(f, 'sheets_add_sheet', { spreadsheet_id: s.sheet, title: 'Week 48' });
      expect(add.replies[0].addSheet.properties).toMatchObject({ title: 'Week 48', index: 1 });
      const cl = await call(f, 'sheets_clear_values', { spreadsheet_id: s.sheet, ranges: ['Sheet1!A2:C'] });
      expect(cl.clearedRanges).toEqual(['Sheet1!A2:C1000']);
      const g = await call(f, 'sheets_get_values', { spreadsheet_id: s.sheet, range: 'Sheet1' });
      expect(g.values).toEqual([['Date', 'Item', 'Qty']]);
    });
    it('sheets: a spreadsheet with a named, sized tab; workspace: rows sorted', async () => {
      const grid = { rowCount: 20, columnCount: 4 };
      const made = await call(f, 'sheets_create_spreadsheet', { title: `Plan ${f}`, sheets: [{ properties: { title: 'Data', gridProperties: c ? JSON.stringify(grid) : grid } }] });
      expect(made.sheets.map((x: Obj) => x.properties)).toMatchObject([{ title: 'Data', gridProperties: grid }]);
      const search = await call(f, 'workspace_search', { query: 'Tasks' });
      const db = search.results.find((r: Obj) => r.object === 'database').id;
      const q = await call(f, 'workspace_database_query', { database_id: db, sorts: [{ property: 'Priority', direction: 'descending' }], page_size: 2 });
      expect(q.results.map((r: Obj) => r.properties.Priority.number)).toEqual([3, 2]);
    });
    it('docs: create and insert table', async () => {
      const doc = await call(f, 'docs_create_document', { title: `Doc ${f}` });
      const reqs = [{ insertTable: { rows: 2, columns: 3, endOfSegmentLocation: {} } }];
      await call(f, 'docs_update_document', { document_id: doc.documentId, requests: c ? reqs.map((r) => JSON.stringify(r)) : reqs });
      const rd = await call(f, 'docs_read_document', { document_id: doc.documentId });
      expect(JSON.stringify(rd.body)).toContain('"table"');
    });
  });
}

describe('a filter group of crm_deals_search', () => {
  // HubSpot takes no filter group without its filters, and the service refuses one. The schema left filters optional,
  // so OpenAI strict mode offered null for it (type ["array", "null"]) and Gemini let the model leave it out.
  it.each(['openai-strict', 'openai-responses', 'anthropic', 'gemini'] as const)('%s: filters is required and not null', (f) => {
    const groups = schemaOf(f, 'crm_deals_search').properties.filterGroups.anyOf.find((b: Obj) => String(b.type).toLowerCase() === 'array');
    expect(groups.items.required).toContain('filters');
    const filters = groups.items.properties.filters;
    expect([filters.type].flat()).not.toContain('null');
    expect(filters.nullable).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Everyday tasks of several steps, played as a model plays them through each API's own SDK: the application sends
// the format's definitions with the SDK, a local server stands in for the API and answers as a model would (a tool
// call whose arguments it writes from the tool results it has read in the request), the application runs each call
// with `executeTool` and hands the result back as that API's tool-result message, built with the SDK's own types:
// a Chat Completions `tool` message, a Responses `function_call_output`, an Anthropic `tool_result` block (with
// `is_error` for a failure), a Gemini `functionResponse` (its `response` an object: `{output}` or `{error}`), an AI
// SDK `tool-result` part (`json` or `error-json`, checked by the SDK's own `modelMessageSchema`). What the model
// reads back is taken from the request the SDK sent, not from the application's memory, so a result the API would
// not carry to the model, or carry without the call's id, fails here. Nothing leaves localhost.

/** One tool result as the model reads it in the request: the call it answers, whether the API marks it failed, its value. */
interface Seen { id: string; name: string; error: boolean; value: Obj }
interface Call { name: string; args: Obj }
/** A model's plan: the next call given every tool result read so far, or undefined to answer in text. */
type Script = (seen: Seen[]) => Call | undefined;

const TASK = 'Do the task.';
let fake: Server;
let fakeUrl: string;
/** The Responses API's stored responses: what the model had read by each, and the calls it made in it. */
const responses = new Map<string, { seen: Seen[]; calls: string[] }>();
/** The model now playing: the format and its script; what it read on its last turn. */
let model: { f: F; script: Script; seen: Seen[]; issued: Map<string, string>; turns: number } | undefined;

/** What the application does with one call of the model: run it, and the text of the result or of the error body. */
async function runCall(name: string, input: Obj): Promise<{ error: boolean; data: Obj }> {
  const connector = name.split('_')[0]!;
  try {
    const r = await h.env.executeTool({ tool_name: name, connection_name: `${connector}-conn`, identifier: 'u', tool_input: input });
    return { error: false, data: r.data as Obj };
  } catch (e) {
    if (!isConnectorError(e)) throw e;
    return { error: true, data: { error: e.toJSON() } };
  }
}

/** The model's next call in the API's wire shape, its arguments written as the format has the model write them. */
function nextCall(seen: Seen[]): (Call & { id: string }) | undefined {
  const m = model!;
  // Every call is answered before the model's next turn (each API refuses a turn that leaves one unanswered).
  expect(seen.map((x) => x.id), `${m.f}: the results the model reads`).toEqual([...m.issued.keys()]);
  m.seen = seen;
  if (++m.turns > 12) throw new Error(`${m.f}: the script did not end`);
  const call = m.script(seen);
  if (!call) return undefined;
  const schema = schemaOf(m.f, call.name);
  const args = (strict(m.f) ? withNulls(schema, call.args) : call.args) as Obj;
  const validate = ajv.compile(m.f === 'gemini' ? geminiAsJsonSchema(schema) : schema);
  expect(validate(args), `${m.f} ${call.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  const id = `call_${m.issued.size + 1}`;
  m.issued.set(id, call.name);
  return { ...call, args, id };
}

/** A tool result read from a request: it must answer a call the model made, by that call's id and tool. */
function seenOf(id: string, name: string | undefined, error: boolean, value: unknown): Seen {
  const issued = model!.issued.get(id);
  expect(issued, `${model!.f}: a tool result for ${id}, which the model never issued`).toBeDefined();
  if (name !== undefined) expect(name).toBe(issued);
  expect(isObj(value), `${model!.f}: the result of ${issued} must reach the model as an object, got ${JSON.stringify(value)}`).toBe(true);
  return { id, name: issued!, error, value: value as Obj };
}
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The fake API: reads the tool results out of the request as the model would, answers with the script's next call. */
function answer(url: string, body: Obj): Obj {
  if (url.endsWith('/chat/completions')) {
    const seen = (body.messages as Obj[]).filter((m) => m.role === 'tool').map((m) => seenOf(m.tool_call_id, undefined, false, JSON.parse(m.content)));
    const c = nextCall(seen);
    const message = c ? { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }] } : { role: 'assistant', content: 'Done.', refusal: null };
    return { id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'gpt-test', choices: [{ index: 0, logprobs: null, finish_reason: c ? 'tool_calls' : 'stop', message }] };
  }
  if (url.endsWith('/responses')) {
    // The API holds the conversation: a request names the response it goes on from, and answers that response's calls.
    const before = body.previous_response_id === undefined ? { seen: [], calls: [] } : responses.get(body.previous_response_id);
    expect(before, `previous_response_id ${body.previous_response_id} names no response`).toBeDefined();
    const outputs = (typeof body.input === 'string' ? [] : (body.input as Obj[])).filter((i) => i.type === 'function_call_output');
    expect(outputs.map((i) => i.call_id), 'the calls of the previous response, each answered').toEqual(before!.calls);
    const seen = [...before!.seen, ...outputs.map((i) => seenOf(i.call_id, undefined, false, JSON.parse(i.output)))];
    const c = nextCall(seen);
    const id = `resp_${responses.size + 1}`;
    responses.set(id, { seen, calls: c ? [c.id] : [] });
    const output = c
      ? [{ type: 'function_call', id: `fc_${c.id}`, call_id: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' }]
      : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }];
    return { id, object: 'response', created_at: 0, model: 'gpt-test', status: 'completed', output, error: null, incomplete_details: null, instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, top_p: 1, tool_choice: 'auto', tools: [] };
  }
  if (url.endsWith('/v1/messages')) {
    const blocks = (body.messages as Obj[]).filter((m) => m.role === 'user' && Array.isArray(m.content)).flatMap((m) => m.content as Obj[]);
    const seen = blocks.filter((b) => b.type === 'tool_result').map((b) => seenOf(b.tool_use_id, undefined, b.is_error === true, JSON.parse(b.content)));
    const c = nextCall(seen);
    const content = c ? [{ type: 'tool_use', id: c.id, name: c.name, input: c.args }] : [{ type: 'text', text: 'Done.' }];
    return { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: c ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
  }
  if (url.includes(':generateContent')) {
    const parts = (body.contents as Obj[]).filter((m) => m.role === 'user').flatMap((m) => m.parts as Obj[]);
    const seen = parts.filter((p) => p.functionResponse).map(({ functionResponse: r }) => {
      expect(Object.keys(r.response), 'a Gemini functionResponse.response is {output} or {error}').toHaveLength(1);
      return seenOf(r.id, r.name, 'error' in r.response, r.response.output ?? r.response);
    });
    const c = nextCall(seen);
    const part = c ? { functionCall: { id: c.id, name: c.name, args: c.args } } : { text: 'Done.' };
    return { candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [part] } }] };
  }
  throw new Error(`unexpected request ${url}`);
}

beforeAll(async () => {
  fake = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      let status = 200;
      let out: Obj;
      try {
        out = answer(req.url ?? '', JSON.parse(text));
      } catch (e) {
        status = 500;
        out = { error: { message: e instanceof Error ? e.message : String(e), type: 'test_failure', code: 500, status: 'INTERNAL' } };
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => fake.close(r)));

/** Chat Completions (openai, openai-strict): the assistant message back into `messages`, then one `tool` message per call. */
async function chatLoop(f: 'openai' | 'openai-strict'): Promise<void> {
  const openai = new OpenAI({ apiKey: 'test', baseURL: fakeUrl, maxRetries: 0 });
  const defs: OpenAI.Chat.Completions.ChatCompletionTool[] = tools.map((t) => formatTool(t, f));
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: TASK }];
  for (;;) {
    const reply = (await openai.chat.completions.create({ model: 'gpt-test', messages, tools: defs, ...(f === 'openai-strict' ? { parallel_tool_calls: false } : {}) })).choices[0]!.message;
    messages.push(reply);
    if (!reply.tool_calls?.length) return;
    for (const call of reply.tool_calls) {
      if (call.type !== 'function') continue;
      const { data } = await runCall(call.function.name, JSON.parse(call.function.arguments));
      const result: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = { role: 'tool', tool_call_id: call.id, content: JSON.stringify(data) };
      messages.push(result);
    }
  }
}

/** The Responses API: the `function_call_output` of each call, going on from the response that made them (as docs/agents.md shows). */
async function responsesLoop(): Promise<void> {
  const openai = new OpenAI({ apiKey: 'test', baseURL: fakeUrl, maxRetries: 0 });
  const defs: OpenAI.Responses.FunctionTool[] = tools.map((t) => formatTool(t, 'openai-responses'));
  let res = await openai.responses.create({ model: 'gpt-test', input: TASK, tools: defs, parallel_tool_calls: false });
  for (;;) {
    const calls = res.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return;
    const outputs: OpenAI.Responses.ResponseInputItem[] = [];
    for (const call of calls) {
      const { data } = await runCall(call.name, JSON.parse(call.arguments));
      outputs.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(data) });
    }
    res = await openai.responses.create({ model: 'gpt-test', previous_response_id: res.id, input: outputs, tools: defs, parallel_tool_calls: false });
  }
}

/** Anthropic: the assistant content back, then one user turn of `tool_result` blocks, `is_error` on a failure. */
async function anthropicLoop(): Promise<void> {
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: fakeUrl, maxRetries: 0 });
  const defs: Anthropic.Tool[] = tools.map((t) => formatTool(t, 'anthropic'));
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
  for (;;) {
    const msg = await anthropic.messages.create({ model: 'claude-test', max_tokens: 1024, messages, tools: defs });
    messages.push({ role: 'assistant', content: msg.content });
    const uses = msg.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) return;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) {
      const { error, data } = await runCall(use.name, use.input as Obj);
      results.push({ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(data), is_error: error });
    }
    messages.push({ role: 'user', content: results });
  }
}

/** Gemini: the model's content back, then one user turn of `functionResponse` parts, `response` as `{output}` or `{error}`. */
async function geminiLoop(): Promise<void> {
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: fakeUrl } });
  const functionDeclarations: FunctionDeclaration[] = tools.map((t) => formatTool(t, 'gemini'));
  const contents: Content[] = [{ role: 'user', parts: [{ text: TASK }] }];
  for (;;) {
    const res = await ai.models.generateContent({ model: 'gemini-test', contents, config: { tools: [{ functionDeclarations }] } });
    const calls = res.functionCalls ?? [];
    if (calls.length === 0) return;
    contents.push(res.candidates![0]!.content!);
    const parts: Part[] = [];
    for (const call of calls) {
      const { error, data } = await runCall(call.name!, call.args ?? {});
      parts.push({ functionResponse: { id: call.id, name: call.name, response: error ? data : { output: data } } });
    }
    contents.push({ role: 'user', parts });
  }
}

/** The AI SDK (mcp: the JSON Schema as it is): a `tool` message of `tool-result` parts, `json` or `error-json`. */
async function aiSdkLoop(): Promise<void> {
  const defs = Object.fromEntries(tools.map((t) => [t.name, aiTool({ description: formatTool(t, 'mcp').description, inputSchema: jsonSchema(formatTool(t, 'mcp').inputSchema) })]));
  const llm = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const seen = options.prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).flatMap((p) => {
        if (p.type !== 'tool-result') return [];
        expect(['json', 'error-json']).toContain(p.output.type);
        return [seenOf(p.toolCallId, p.toolName, p.output.type === 'error-json', (p.output as { value: unknown }).value)];
      });
      const c = nextCall(seen);
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
      return c
        ? { content: [{ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.args) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
    },
  });
  const messages: ModelMessage[] = [{ role: 'user', content: TASK }];
  for (;;) {
    const res = await generateText({ model: llm, tools: defs, messages });
    if (res.toolCalls.length === 0) return;
    messages.push(...res.response.messages);
    for (const call of res.toolCalls) {
      const { error, data } = await runCall(call.toolName, call.input as Obj);
      const result: ToolModelMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: error ? { type: 'error-json', value: data as JSONValue } : { type: 'json', value: data as JSONValue } }] };
      modelMessageSchema.parse(result);
      messages.push(result);
    }
  }
}

/** Plays `script` in format `f` through its SDK; what the model read on its last turn. */
async function play(f: F, script: Script): Promise<Seen[]> {
  model = { f, script, seen: [], issued: new Map(), turns: 0 };
  if (f === 'openai' || f === 'openai-strict') await chatLoop(f);
  else if (f === 'openai-responses') await responsesLoop();
  else if (f === 'anthropic') await anthropicLoop();
  else if (f === 'gemini') await geminiLoop();
  else await aiSdkLoop();
  return model.seen;
}

/** Whether the API marks a failed tool result (Anthropic `is_error`, Gemini's `error` key, the AI SDK's `error-json`); OpenAI's carry only the text. */
const marksErrors = (f: F) => f === 'anthropic' || f === 'gemini' || f === 'mcp';

for (const f of FORMATS) {
  describe(`${f}: everyday tasks through the SDK, each result fed back as the tool-result message`, () => {
    const c = closed(f);

    it('find the contact by email, then add a note to it', async () => {
      const email = `lee-${f}@example.com`;
      expect((await runCall('crm_contact_create', { email, firstname: 'Lee' })).error).toBe(false);
      const filter = { propertyName: 'email', operator: 'EQ', value: email };
      const seen = await play(f, (s) => {
        if (s.length === 0) return { name: 'crm_contacts_search', args: { filterGroups: [c ? JSON.stringify({ filters: [filter] }) : { filters: [filter] }], properties: 'email,firstname' } };
        const id = s[0]!.value.results[0].id;
        if (s.length === 1) return { name: 'crm_note_create', args: { note_body: `Asked for a quote (${f})`, timestamp: '2026-06-01T09:00:00Z', contact_ids: [id] } };
        if (s.length === 2) return { name: 'crm_notes_list', args: { contact_id: id, limit: 5 } };
        return undefined;
      });
      expect(seen.map((x) => [x.name, x.error])).toEqual([['crm_contacts_search', false], ['crm_note_create', false], ['crm_notes_list', false]]);
      expect(seen[0]!.value.results.map((r: Obj) => r.properties.email)).toEqual([email]);
      expect(seen[2]!.value.results.map((r: Obj) => r.properties.hs_note_body)).toEqual([`Asked for a quote (${f})`]);
    });

    it('read a sheet range, then append a row computed from it', async () => {
      const made = await runCall('sheets_create_spreadsheet', { title: `Orders ${f}` });
      const id = made.data.spreadsheetId as string;
      await runCall('sheets_update_values', { spreadsheet_id: id, range: 'Sheet1!A1:C3', values: [['Date', 'Item', 'Qty'], ['2026-06-01', 'Anvil', 2], ['2026-06-02', 'Rope', 5]] });
      const seen = await play(f, (s) => {
        if (s.length === 0) return { name: 'sheets_get_values', args: { spreadsheet_id: id, range: 'Sheet1!A1:C10' } };
        if (s.length === 1) {
          const total = (s[0]!.value.values as string[][]).slice(1).reduce((n, row) => n + Number(row[2]), 0);
          return { name: 'sheets_append_values', args: { spreadsheet_id: id, range: 'Sheet1', values: [['2026-06-03', 'Total', total]] } };
        }
        if (s.length === 2) return { name: 'sheets_get_values', args: { spreadsheet_id: id, range: 'Sheet1' } };
        return undefined;
      });
      expect(seen.map((x) => x.error)).toEqual([false, false, false]);
      expect(seen[1]!.value.updates.updatedRange).toBe('Sheet1!A4:C4');
      expect(seen[2]!.value.values.at(-1)).toEqual(['2026-06-03', 'Total', '7']);
    });

    it("list this week's events, then delete one (after a wrong id the model reads the error and corrects it)", async () => {
      for (const [summary, hour] of [[`Dentist ${f}`, '09'], [`Standup ${f}`, '10']] as const) {
        expect((await runCall('calendar_create_event', { summary, start_datetime: `2026-06-09T${hour}:00:00+00:00`, event_duration_hour: 1 })).error).toBe(false);
      }
      const week = { time_min: '2026-06-08T00:00:00Z', time_max: '2026-06-15T00:00:00Z', single_events: true, order_by: 'startTime' };
      const mine = (v: Obj) => (v.items as Obj[]).filter((e) => String(e.summary).endsWith(` ${f}`)).map((e) => e.summary);
      const seen = await play(f, (s) => {
        if (s.length === 0) return { name: 'calendar_list_events', args: week };
        if (s.length === 1) return { name: 'calendar_delete_event', args: { event_id: 'dentist' } };
        if (s.length === 2) return { name: 'calendar_delete_event', args: { event_id: (s[0]!.value.items as Obj[]).find((e) => e.summary === `Dentist ${f}`)!.id } };
        if (s.length === 3) return { name: 'calendar_list_events', args: week };
        return undefined;
      });
      expect(mine(seen[0]!.value)).toEqual([`Dentist ${f}`, `Standup ${f}`]);
      expect(seen[1]!.error).toBe(marksErrors(f));
      expect(seen[1]!.value.error).toMatchObject({ code: 'upstream_error', details: { status: 404, hint: expect.stringContaining('calendar_list_events') } });
      expect([seen[2]!.error, seen[2]!.value]).toEqual([false, {}]);
      expect(mine(seen[3]!.value)).toEqual([`Standup ${f}`]);
    });

    it('search Notion for a page, then append a paragraph to it', async () => {
      const text = `Minutes sent (${f})`;
      const paragraph = { type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: text } }] } };
      const seen = await play(f, (s) => {
        const page = s[0]?.value.results.find((r: Obj) => r.object === 'page').id;
        if (s.length === 0) return { name: 'workspace_search', args: { query: 'Getting started' } };
        if (s.length === 1) return { name: 'workspace_page_append', args: { block_id: page, child_blocks: [c ? JSON.stringify(paragraph) : paragraph] } };
        if (s.length === 2) return { name: 'workspace_page_read', args: { block_id: page, page_size: 100 } };
        return undefined;
      });
      expect(seen.map((x) => x.error)).toEqual([false, false, false]);
      expect(seen[1]!.value.results.map((b: Obj) => b.type)).toEqual(['paragraph']);
      const read = (seen[2]!.value.results as Obj[]).find((b) => b.id === seen[1]!.value.results[0].id)!;
      expect(read.paragraph.rich_text.map((r: Obj) => r.plain_text ?? r.text.content).join('')).toBe(text);
    });

    it('create a doc, then insert text into it', async () => {
      const seen = await play(f, (s) => {
        const doc = s[0]?.value.documentId;
        const insert = { insertText: { location: { index: 1 }, text: `Agenda for ${f}\n` } };
        if (s.length === 0) return { name: 'docs_create_document', args: { title: `Agenda ${f}` } };
        if (s.length === 1) return { name: 'docs_update_document', args: { document_id: doc, requests: [c ? JSON.stringify(insert) : insert] } };
        if (s.length === 2) return { name: 'docs_read_document', args: { document_id: doc } };
        return undefined;
      });
      expect(seen.map((x) => [x.name, x.error])).toEqual([['docs_create_document', false], ['docs_update_document', false], ['docs_read_document', false]]);
      expect(seen[0]!.value.title).toBe(`Agenda ${f}`);
      expect(JSON.stringify(seen[2]!.value.body)).toContain(`Agenda for ${f}\\n`);
    });
  });
}
