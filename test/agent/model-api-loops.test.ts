/**
 * docs/agents.md followed as an application developer follows it: the page's own code, run as it is written (its
 * `run()` and each API's loop, taken from the page's code blocks and stripped of their types by TypeScript), against
 * the service over HTTP through the typed client (`toolDefinitions(format, { identifier })`, `executeTool`), with each
 * model API's own SDK; the one change is that the SDK's `new OpenAI()` (`Anthropic`, `GoogleGenAI`) is given the
 * address of a local server instead of the API's. The local server plays the model and checks each request as the API
 * does before a model reads it:
 *
 * - Chat Completions: an assistant message with `tool_calls` is followed at once by one `tool` message per call,
 *   answering it by `tool_call_id`, its content text ("An assistant message with 'tool_calls' must be followed by
 *   tool messages responding to each 'tool_call_id'"; a `tool` message answers a preceding `tool_calls`).
 * - Responses: `previous_response_id` names a stored response, and the request's `function_call_output` items answer
 *   every `function_call` of it by `call_id` ("No tool output found for function call ..."), `output` being text.
 * - Anthropic Messages: roles alternate from a user turn; the user turn after an assistant turn with `tool_use`
 *   blocks starts with one `tool_result` per block, by `tool_use_id` ("tool_use ids were found without tool_result
 *   blocks immediately after"), `content` text or text blocks, `is_error` a boolean.
 * - Gemini: after a `model` content with `functionCall` parts comes a `user` content with as many `functionResponse`
 *   parts, by name (and id when the call had one), each `response` an object (a protobuf Struct).
 * - Every API: the tools' names (pattern, unique), an object schema at the root, a call only to a tool it was given,
 *   with arguments its schema admits; `parallel_tool_calls: false` means one call a turn.
 *
 * The model makes a realistic wrong call (a start time in words), reads the error result, corrects it, runs into an
 * upstream refusal with a hint, and follows the hint: what the model reads of each error is what it needs to fix its
 * input (the code, the violation's message and JSON pointer, the hint). Nothing leaves localhost.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Anthropic, { type ClientOptions as AnthropicOptions } from '@anthropic-ai/sdk';
import { GoogleGenAI, type GoogleGenAIOptions } from '@google/genai';
import { RunContext, tool as agentsTool, type FunctionTool } from '@openai/agents-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI, { type ClientOptions as OpenAiOptions } from 'openai';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as catalog } from '../../generated/tools.gen.js';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, isConnectorError, type HttpClient } from '../../runtime/index.js';
import { startHarness, type Harness } from '../service/harness.js';
import { geminiAsJsonSchema, withNulls } from './model-schema.js';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

let h: Harness;
let client: HttpClient;
let fake: Server;
let fakeUrl: string;

// ---------------------------------------------------------------------------------------------------------------
// The model: a script of calls, each turn given the tool results it read in the request.

type Api = 'chat' | 'responses' | 'anthropic' | 'gemini';
/** One tool result as the model reads it: the API's failure mark where it has one, and the value. */
interface Result { name: string; failed: boolean | undefined; value: Obj }
interface Call { name: string; args: Obj }
interface Model { api: Api; strict: boolean; script: (read: Result[][]) => Call[]; read: Result[][]; issued: Map<string, string> }
let model: Model | undefined;

/** The tool the request gave the model under `name`, and the JSON Schema its arguments must meet. */
function schemaIn(api: Api, body: Obj, name: string): Obj {
  const defs: Obj[] = api === 'gemini' ? body.tools?.[0]?.functionDeclarations ?? [] : body.tools ?? [];
  const d = defs.find((t) => (t.function?.name ?? t.name) === name);
  expect(d, `the model calls ${name}, a tool the request did not give it`).toBeDefined();
  if (api === 'gemini') return d!.parameters ? geminiAsJsonSchema(d!.parameters) : { type: 'object', properties: {} };
  return d!.function?.parameters ?? d!.parameters ?? d!.input_schema;
}

