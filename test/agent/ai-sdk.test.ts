/**
 * The Vercel AI SDK as an application uses it, against the service and the sandbox on real sockets: the typed client
 * mints an MCP session, the SDK's MCP client (`@ai-sdk/mcp`) connects to `/mcp` over Streamable HTTP with the
 * session's URL and token, and the SDK's own agent loop (`generateText` with `stopWhen`) runs the tools. The model is
 * the SDK's mock (`ai/test`), playing a model that reads the tool results the SDK puts into its prompt; nothing
 * beyond localhost is called.
 *
 * What the SDK does with our tools: `tools()` wraps each as a dynamic tool whose input schema is our `inputSchema`
 * (with `additionalProperties: false` forced at the root, as ours already is), sends no validation of its own (the
 * service validates), and hands an `isError` result to the model as an ordinary tool result whose text is our error
 * body; it throws only on protocol errors.
 */
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, type HttpClient } from '../../runtime/index.js';
import { CONNECTOR_NAMES } from '../../runtime/types.js';
import { startHarness, type Harness } from '../service/harness.js';

type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
type ModelAnswer = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type ToolResultPart = Extract<Extract<CallOptions['prompt'][number], { role: 'tool' }>['content'][number], { type: 'tool-result' }>;

const USER = 'alice@example.com';
let h: Harness;
let client: HttpClient;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  h = await startHarness();
  for (const connector of CONNECTOR_NAMES) await h.sandboxConnection(h.a, connector);
  client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
  const { link } = await client.authorizationLink({ connection_name: 'calendar', identifier: 'alice' });
  expect((await consentThroughSandbox(link, { user: USER })).status).toBe(200);
});

afterAll(async () => {
  await Promise.allSettled(open.map((c) => c.close()));
  await h?.close();
});

