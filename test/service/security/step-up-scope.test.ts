/**
 * The step-up link an MCP tool call's missing-scope refusal carries (`authorization_url`) is minted by the service
 * without the application's say, for the scope the upstream's refusal names. An upstream that names a scope of its
 * choosing (a hostile or misconfigured server a connection's overrides name, which then receives the access token
 * of every call) must not get the user asked, through the agent, for a grant beyond what the connector asks for
 * (here all of Gmail): no link, no `scopes_to_request`, the refusal stays a plain `insufficient_scope`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.js';
import { connectThrough, startUpstream, type Upstream } from './helpers.js';

let h: Harness;
let upstream: Upstream;
let connectionName: string;
let token: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  upstream = await startUpstream();
  connectionName = (await connectThrough(h, h.a, upstream.url, 'step-up-user')).name;
  token = await h.token(h.a);
});
afterAll(async () => {
  await h?.close();
  await upstream?.close();
});

/** Google's missing-scope refusal, naming `scopes` in its challenge. */
function refuseForScope(scopes: string): void {
  upstream.respond = (_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json', 'www-authenticate': `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${scopes}"` });
    res.end(JSON.stringify({ error: { code: 403, message: 'Request had insufficient authentication scopes.', errors: [{ reason: 'insufficientPermissions', message: 'Insufficient Permission' }], status: 'PERMISSION_DENIED' } }));
  };
}

async function mcpCall(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const session = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { identifier: 'step-up-user', connections: [connectionName] } });
  expect(session.status).toBe(201);
  const client = new Client({ name: 'step-up', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${session.body.token}` } } }));
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n');
    return JSON.parse(text).error;
  } finally {
    await client.close();
  }
}

const lunch = { summary: 'Lunch', start_datetime: '2026-12-01T12:00:00+01:00', event_duration_hour: 1 };

describe('a step-up link asks only for a scope the connector asks for', () => {
  it('an upstream naming a scope outside the connector gets no link and no scopes_to_request', async () => {
    refuseForScope('https://mail.google.com/');
    const error = await mcpCall('calendar_create_event', lunch);
    expect(error.code, JSON.stringify(error)).toBe('insufficient_scope');
    expect(error.authorization_url, JSON.stringify(error)).toBeUndefined();
    expect(error.details?.scopes_to_request).toBeUndefined();
    expect(error.message).not.toMatch(/authorization_url/);
    // The HTTP API's refusal offers no such scope either.
    const api = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_create_event', identifier: 'step-up-user', connection_name: connectionName, tool_input: lunch } });
    expect(api.body.error.code).toBe('insufficient_scope');
    expect(api.body.error.details.required_scopes).toEqual(['https://mail.google.com/']);
    expect(api.body.error.details.scopes_to_request).toBeUndefined();
  });

  it('of the scopes named, the one the connector asks for is requested; one outside it never is', async () => {
    refuseForScope('https://mail.google.com/ https://www.googleapis.com/auth/calendar.events');
    const error = await mcpCall('calendar_create_event', lunch);
    expect(error.code, JSON.stringify(error)).toBe('insufficient_scope');
    expect(error.details?.scopes_to_request).toEqual(['https://www.googleapis.com/auth/calendar.events']);
    expect(error.authorization_url).toMatch(/\/sso\/v1\/connect\//);
    // The link is a credential: handed to the agent only, never kept in the execution history.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const history = await h.call('GET', '/api/v1/executions?identifier=step-up-user&limit=50', { token });
    const failed = history.body.executions.filter((e: { error_code: string | null }) => e.error_code === 'insufficient_scope');
    expect(failed.length).toBeGreaterThan(0);
    const linkToken = String(error.authorization_url).split('/').at(-1)!;
    expect(JSON.stringify(history.body)).not.toContain(linkToken);
    expect(JSON.stringify(history.body)).not.toContain('/sso/v1/connect/');
  });
});
