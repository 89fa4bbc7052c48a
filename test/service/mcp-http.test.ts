/**
 * The MCP server over Streamable HTTP (`/mcp`), driven by the official SDK's own `Client`, against the service and
 * the sandbox on real sockets: sessions minted by the application, tools listed and called for one end user, the
 * authorization link when the user is not connected, and everything a session must not reach.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { connectSandboxUser, startHarness, type Harness, type TestEnv } from './harness.js';

let h: Harness;
/** Added to the service's clock, to expire sessions without waiting. */
let clockOffsetMs = 0;
const open: Client[] = [];
/** Every session token minted here, to look for in the logs. */
const minted: string[] = [];
let logText = '';
const logs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logText += chunk.toString('utf8');
    done();
  },
});

beforeAll(async () => {
  h = await startHarness({ now: () => Date.now() + clockOffsetMs, logStream: logs });
  await h.sandboxConnection(h.a, 'calendar', 'cal');
  await h.sandboxConnection(h.a, 'crm', 'crm');
  await h.sandboxConnection(h.b, 'calendar', 'cal');
  await connect(h.a, 'cal', 'alice', 'alice@example.com');
  await connect(h.b, 'cal', 'bob', 'bob@example.com');
});

afterAll(async () => {
  await Promise.allSettled(open.map((c) => c.close()));
  await h?.close();
});

async function connect(env: TestEnv, connection: string, identifier: string, user: string): Promise<void> {
  await connectSandboxUser(h, { env, connection, identifier, user });
}

async function mint(env: TestEnv, body: Record<string, unknown>): Promise<{ id: string; url: string; token: string; expires_at: string }> {
  const res = await h.call('POST', '/api/v1/mcp_sessions', { token: await h.token(env), body });
  if (res.status !== 201) throw new Error(`minting failed: ${res.status} ${JSON.stringify(res.body)}`);
  minted.push(res.body.token);
  return res.body;
}

async function client(token: string): Promise<Client> {
  const c = new Client({ name: 'mcp-http-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await c.connect(transport);
  // The SDK's latest revision is what client and server agree on: 2025-06-18 or later.
  expect(transport.protocolVersion! >= '2025-06-18').toBe(true);
  open.push(c);
  return c;
}

function errorOf(result: CallToolResult): { code: string; message: string; violations?: unknown[]; authorization_url?: string } {
  expect(result.isError).toBe(true);
  const text = (result.content[0] as { text: string }).text;
  return JSON.parse(text).error;
}

describe('minting sessions', () => {
  it('answers {id, url, token, expires_at}; the token is shown once and stored only as a hash', async () => {
    const before = Date.now();
    const session = await mint(h.a, { identifier: 'alice' });
    expect(session.id).toMatch(/^mcps_/);
    expect(session.url).toBe(`${h.url}/mcp`);
    expect(session.token).toMatch(/^acmcp_[\w-]{43}$/);
    const lifetime = Date.parse(session.expires_at) - before;
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3601_000);
    const listed = await h.call('GET', '/api/v1/mcp_sessions?identifier=alice', { token: await h.token(h.a) });
    expect(listed.body.mcp_sessions.map((s: { id: string }) => s.id)).toContain(session.id);
    expect(JSON.stringify(listed.body)).not.toContain(session.token);
    const stored = await h.connector.store.getMcpSession(h.a.environmentId, session.id);
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(session.token);
    // Another environment does not see it.
    const fromB = await h.call('GET', '/api/v1/mcp_sessions', { token: await h.token(h.b) });
    expect(fromB.body.mcp_sessions.map((s: { id: string }) => s.id)).not.toContain(session.id);
  });

  it('refuses unknown connections and tools, and bounds, naming each with its pointer', async () => {
    const token = await h.token(h.a);
    const bad = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { identifier: 'alice', connections: ['cal', 'nope'], tools: ['calendar_list_events', 'no_such_tool', 'docs_read_document'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_input');
    const pointers = bad.body.error.details.violations.map((v: { pointer: string }) => v.pointer);
    expect(pointers).toEqual(['/connections/1', '/tools/1', '/tools/2']);
    const long = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { identifier: 'alice', expires_in: 86401 } });
    expect(long.status).toBe(400);
    // The shape is the route schema's, as on every route (docs/mcp.md says which pass answers which code).
    expect(long.body.error.code).toBe('invalid_request');
    expect(JSON.stringify(long.body.error.details.violations)).toContain('/expires_in');
    const noIdentifier = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { mode: 'tools' } });
    expect(noIdentifier.status).toBe(400);
    const badMode = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { identifier: 'alice', mode: 'all' } });
    expect(badMode.status).toBe(400);
  });
});

