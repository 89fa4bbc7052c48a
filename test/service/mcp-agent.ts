import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Harness } from './harness.js';

/**
 * An MCP host for one end user, as the agent trials play it: an MCP session minted in environment A for
 * `session.identifier` (limited to `session.connections` when given), and the official MCP SDK client connected to the
 * service's `/mcp` over Streamable HTTP with that session's token. The user's accounts are connected first
 * (`connectSandboxUser`).
 */
export async function mcpSessionClient(h: Harness, name: string, session: { identifier: string; connections?: string[] }): Promise<Client> {
  const minted = await h.call('POST', '/api/v1/mcp_sessions', { token: await h.token(h.a), body: session });
  if (typeof minted.body?.token !== 'string') throw new Error(`minting the MCP session answered ${minted.status}: ${JSON.stringify(minted.body)}`);
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } } }));
  return client;
}