/** The AI SDK's MCP client on a fresh session for alice, over its own HTTP transport as the README shows. */
async function aiSdkClient(): Promise<MCPClient> {
  const session = await client.createMcpSession({ identifier: 'alice' });
  const mcp = await createMCPClient({ transport: { type: 'http', url: session.url, headers: { Authorization: `Bearer ${session.token}` } } });
  open.push(mcp);
  return mcp;
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

function toolCall(id: string, toolName: string, input: Record<string, unknown>): ModelAnswer {
  return { content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
}

function answer(text: string): ModelAnswer {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
}

/** The tool results the SDK put into the prompt it sent the model, in order. */
function toolResults(options: CallOptions): ToolResultPart[] {
  return options.prompt.flatMap((m) => (m.role === 'tool' ? m.content.filter((p): p is ToolResultPart => p.type === 'tool-result') : []));
}

/** The text of a tool result as the model reads it. */
function textOf(part: ToolResultPart): string {
  if (part.output.type !== 'content') throw new Error(`expected content output, got ${part.output.type}`);
  return part.output.value.map((v) => (v.type === 'text' ? v.text : '')).join('');
}

/** The event as the sandbox holds it, read straight from the fake Calendar API with a token of alice's. */
async function sandboxEvent(id: string): Promise<{ status: number; body: any }> {
  const { accessToken } = h.sandbox.control.issueTokens('google', USER, { scopes: ['https://www.googleapis.com/auth/calendar'] });
  const res = await fetch(`${h.sandbox.url}/calendar/calendar/v3/calendars/primary/events/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: await res.json() };
}

describe('the AI SDK MCP client', () => {
  it('gets every tool of the session, and the model is given each one\'s input schema as we serve it', async () => {
    const session = await client.createMcpSession({ identifier: 'alice' });
    const reference = new Client({ name: 'reference', version: '1' });
    await reference.connect(new StreamableHTTPClientTransport(new URL(session.url), { requestInit: { headers: { authorization: `Bearer ${session.token}` } } }));
    open.push(reference);
    const { tools: served } = await reference.listTools();
    // Every tool of the catalog (the user's connections cover all five systems), whatever the specs hold.
    expect(served.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());

    const mcp = await aiSdkClient();
    const sdkTools = await mcp.tools();
    expect(Object.keys(sdkTools).sort()).toEqual(served.map((t) => t.name).sort());

    const model = new MockLanguageModelV3({ doGenerate: answer('Nothing to do.') });
    await generateText({ model, tools: sdkTools, prompt: 'Hello' });
    const given = model.doGenerateCalls[0]!.tools ?? [];
    expect(given).toHaveLength(served.length);
    for (const tool of served) {
      const definition = given.find((t) => t.name === tool.name);
      expect(definition, tool.name).toEqual({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    }
  });

  it('also runs over the official SDK\'s StreamableHTTPClientTransport', async () => {
    const session = await client.createMcpSession({ identifier: 'alice', connections: ['calendar'] });
    const mcp = await createMCPClient({
      transport: new StreamableHTTPClientTransport(new URL(session.url), { requestInit: { headers: { Authorization: `Bearer ${session.token}` } } }),
    });
    open.push(mcp);
    const calendarTools = tools.filter((t) => t.connector === 'calendar').map((t) => t.name);
    expect(calendarTools.length).toBeGreaterThan(0);
    expect(Object.keys(await mcp.tools()).sort()).toEqual(calendarTools.sort());
  });
});

describe('the AI SDK agent loop', () => {
  const event = { summary: 'Lunch with Ana', start_datetime: '2026-12-01T12:00:00+01:00', event_duration_hour: 1 };

  it('calls a tool, gives the model its result, and ends with the model\'s answer; the event is in the calendar', async () => {
    const mcp = await aiSdkClient();
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const [created] = toolResults(options);
        if (!created) return toolCall('call-1', 'calendar_create_event', event);
        return answer(`Booked: ${JSON.parse(textOf(created)).htmlLink}`);
      },
    });
    const result = await generateText({ model, tools: await mcp.tools(), stopWhen: stepCountIs(5), prompt: 'Schedule lunch with Ana on December 1 at noon' });

    expect(result.steps).toHaveLength(2);
    const [seen] = toolResults(model.doGenerateCalls[1]!);
    expect(seen).toMatchObject({ toolCallId: 'call-1', toolName: 'calendar_create_event' });
    const created = JSON.parse(textOf(seen!));
    expect(created).toMatchObject({ summary: 'Lunch with Ana', status: 'confirmed' });
    expect(result.text).toBe(`Booked: ${created.htmlLink}`);

    const stored = await sandboxEvent(created.id);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: created.id, summary: 'Lunch with Ana', start: { dateTime: '2026-12-01T11:00:00Z' } });
  });

  it('hands the model an invalid call\'s error result saying what to fix; the loop goes on and the model corrects it', async () => {
    const mcp = await aiSdkClient();
    const { start_datetime: _start, event_duration_hour: _hours, ...rest } = event;
    const wrong = { ...rest, startDatetime: event.start_datetime, event_duration_hour: 'one' };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const results = toolResults(options);
        if (results.length === 0) return toolCall('call-1', 'calendar_create_event', wrong);
        if (results.length === 1) return toolCall('call-2', 'calendar_create_event', event);
        return answer('Booked on the second try.');
      },
    });
    const result = await generateText({ model, tools: await mcp.tools(), stopWhen: stepCountIs(5), prompt: 'Schedule lunch with Ana on December 1 at noon' });

    expect(result.steps).toHaveLength(3);
    // An ordinary tool result, not a tool error: the SDK passes the MCP result on and its text carries our error body.
    expect(result.steps[0]!.content.map((p) => p.type)).toEqual(['tool-call', 'tool-result']);
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ isError: true });
    const [refused] = toolResults(model.doGenerateCalls[1]!);
    const { error } = JSON.parse(textOf(refused!));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(
      "Invalid input for calendar_create_event: start_datetime is required (Start of the event, RFC 3339 with the offset of the time zone meant on that date (daylight saving time changes it): 3 pm in Paris on 2026-03-03 is 2026-03-03T15:00:00+01:00; Z is UTC. A date alone (2026-12-04) makes an all-day event); unknown parameter 'startDatetime'. Did you mean 'start_datetime'?; event_duration_hour must be an integer",
    );
    expect(error.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/start_datetime', '/startDatetime', '/event_duration_hour']);

    const [, created] = toolResults(model.doGenerateCalls[2]!);
    const { id } = JSON.parse(textOf(created!));
    expect((await sandboxEvent(id)).body.summary).toBe('Lunch with Ana');
    expect(result.text).toBe('Booked on the second try.');
  });
});