describe('tools over /mcp', () => {
  it('lists the tools of the environment\'s connections and calls one for the session\'s user', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const { tools } = await c.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('calendar_create_event');
    expect(names).toContain('crm_contacts_search');
    // No docs, sheets or workspace connection in this environment: none of their tools.
    expect(names.some((n) => /^(docs|sheets|workspace)_/.test(n))).toBe(false);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');

    const listed = (await c.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect(JSON.stringify(listed.structuredContent)).toContain('alice@example.com');
    expect(JSON.parse((listed.content[0] as { text: string }).text)).toEqual(listed.structuredContent);
  });

  it('reports invalid input as an error result with the service\'s code and violations', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const result = (await c.callTool({ name: 'calendar_list_calendars', arguments: { max_results: 'many' } })) as CallToolResult;
    const error = errorOf(result);
    expect(error.code).toBe('invalid_input');
    expect(JSON.stringify(error.violations)).toContain('/max_results');
  });

  it('names the parameter a camelCase one meant, through MCP as over HTTP', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const args = { maxResults: 5, showHidden: true };
    const error = errorOf((await c.callTool({ name: 'calendar_list_calendars', arguments: args })) as CallToolResult);
    expect(error.violations).toEqual([
      { pointer: '/maxResults', message: "unknown parameter 'maxResults'. Did you mean 'max_results'?", keyword: 'additionalProperties' },
      { pointer: '/showHidden', message: "unknown parameter 'showHidden'. Did you mean 'show_hidden'?", keyword: 'additionalProperties' },
    ]);
    const http = await h.call('POST', '/api/v1/execute_tool', { token: await h.token(h.a), body: { tool_name: 'calendar_list_calendars', identifier: 'alice', tool_input: args } });
    expect(http.body.error.details.violations).toEqual(error.violations);
  });

  it('says what a refused date-time gets wrong: an ISO time without its offset, a day not in the calendar', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const error = errorOf((await c.callTool({ name: 'calendar_list_events', arguments: { time_min: '2026-03-02T00:00:00', time_max: '2026-02-30T00:00:00Z' } })) as CallToolResult);
    expect(error.code).toBe('invalid_input');
    expect(error.violations).toEqual([
      { pointer: '/time_max', keyword: 'format', message: expect.stringMatching(/; 2026-02-30 is not a day of the calendar$/) },
      { pointer: '/time_min', keyword: 'format', message: expect.stringMatching(/; it has no offset: add the offset of the time zone it is meant in on that day \(\+01:00\), or Z if it is meant in UTC$/) },
    ]);
  });

  it('says how long to wait when the provider rate-limits (retry_after_seconds, as Retry-After does over HTTP)', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    h.sandbox.control.setFault('calendar', { failNext: { count: 5, status: 429 } });
    try {
      const error = errorOf((await c.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult);
      // Google sends no Retry-After with its 429: the wait is the service's for Google, 1 s, as the HTTP API's header says.
      expect(error).toMatchObject({ code: 'upstream_rate_limited', retry_after_seconds: 1 });
    } finally {
      h.sandbox.control.clearFaults('calendar');
    }
    // An error with nothing to wait for names no wait.
    const invalid = errorOf((await c.callTool({ name: 'calendar_list_calendars', arguments: { max_results: 'many' } })) as CallToolResult);
    expect(invalid).not.toHaveProperty('retry_after_seconds');
  });

  it('gives a provider\'s refusal with the details the HTTP API gives (status, the provider\'s answer) and the execution id', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const args = { event_id: 'no-such-event' };
    const error = errorOf((await c.callTool({ name: 'calendar_get_event_by_id', arguments: args })) as CallToolResult) as Record<string, unknown>;
    const http = await h.call('POST', '/api/v1/execute_tool', {
      token: await h.token(h.a),
      body: { tool_name: 'calendar_get_event_by_id', identifier: 'alice', tool_input: args },
    });
    expect(http.status).toBe(404);
    expect(error.code).toBe('upstream_error');
    // What the model needs to fix its call: the provider's status and answer, in full (the message cuts it short).
    expect(error.details).toEqual(http.body.error.details);
    expect(error.details).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND' } } });
    // The tool's hint for this refusal (its spec's upstream_errors) reaches the model too: after the message, and in details.
    expect((error.details as { hint: string }).hint).toMatch(/event_id.*calendar_list_events/);
    expect(error.message).toMatch(/: Not Found\. Hint: No event has this event_id/);
    expect(error.execution_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.execution_id).not.toBe(http.body.error.execution_id);
    // An invalid input's violations stay where they were, and are not repeated under details.
    const invalid = errorOf((await c.callTool({ name: 'calendar_list_calendars', arguments: { max_results: 'many' } })) as CallToolResult);
    expect(invalid).not.toHaveProperty('details');
    expect(invalid.violations).toEqual([{ pointer: '/max_results', message: 'max_results must be an integer', keyword: 'type' }]);
  });

  it('cannot act for another user: the identifier comes from the session, never from the arguments', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const result = (await c.callTool({ name: 'calendar_list_calendars', arguments: { identifier: 'bob' } })) as CallToolResult;
    expect(errorOf(result).code).toBe('invalid_input');
    // A session for a user with no account sees no one else's data, only a link for itself.
    const mallory = await client((await mint(h.a, { identifier: 'mallory' })).token);
    const denied = errorOf((await mallory.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult);
    expect(denied.code).toBe('account_not_found');
    expect(JSON.stringify(denied)).not.toContain('alice@example.com');
  });

  it('answers a user with no account with a fresh authorization link for that identifier; after consent the call works', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const first = errorOf((await c.callTool({ name: 'crm_contacts_list', arguments: {} })) as CallToolResult);
    expect(first.code).toBe('account_not_found');
    expect(first.authorization_url).toMatch(new RegExp(`^${h.url}/sso/v1/connect/`));
    const accounts = await h.call('GET', '/api/v1/connected_accounts?identifier=alice&connection_name=crm', { token: await h.token(h.a) });
    expect(accounts.body.connected_accounts).toEqual([expect.objectContaining({ identifier: 'alice', status: 'PENDING_AUTH' })]);
    expect((await consentThroughSandbox(first.authorization_url!, { user: 'alice@example.com' })).status).toBe(200);
    const after = (await c.callTool({ name: 'crm_contacts_list', arguments: {} })) as CallToolResult;
    expect(after.isError).toBeFalsy();
    expect(after.structuredContent).toHaveProperty('results');
  });

  it('shows only the session\'s tool set, and refuses a call outside it', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice', connections: ['cal'], tools: ['googlecalendar_list_calendars', 'calendar_list_events'] })).token);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['calendar_list_calendars', 'calendar_list_events']);
    await expect(c.callTool({ name: 'calendar_create_event', arguments: { summary: 'x', start_datetime: '2026-01-01T10:00:00Z' } })).rejects.toThrow(/Unknown tool/);
    await expect(c.callTool({ name: 'crm_contacts_list', arguments: {} })).rejects.toThrow(/Unknown tool/);
    // A near miss names the session's tool that was meant; never one outside the session (calendar_create_event is
    // nearer to this typo than any allowed tool, but the session does not allow it: the session's tools that share
    // the typo's words are named instead).
    await expect(c.callTool({ name: 'calendar_list_event', arguments: {} })).rejects.toThrow('Unknown tool "calendar_list_event" in this session. Did you mean "calendar_list_events"?');
    const outside = await c.callTool({ name: 'calendar_create_evnt', arguments: {} }).catch((e: unknown) => e);
    expect((outside as Error).message).toMatch(/Unknown tool "calendar_create_evnt" in this session\. Tools with these words: "calendar_list_(calendars|events)"(, "calendar_list_(calendars|events)")?\.$/);
    const unrelated = await c.callTool({ name: 'send_email', arguments: {} }).catch((e: unknown) => e);
    expect((unrelated as Error).message).toMatch(/Unknown tool "send_email" in this session\.$/);
  });

  it('says an unknown tool once: the wire message is the text alone, code -32602, and the SDK client adds its prefix once', async () => {
    const { token } = await mint(h.a, { identifier: 'alice', connections: ['cal'], tools: ['calendar_list_events'] });
    const text = 'Unknown tool "calendar_list_event" in this session. Did you mean "calendar_list_events"?';
    const raw = await h.call('POST', '/mcp', {
      token,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'calendar_list_event', arguments: {} } },
    });
    expect(raw.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: text } });
    const c = await client(token);
    const error = await c.callTool({ name: 'calendar_list_event', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: `MCP error -32602: ${text}` });
    // Search mode: a name that is none of the three meta-tools, the same way.
    const search = await client((await mint(h.a, { identifier: 'alice', mode: 'search', connections: ['cal'] })).token);
    const meta = await search.callTool({ name: 'calendar_list_events', arguments: {} }).catch((e: unknown) => e);
    expect((meta as Error).message).toBe('MCP error -32602: Unknown tool "calendar_list_events": this session offers search_tools, describe_tool and call_tool');
  });

  it('read_only shows only tools declared read-only, with title, output schema and annotations', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice', read_only: true })).token);
    const { tools } = await c.listTools();
    const declared = h.connector.tools.list().filter((t) => t.annotations.readOnly && (t.connector === 'calendar' || t.connector === 'crm'));
    expect(tools.map((t) => t.name).sort()).toEqual(declared.map((t) => t.name).sort());
    // Searches are POSTs that only read: declared, not inferred from the method.
    expect(tools.map((t) => t.name)).toContain('crm_contacts_search');
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.outputSchema?.type).toBe('object');
    }
    const refused = await h.call('POST', '/api/v1/mcp_sessions', { token: await h.token(h.a), body: { identifier: 'alice', read_only: true, tools: ['calendar_create_event'] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/tools/0', message: expect.stringMatching(/not read-only/) })]);
  });

  it('keeps environments apart: a session of another environment sees and reaches only that environment', async () => {
    // Same identifier in environment b, where alice never connected: b's connection, b's accounts.
    const c = await client((await mint(h.b, { identifier: 'alice' })).token);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith('crm_'))).toBe(false);
    const error = errorOf((await c.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult);
    expect(error.code).toBe('account_not_found');
    const bConnection = await h.call('GET', '/api/v1/connections/cal', { token: await h.token(h.b) });
    const link = await h.call('GET', '/api/v1/connected_accounts?identifier=alice', { token: await h.token(h.b) });
    expect(link.body.connected_accounts.map((a: { connection_id: string }) => a.connection_id)).toEqual([bConnection.body.id]);
    // And b's user works through b's session.
    const bob = await client((await mint(h.b, { identifier: 'bob' })).token);
    const ok = (await bob.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult;
    expect(JSON.stringify(ok.structuredContent)).toContain('bob@example.com');
  });
});