/** The request's tool definitions, as every API checks them before anything else. */
function checkTools(api: Api, body: Obj): void {
  const defs: Obj[] = api === 'gemini' ? body.tools?.[0]?.functionDeclarations ?? [] : body.tools ?? [];
  expect(defs.length).toBeGreaterThan(0);
  const names = defs.map((t) => t.function?.name ?? t.name);
  expect(new Set(names).size, 'tool names are unique').toBe(names.length);
  for (const n of names) expect(n).toMatch(api === 'gemini' ? /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/ : NAME);
  for (const t of defs) {
    const schema = t.function?.parameters ?? t.parameters ?? t.input_schema;
    if (api === 'gemini' && schema === undefined) continue;
    expect(String(schema.type).toLowerCase(), `${t.name ?? t.function?.name}: an object schema at the root`).toBe('object');
  }
}

/** The model's next calls, each checked against the schema it was given and written as a strict model writes it. */
function nextCalls(body: Obj, read: Result[]): Array<Call & { id: string }> {
  const m = model!;
  m.read.push(read);
  if (m.read.length > 10) throw new Error('the script did not end');
  let calls = m.script(m.read);
  if (body.parallel_tool_calls === false) expect(calls.length, 'parallel_tool_calls: false, one call a turn').toBeLessThanOrEqual(1);
  calls = calls.map((c) => {
    const schema = schemaIn(m.api, body, c.name);
    const args = (m.strict ? withNulls(schema, c.args) : c.args) as Obj;
    const validate = ajv.compile(schema);
    expect(validate(args), `${c.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    return { name: c.name, args };
  });
  return calls.map((c) => {
    const id = `call_${m.issued.size + 1}`;
    m.issued.set(id, c.name);
    return { ...c, id };
  });
}

function parsedObject(text: unknown, what: string): Obj {
  expect(typeof text, `${what} is text`).toBe('string');
  const value = JSON.parse(text as string);
  expect(isObj(value), `${what} is the JSON text of an object`).toBe(true);
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The fake APIs.

const stored = new Map<string, string[]>();   // Responses: each response's call ids

function chat(body: Obj): Obj {
  checkTools('chat', body);
  const messages = body.messages as Obj[];
  let read: Result[] = [];
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      const before = messages.slice(0, i).reverse().find((x) => x.role !== 'tool');
      expect(before?.tool_calls?.map((c: Obj) => c.id) ?? [], 'a tool message answers a call of the assistant message before it').toContain(m.tool_call_id);
    }
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answers = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    expect(answers.map((a) => a.role), 'an assistant message with tool_calls is followed by a tool message per call').toEqual(m.tool_calls.map(() => 'tool'));
    expect(answers.map((a) => a.tool_call_id).sort()).toEqual(m.tool_calls.map((c: Obj) => c.id).sort());
    read = answers.map((a) => ({ name: model!.issued.get(a.tool_call_id)!, failed: undefined, value: parsedObject(a.content, 'a tool message content') }));
  }
  const calls = nextCalls(body, read);
  const message = calls.length
    ? { role: 'assistant', content: null, refusal: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) }
    : { role: 'assistant', content: 'Done.', refusal: null };
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, logprobs: null, finish_reason: calls.length ? 'tool_calls' : 'stop', message }] };
}

function responses(body: Obj): Obj {
  checkTools('responses', body);
  let read: Result[] = [];
  if (body.previous_response_id !== undefined) {
    const calls = stored.get(body.previous_response_id);
    expect(calls, `previous_response_id ${body.previous_response_id} names no stored response`).toBeDefined();
    const outputs = (Array.isArray(body.input) ? (body.input as Obj[]) : []).filter((x) => x.type === 'function_call_output');
    expect(outputs.map((o) => o.call_id).sort(), 'every function_call of the previous response has its function_call_output').toEqual([...calls!].sort());
    read = outputs.map((o) => ({ name: model!.issued.get(o.call_id)!, failed: undefined, value: parsedObject(o.output, 'a function_call_output output') }));
  }
  const calls = nextCalls(body, read);
  const id = `resp_${stored.size + 1}`;
  stored.set(id, calls.map((c) => c.id));
  const output = calls.length
    ? calls.map((c) => ({ type: 'function_call', id: `fc_${c.id}`, call_id: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' }))
    : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }];
  return { id, object: 'response', created_at: 0, model: body.model, status: 'completed', output, error: null, incomplete_details: null, instructions: null, metadata: {}, parallel_tool_calls: body.parallel_tool_calls ?? true, temperature: 1, top_p: 1, tool_choice: 'auto', tools: body.tools };
}

function anthropic(body: Obj): Obj {
  checkTools('anthropic', body);
  expect(typeof body.max_tokens).toBe('number');
  const messages = body.messages as Obj[];
  expect(messages.map((m) => m.role), 'roles alternate from a user turn').toEqual(messages.map((_, i) => (i % 2 === 0 ? 'user' : 'assistant')));
  let read: Result[] = [];
  for (const [i, m] of messages.entries()) {
    const blocks: Obj[] = Array.isArray(m.content) ? m.content : [];
    if (m.role !== 'assistant') continue;
    const uses = blocks.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) continue;
    const next: Obj[] = Array.isArray(messages[i + 1]?.content) ? messages[i + 1]!.content : [];
    const results = next.slice(0, uses.length);
    expect(results.map((b) => b.type), 'the next user turn starts with a tool_result per tool_use').toEqual(uses.map(() => 'tool_result'));
    expect(next.slice(uses.length).filter((b) => b.type === 'tool_result'), 'no other tool_result').toEqual([]);
    expect(results.map((b) => b.tool_use_id).sort()).toEqual(uses.map((u) => u.id).sort());
    read = results.map((b) => {
      if (b.is_error !== undefined) expect(typeof b.is_error).toBe('boolean');
      const text = typeof b.content === 'string' ? b.content : (b.content as Obj[]).map((c) => { expect(c.type).toBe('text'); return c.text; }).join('');
      return { name: model!.issued.get(b.tool_use_id)!, failed: b.is_error === true, value: parsedObject(text, 'a tool_result content') };
    });
  }
  const calls = nextCalls(body, read);
  const content = calls.length ? calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })) : [{ type: 'text', text: 'Done.' }];
  return { id: `msg_${model!.read.length}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
}

function gemini(body: Obj): Obj {
  checkTools('gemini', body);
  const contents = body.contents as Obj[];
  for (const c of contents) expect(['user', 'model']).toContain(c.role);
  let read: Result[] = [];
  for (const [i, c] of contents.entries()) {
    const calls = (c.parts as Obj[]).filter((p) => p.functionCall).map((p) => p.functionCall);
    if (c.role !== 'model' || calls.length === 0) continue;
    const next = contents[i + 1];
    expect(next?.role, 'the turn after function calls is the user\'s').toBe('user');
    const responses = (next!.parts as Obj[]).map((p) => p.functionResponse);
    expect(responses.every(Boolean) && responses.length, 'as many functionResponse parts as functionCall parts').toBe(calls.length);
    read = responses.map((r, k) => {
      const call = calls.find((x: Obj) => x.id === r.id) ?? calls[k];
      expect(r.name).toBe(call.name);
      if (call.id !== undefined) expect(r.id).toBe(call.id);
      expect(isObj(r.response), 'functionResponse.response is an object').toBe(true);
      return { name: r.name, failed: 'error' in r.response, value: 'output' in r.response ? r.response.output : r.response };
    });
  }
  const calls = nextCalls(body, read);
  const parts = calls.length ? calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })) : [{ text: 'Done.' }];
  return { candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts } }] };
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  h = await startHarness({ sandboxOptions: { providerRateLimits: false } });
  const token = await h.token(h.a);
  for (const connector of ['calendar', 'crm', 'docs', 'sheets', 'workspace'] as const) {
    await h.sandboxConnection(h.a, connector);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connector, identifier: 'user-42' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'user42@example.com' })).status).toBe(200);
  }
  client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
  fake = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = req.url ?? '';
      let status = 200;
      let out: Obj;
      try {
        const body = JSON.parse(text);
        if (url.endsWith('/chat/completions')) out = chat(body);
        else if (url.endsWith('/responses')) out = responses(body);
        else if (url.endsWith('/v1/messages')) out = anthropic(body);
        else if (url.includes(':generateContent')) out = gemini(body);
        else throw new Error(`unexpected request ${url}`);
      } catch (e) {
        // A 400, as the API answers a request it refuses; the SDK throws it, with the reason, and the test fails.
        status = 400;
        out = { error: { message: e instanceof Error ? e.message : String(e), type: 'invalid_request_error', code: 400, status: 'INVALID_ARGUMENT' } };
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => fake.close(r));
  await h?.close();
});

