/**
 * The sixth agent trial (Google Calendar, HubSpot CRM, Notion databases and pages), through the official MCP SDK
 * client against the service and the sandbox: what an agent that knows only the tool list and the answers could not
 * do, or did wrong without being told, each pinned as it works now.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let c: Client;

beforeAll(async () => {
  h = await startHarness({ sandboxOptions: { providerRateLimits: false } });
  const token = await h.token(h.a);
  for (const connector of ['crm', 'calendar', 'workspace'] as const) {
    await h.sandboxConnection(h.a, connector);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connector, identifier: 'mo' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'mo@example.com' })).status).toBe(200);
  }
  const session = await h.call('POST', '/api/v1/mcp_sessions', { token, body: { identifier: 'mo' } });
  c = new Client({ name: 'sixth-trial', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${session.body.token}` } } }));
});

afterAll(async () => {
  await c?.close();
  await h?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function ok<T>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
}

function errorOf(result: CallToolResult): { code: string; message: string; violations?: Array<{ pointer: string; message: string }>; details?: { hint?: string } } {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

describe('crm: a deal assigned to the person the user names', () => {
  it('finds the owner id by e-mail with crm_owners_list, and a refused owner is told that tool', async () => {
    const deal = ok<{ id: string }>(await call('crm_deal_create', { dealname: 'Globex platform', dealstage: 'contractsent' }));
    // First try, the e-mail itself: refused, and the hint names the tool that gives the id.
    const refused = errorOf(await call('crm_deal_update', { deal_id: deal.id, properties: { hubspot_owner_id: 'mo@example.com' } }));
    expect(refused.details?.hint).toMatch(/crm_owners_list/);
    const owners = ok<{ results: Array<{ id: string; email: string; userId: number }> }>(await call('crm_owners_list', { email: 'mo@example.com' }));
    expect(owners.results.map((o) => o.email)).toEqual(['mo@example.com']);
    const updated = ok<{ properties: Record<string, string | null> }>(await call('crm_deal_update', { deal_id: deal.id, properties: { hubspot_owner_id: owners.results[0]!.id } }));
    expect(updated.properties.hubspot_owner_id).toBe(owners.results[0]!.id);
  });
});