describe('search mode', () => {
  it('offers search_tools, describe_tool and call_tool over the session\'s tools only', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice', mode: 'search', connections: ['cal'] })).token);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    const found = (await c.callTool({ name: 'search_tools', arguments: { query: 'schedule a meeting with Ana tomorrow' } })) as CallToolResult;
    const hits = (found.structuredContent as { tools: { name: string }[] }).tools;
    expect(hits[0]?.name).toBe('calendar_create_event');
    const contacts = (await c.callTool({ name: 'search_tools', arguments: { query: 'find a contact by e-mail', limit: 50 } })) as CallToolResult;
    expect((contacts.structuredContent as { tools: { name: string }[] }).tools.every((t) => t.name.startsWith('calendar_'))).toBe(true);
    const described = (await c.callTool({ name: 'describe_tool', arguments: { name: 'calendar_list_calendars' } })) as CallToolResult;
    expect(described.structuredContent).toMatchObject({ name: 'calendar_list_calendars', inputSchema: { type: 'object' } });
    expect(errorOf((await c.callTool({ name: 'describe_tool', arguments: { name: 'crm_contacts_list' } })) as CallToolResult).code).toBe('unknown_tool');
    const called = (await c.callTool({ name: 'call_tool', arguments: { name: 'calendar_list_calendars', arguments: {} } })) as CallToolResult;
    expect(JSON.stringify(called.structuredContent)).toContain('alice@example.com');
    expect(errorOf((await c.callTool({ name: 'call_tool', arguments: { name: 'crm_contacts_list' } })) as CallToolResult).code).toBe('unknown_tool');
    const typo = errorOf((await c.callTool({ name: 'describe_tool', arguments: { name: 'calendar_list_calendar' } })) as CallToolResult);
    expect(typo).toMatchObject({ code: 'unknown_tool', message: 'No tool "calendar_list_calendar" in this session. Did you mean "calendar_list_calendars"? Use search_tools to find one.' });
  });

  it('refuses meta-tool arguments their inputSchema does not allow, naming each, instead of dropping them', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice', mode: 'search', connections: ['cal'] })).token);
    // `args` for `arguments`: without the check the tool would run with no arguments at all.
    const misnamed = errorOf((await c.callTool({ name: 'call_tool', arguments: { name: 'calendar_list_events', args: { max_results: 1 } } })) as CallToolResult);
    expect(misnamed).toMatchObject({
      code: 'invalid_input',
      message: "Invalid input for call_tool: unknown parameter 'args'. Known parameters: name, arguments",
      violations: [{ pointer: '/args', message: "unknown parameter 'args'. Known parameters: name, arguments", keyword: 'additionalProperties' }],
    });
    const nameless = errorOf((await c.callTool({ name: 'describe_tool', arguments: {} })) as CallToolResult);
    expect(nameless).toMatchObject({ code: 'invalid_input', violations: [{ pointer: '/name', message: 'name is required', keyword: 'required' }] });
    const numbered = errorOf((await c.callTool({ name: 'call_tool', arguments: { name: 5 } })) as CallToolResult);
    expect(numbered).toMatchObject({ code: 'invalid_input', violations: [{ pointer: '/name', message: 'name must be a string', keyword: 'type' }] });
    const queryless = errorOf((await c.callTool({ name: 'search_tools', arguments: { limit: 3 } })) as CallToolResult);
    expect(queryless.violations).toEqual([{ pointer: '/query', message: 'query is required', keyword: 'required' }]);
    // null is "absent" for an optional argument, as in every tool.
    const nullLimit = (await c.callTool({ name: 'search_tools', arguments: { query: 'list events', limit: null } })) as CallToolResult;
    expect(nullLimit.isError).toBeUndefined();
  });
});