// ---------------------------------------------------------------------------------------------------------------
// The page's code: `run()` and the four loops, from its code blocks, run with what the page leaves to the reader
// (`client`, `userMessage`) and the SDKs it imports, each constructed towards the local server.

const userMessage = 'Book lunch with Ana tomorrow at noon, and drop my dentist appointment.';
const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'agents.md'), 'utf8');
const BLOCKS = [...PAGE.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** The page's code block holding `text`, with `run()`'s block before it, as one function of what they leave open. */
function pageCode(text: string, returns = ''): (client: HttpClient, userMessage: string, deps: Obj) => Promise<any> {
  const block = (t: string) => {
    const found = BLOCKS.filter((b) => b.includes(t));
    expect(found, `one code block of docs/agents.md has ${t}`).toHaveLength(1);
    return found[0]!;
  };
  // The imports name what `deps` gives; the rest is the page's code as it is, its types removed.
  const source = [block('async function run('), block(text)].join('\n').split('\n').filter((l) => !l.startsWith('import ')).join('\n');
  const js = ts.transpileModule(`${source}\n${returns ? `return ${returns};` : ''}\nexport {};`, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText.replace(/^export \{\};$/m, '');
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  const fn = new AsyncFunction('client', 'userMessage', 'isConnectorError', 'OpenAI', 'Anthropic', 'GoogleGenAI', 'tool', js);
  return (c, m, deps) => fn(c, m, isConnectorError, deps.OpenAI, deps.Anthropic, deps.GoogleGenAI, agentsTool);
}

/** The SDKs as the page constructs them (`new OpenAI()`, ...), given the local server's address and no retries. */
function sdks(): Obj {
  const url = fakeUrl;
  return {
    OpenAI: class extends OpenAI { constructor(o: OpenAiOptions = {}) { super({ ...o, apiKey: 'test', baseURL: url, maxRetries: 0 }); } },
    Anthropic: class extends Anthropic { constructor(o: AnthropicOptions = {}) { super({ ...o, apiKey: 'test', baseURL: url, maxRetries: 0 }); } },
    GoogleGenAI: class extends GoogleGenAI { constructor(o: GoogleGenAIOptions = {}) { super({ ...o, apiKey: 'test', httpOptions: { baseUrl: url } }); } },
  };
}

/** Each API: whether its format is strict, the text that finds its loop on the page, whether it marks a failed result. */
const LOOPS: Record<Api, { strict: boolean; loop: string; marksErrors: boolean }> = {
  chat: { strict: true, loop: 'openai.chat.completions.create(', marksErrors: false },
  responses: { strict: true, loop: 'openai.responses.create(', marksErrors: false },
  anthropic: { strict: false, loop: 'anthropic.messages.create(', marksErrors: true },
  gemini: { strict: false, loop: 'ai.models.generateContent(', marksErrors: true },
};

describe('docs/agents.md, followed as written, over HTTP through each model API\'s SDK', () => {
  it('the typed client gives every tool in each format the page names', async () => {
    for (const format of ['openai-strict', 'openai-responses', 'anthropic', 'gemini'] as const) {
      expect((await client.toolDefinitions(format, { identifier: 'user-42' })).length, format).toBe(catalog.length);
    }
  });

  it.each(Object.keys(LOOPS) as Api[])('%s: a wrong call, its error read and fixed; an upstream refusal, its hint followed', async (api) => {
    const { strict, loop, marksErrors } = LOOPS[api];
    await client.executeTool({ tool_name: 'calendar_create_event', identifier: 'user-42', tool_input: { summary: `Dentist (${api})`, start_datetime: '2026-12-02T09:00:00+01:00', event_duration_hour: 1 } });
    const lunch = { summary: `Lunch with Ana (${api})`, start_datetime: '2026-12-02T12:00:00+01:00', event_duration_hour: 1 };
    model = {
      api,
      strict,
      read: [],
      issued: new Map(),
      script: (read) => {
        const last = read.at(-1)!;
        switch (read.length) {
          case 1: return [{ name: 'calendar_create_event', args: { ...lunch, start_datetime: 'tomorrow at noon' } }];
          case 2: return [{ name: 'calendar_create_event', args: lunch }];
          case 3: return [{ name: 'calendar_delete_event', args: { event_id: 'dentist' } }];
          case 4: {
            // Where the request lets it (parallel_tool_calls not false), two calls in one turn, answered together.
            const events = { name: 'calendar_list_events', args: { time_min: '2026-12-02T00:00:00Z', time_max: '2026-12-03T00:00:00Z', single_events: true } };
            return strict ? [events] : [events, { name: 'calendar_list_calendars', args: {} }];
          }
          case 5: return [{ name: 'calendar_delete_event', args: { event_id: (last[0]!.value.items as Obj[]).find((e) => e.summary === `Dentist (${api})`)!.id } }];
          default: return [];
        }
      },
    };
    await pageCode(loop)(client, userMessage, sdks());
    const read = model.read.slice(1).map((turn) => turn[0]!);
    expect(read.map((r) => r.name)).toEqual(['calendar_create_event', 'calendar_create_event', 'calendar_delete_event', 'calendar_list_events', 'calendar_delete_event']);
    expect(model.read[4]!.map((r) => r.name)).toEqual(strict ? ['calendar_list_events'] : ['calendar_list_events', 'calendar_list_calendars']);
    expect(read.map((r) => r.failed)).toEqual(marksErrors ? [true, false, true, false, false] : [undefined, undefined, undefined, undefined, undefined]);

    // The wrong start: the code, and the violation with its pointer into the arguments and what to send instead.
    const refused = read[0]!.value.error;
    expect(refused).toMatchObject({ code: 'invalid_input', details: { violations: [{ pointer: '/start_datetime', keyword: 'format' }] } });
    expect(refused.details.violations[0].message).toContain('RFC 3339');
    expect(read[1]!.value).toMatchObject({ summary: lunch.summary, status: 'confirmed' });
    // The upstream refusal: its status, and the hint naming the tool that finds the id.
    expect(read[2]!.value.error).toMatchObject({ code: 'upstream_error', details: { status: 404, hint: expect.stringContaining('calendar_list_events') } });
    expect(read[4]!.value).toEqual({});
  });

  it("openai agents: the page's tool() of each definition answers a wrong call with the error body, the violation's pointer in it", async () => {
    const tools: FunctionTool[] = await pageCode('tool({', 'tools')(client, userMessage, {});
    expect(tools.map((t) => t.name).sort()).toEqual(catalog.map((t) => t.name).sort());
    const create = tools.find((t) => t.name === 'calendar_create_event')!;
    expect(create.strict).toBe(true);
    // As the SDK invokes a tool with the model's arguments: the JSON text a strict model writes.
    const args = withNulls(create.parameters as Obj, { summary: 'Lunch (agents)', start_datetime: 'tomorrow at noon', event_duration_hour: 1 });
    const output = await create.invoke(new RunContext(), JSON.stringify(args));
    // The body as execute returned it; the SDK hands the model its JSON text (an object result is JSON.stringify'd).
    expect(output).toMatchObject({ error: { code: 'invalid_input', details: { violations: [{ pointer: '/start_datetime' }] } } });
  });
});