describe('call_tool arguments as JSON text', () => {
  it('runs the tool with a JSON text of an object, as models often write arguments, and refuses any other at /arguments', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice', mode: 'search', connections: ['cal'] })).token);
    const call = async (args: unknown) => (await c.callTool({ name: 'call_tool', arguments: { name: 'calendar_list_calendars', arguments: args } })) as CallToolResult;
    const ok = await call('{"show_hidden": true}');
    expect(ok.isError).toBeUndefined();
    expect(JSON.stringify(ok.structuredContent)).toContain('alice@example.com');
    // The text's values are the tool's input: checked as an object's would be, at their own pointers.
    const parsed = errorOf(await call(' {"max_results": 0} '));
    expect(parsed).toMatchObject({ code: 'invalid_input', violations: [{ pointer: '/max_results' }] });
    const refusals: Array<[unknown, string]> = [
      ['[{"max_results": 1}]', 'arguments must be an object: the JSON text is an array, not an object'],
      ['"{}"', 'arguments must be an object: the JSON text is a string, not an object'],
      ['null', 'arguments must be an object: the JSON text is null, not an object'],
      [5, 'arguments must be an object, not a number'],
      [[], 'arguments must be an object, not an array'],
      // Read as the service reads any caller JSON, and refused whole saying why, as a free-form parameter's text is;
      // a text that is not JSON is not quoted back (V8's own message would).
      ['{max_results: 1}', "arguments must be an object: the text is not JSON (Expected property name or '}' at position 1)"],
      ['{"max_results": 1, "sk": "s3cr3t-value"', "arguments must be an object: the text is not JSON (Expected ',' or '}' after property value at position 39)"],
      ['{"__proto__": {"max_results": 1}}', 'arguments must be an object: the JSON text has a __proto__ key'],
      [`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, 'arguments must be an object: the JSON text is nested deeper than 64 levels'],
    ];
    for (const [given, message] of refusals) {
      expect(errorOf(await call(given)), JSON.stringify(given)).toEqual({ code: 'invalid_input', message, violations: [{ pointer: '/arguments', message, keyword: 'type' }] });
    }
  });
});

describe('a free-form object given as JSON text', () => {
  it('refused, says why at its pointer, through tools/call and call_tool alike', async () => {
    await connect(h.a, 'crm', 'alice', 'alice@example.com');
    const tools = await client((await mint(h.a, { identifier: 'alice', connections: ['crm'] })).token);
    const search = await client((await mint(h.a, { identifier: 'alice', mode: 'search', connections: ['crm'] })).token);
    const cases: Array<[string, string]> = [
      ['{"__proto__": {"filters": []}}', 'filterGroups[0] must be an object: the JSON text has a __proto__ key'],
      [`${'['.repeat(70)}${']'.repeat(70)}`, 'filterGroups[0] must be an object: the JSON text is nested deeper than 64 levels'],
      ['{filters: []}', "filterGroups[0] must be an object: the text is not JSON (Expected property name or '}' at position 1); expected JSON text of an object"],
      ['[]', 'filterGroups[0] must be an object: the JSON text is an array, not an object'],
    ];
    for (const [text, message] of cases) {
      const input = { filterGroups: [text] };
      const direct = errorOf((await tools.callTool({ name: 'crm_contacts_search', arguments: input })) as CallToolResult);
      const meta = errorOf((await search.callTool({ name: 'call_tool', arguments: { name: 'crm_contacts_search', arguments: input } })) as CallToolResult);
      for (const refused of [direct, meta]) {
        expect(refused.code, text.slice(0, 40)).toBe('invalid_input');
        // Said once: the HubSpot filterGroups check leaves an array item's type to the schema.
        expect(refused.violations).toEqual([{ pointer: '/filterGroups/0', keyword: 'type', message }]);
      }
    }
  });
});

describe('credentials', () => {
  async function rawMcp(token: string | undefined, method = 'POST'): Promise<{ status: number; body: any }> {
    return h.call(method, '/mcp', {
      ...(token === undefined ? {} : { token }),
      headers: { accept: 'application/json, text/event-stream' },
      ...(method === 'POST' ? { body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } } : {}),
    });
  }

  it('refuses an application access token on /mcp, and no token at all', async () => {
    const refused = await rawMcp(await h.token(h.a));
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/MCP session token/);
    expect((await rawMcp(undefined)).status).toBe(401);
    expect((await rawMcp('acmcp_not-a-real-token')).status).toBe(401);
  });

  it('refuses an MCP session token on every /api/v1 route', async () => {
    const { token } = await mint(h.a, { identifier: 'alice' });
    for (const [method, path] of [['GET', '/api/v1/connections'], ['GET', '/api/v1/tools'], ['POST', '/api/v1/mcp_sessions'], ['POST', '/api/v1/execute_tool']] as const) {
      const res = await h.call(method, path, { token, ...(method === 'POST' ? { body: { identifier: 'alice', tool_name: 'calendar_list_calendars', tool_input: {} } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.message).toMatch(/accepted on \/mcp only/);
    }
  });

  it('refuses a revoked session at once', async () => {
    const session = await mint(h.a, { identifier: 'alice' });
    expect((await rawMcp(session.token)).status).toBe(200);
    const revoked = await h.call('DELETE', `/api/v1/mcp_sessions/${session.id}`, { token: await h.token(h.a) });
    expect(revoked.body).toMatchObject({ id: session.id, status: 'revoked' });
    const after = await rawMcp(session.token);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
    // Revoking from another environment finds nothing.
    expect((await h.call('DELETE', `/api/v1/mcp_sessions/${session.id}`, { token: await h.token(h.b) })).status).toBe(404);
  });

  it('refuses an expired session', async () => {
    const session = await mint(h.a, { identifier: 'alice', expires_in: 60 });
    expect((await rawMcp(session.token)).status).toBe(200);
    clockOffsetMs = 61_000;
    try {
      const after = await rawMcp(session.token);
      expect(after.status).toBe(401);
      expect(after.body.error.message).toMatch(/expired/);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('answers a client that asks for revision 2025-06-18 in that revision, with no transport session id', async () => {
    const { token } = await mint(h.a, { identifier: 'alice' });
    const res = await h.call('POST', '/mcp', {
      token,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'agent-connector' }, capabilities: { tools: {} } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('is stateless: GET and DELETE on /mcp answer 405', async () => {
    const { token } = await mint(h.a, { identifier: 'alice' });
    const get = await rawMcp(token, 'GET');
    expect(get.status).toBe(405);
    expect((await rawMcp(token, 'DELETE')).status).toBe(405);
  });
});

describe('several connections of one connector', () => {
  it('uses the one where the user is connected, and says so when there is none to choose', async () => {
    await h.sandboxConnection(h.b, 'calendar', 'cal2');
    const bob = await client((await mint(h.b, { identifier: 'bob' })).token);
    const ok = (await bob.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult;
    expect(JSON.stringify(ok.structuredContent)).toContain('bob@example.com');
    const carol = await client((await mint(h.b, { identifier: 'carol' })).token);
    const error = errorOf((await carol.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult);
    expect(error.code).toBe('ambiguous_connection');
    expect(error.message).toMatch(/cal, cal2/);
    // Naming one connection in the session gives carol a link for it.
    const named = await client((await mint(h.b, { identifier: 'carol', connections: ['cal2'] })).token);
    const link = errorOf((await named.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult);
    expect(link.authorization_url).toMatch(/\/sso\/v1\/connect\//);
  });
});

describe('logs', () => {
  it('write one line per /mcp request, with the execution fields of the tool call it ran (plain and search mode)', async () => {
    for (const [mode, name, args] of [
      ['tools', 'calendar_list_calendars', {}],
      ['search', 'call_tool', { name: 'calendar_list_calendars', arguments: {} }],
    ] as const) {
      const c = await client((await mint(h.a, { identifier: 'alice', mode })).token);
      const before = logText.length;
      expect(((await c.callTool({ name, arguments: args })) as CallToolResult).isError).toBeFalsy();
      const lines = logText.slice(before).trim().split('\n').map((l) => JSON.parse(l) as { msg: string; req: { url: string }; execution?: Record<string, unknown> });
      // The client may list the tools first (for their output schemas): a line of its own, with no execution.
      const mcpLines = lines.filter((l) => l.req?.url === '/mcp');
      expect(new Set(mcpLines.map((l) => l.msg))).toEqual(new Set(['request completed']));
      const withExecution = mcpLines.filter((l) => l.execution !== undefined);
      expect(withExecution).toHaveLength(1);
      expect(withExecution[0]!.execution).toMatchObject({ operation: 'calendar_list_calendars', outcome: 'success', identifier: 'alice', connection_name: 'cal' });
    }
  });

  it('never hold a session token (this file minted and used many, refused and accepted)', () => {
    expect(minted.length).toBeGreaterThan(10);
    expect(logText).toContain('/mcp');
    for (const token of minted) expect(logText).not.toContain(token);
    expect(logText).not.toContain('acmcp_');
  });
});

describe('a list given for one value, or one value for a list', () => {
  it("is refused with the schema's example of the shape, and a pattern's refusal with the example too", async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    const created = errorOf(
      (await c.callTool({
        name: 'calendar_create_event',
        arguments: { summary: 'Standup', start_datetime: '2026-12-01T10:00:00+01:00', timezone: 'Europe/Paris', attendees_emails: 'ana@example.com', recurrence: ['FREQ=DAILY;COUNT=5'] },
      })) as CallToolResult,
    );
    expect(created.code).toBe('invalid_input');
    expect(created.violations).toEqual([
      { pointer: '/attendees_emails', keyword: 'type', message: 'attendees_emails must be an array, e.g. ["ana@example.com","li@example.com"]' },
      { pointer: '/recurrence/0', keyword: 'pattern', message: 'recurrence[0] must match the pattern ^(RRULE|EXRULE|RDATE|EXDATE)[:;], e.g. "RRULE:FREQ=WEEKLY;COUNT=5"' },
    ]);
    const listed = errorOf((await c.callTool({ name: 'calendar_list_events', arguments: { query: ['planning', 'review'] } })) as CallToolResult);
    expect(listed.violations).toEqual([{ pointer: '/query', keyword: 'type', message: 'query must be a string, e.g. "planning"' }]);
    // A value of the wrong scalar type needs no example: the type says it; a number sent as text is told to drop the quotes.
    const scalar = errorOf((await c.callTool({ name: 'calendar_list_events', arguments: { max_results: '5' } })) as CallToolResult);
    expect(scalar.violations).toEqual([{ pointer: '/max_results', keyword: 'type', message: 'max_results must be an integer, not the text "5": send 5 without quotes' }]);
    const word = errorOf((await c.callTool({ name: 'calendar_list_events', arguments: { max_results: 'five' } })) as CallToolResult);
    expect(word.violations).toEqual([{ pointer: '/max_results', keyword: 'type', message: 'max_results must be an integer' }]);
  });
});

describe('a required parameter left out', () => {
  it('is refused with what the parameter holds, from its description, so the model knows what to send', async () => {
    const c = await client((await mint(h.a, { identifier: 'alice' })).token);
    // A model moving an event leaves out calendar_id (the other event tools default it to primary).
    const moved = errorOf((await c.callTool({ name: 'calendar_update_event', arguments: { event_id: 'e1', start_datetime: '2026-12-01T15:30:00Z' } })) as CallToolResult);
    expect(moved.violations).toEqual([
      { pointer: '/calendar_id', keyword: 'required', message: "calendar_id is required (Calendar that holds the event; `primary` for the user's main calendar)" },
    ]);
    // A deal without its stage: the description names the stage ids to send.
    const deal = errorOf((await c.callTool({ name: 'crm_deal_create', arguments: { dealname: 'Acme renewal', amount: 5000 } })) as CallToolResult);
    expect(deal.violations).toEqual([{ pointer: '/dealstage', keyword: 'required', message: expect.stringMatching(/^dealstage is required \(.*appointmentscheduled/) }]);
    expect(deal.message).toContain('dealstage is required (');
  });
});
