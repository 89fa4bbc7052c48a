/**
 * `agent-connector mcp` over stdio, spawned through tsx and driven by the MCP SDK's own `StdioClientTransport` and
 * `Client`: against the running service (it mints its own session and bridges to /mcp) and in-process on the same
 * store (`--local`). stdout must carry protocol messages only: anything else would break the client's parsing.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from '../service/harness.js';

const MAIN = fileURLToPath(new URL('../../runtime/cli/main.ts', import.meta.url));

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await connectSandboxUser(h, { connector: 'calendar', connection: 'cal', identifier: 'alice', user: 'alice@example.com' });
  await h.sandboxConnection(h.a, 'crm', 'crm');
});
afterAll(async () => h?.close());

/** Only what the command needs: no inherited service settings from the developer's shell. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' };
}

interface Spawned {
  client: Client;
  stderr: () => string;
  errors: Error[];
}

async function spawn(args: string[], env: Record<string, string>): Promise<Spawned> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', MAIN, 'mcp', ...args], env: { ...baseEnv(), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const errors: Error[] = [];
  const client = new Client({ name: 'mcp-stdio-test', version: '1' });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors };
}

const MODES: [string, () => { args: string[]; env: Record<string, string> }][] = [
  [
    'against the running service',
    () => ({
      args: ['--identifier', 'alice'],
      env: { AGENT_CONNECTOR_URL: h.url, AGENT_CONNECTOR_CLIENT_ID: h.a.clientId, AGENT_CONNECTOR_CLIENT_SECRET: h.a.clientSecret },
    }),
  ],
  [
    'in-process on the local store (--local)',
    () => ({
      args: ['--identifier', 'alice', '--local', '--environment', h.a.environmentId],
      env: { AGENT_CONNECTOR_DATA_DIR: h.dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: h.encryptionKeys, AGENT_CONNECTOR_BASE_URL: h.url },
    }),
  ],
];

describe.each(MODES)('agent-connector mcp %s', (_name, setup) => {
  it('lists and calls tools for its one user, answers a missing account with a link, and writes only protocol to stdout', async () => {
    const { args, env } = setup();
    const s = await spawn(args, env);
    try {
      const names = (await s.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('calendar_list_calendars');
      expect(names).toContain('crm_contacts_list');
      expect(names.some((n) => n.startsWith('docs_'))).toBe(false);

      const listed = (await s.client.callTool({ name: 'calendar_list_calendars', arguments: {} })) as CallToolResult;
      expect(listed.isError).toBeFalsy();
      expect(JSON.stringify(listed.structuredContent)).toContain('alice@example.com');

      const missing = (await s.client.callTool({ name: 'crm_contacts_list', arguments: {} })) as CallToolResult;
      expect(missing.isError).toBe(true);
      const error = JSON.parse((missing.content[0] as { text: string }).text).error;
      expect(error.authorization_url).toMatch(new RegExp(`^${h.url}/sso/v1/connect/`));

      expect(s.errors).toEqual([]);
      expect(s.stderr()).toMatch(/agent-connector mcp: /);
    } finally {
      await s.client.close();
    }
  }, 60_000);
});

describe('agent-connector mcp against the service', () => {
  it('mints a session of its own, and a new one when that one is revoked', async () => {
    const { args, env } = MODES[0]![1]();
    const s = await spawn([...args, '--connections', 'cal', '--mode', 'search'], env);
    try {
      expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
      const token = await h.token(h.a);
      const sessions = (await h.call('GET', '/api/v1/mcp_sessions?identifier=alice', { token })).body.mcp_sessions as { id: string; status: string; connections: string[] }[];
      const mine = sessions.filter((x) => x.status === 'active' && x.connections?.[0] === 'cal');
      expect(mine).toHaveLength(1);
      await h.call('DELETE', `/api/v1/mcp_sessions/${mine[0]!.id}`, { token });

      const called = (await s.client.callTool({ name: 'call_tool', arguments: { name: 'calendar_list_calendars', arguments: {} } })) as CallToolResult;
      expect(JSON.stringify(called.structuredContent)).toContain('alice@example.com');
      const after = (await h.call('GET', '/api/v1/mcp_sessions?identifier=alice', { token })).body.mcp_sessions as { id: string; status: string; connections: string[] }[];
      expect(after.filter((x) => x.status === 'active' && x.connections?.[0] === 'cal')).toHaveLength(1);
      expect(s.stderr()).toMatch(/minting a new one/);
    } finally {
      await s.client.close();
    }
  }, 60_000);

  it('fails with a clear message, before speaking MCP, when the scope is wrong', async () => {
    const { args, env } = MODES[0]![1]();
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', MAIN, 'mcp', ...args, '--tools', 'no_such_tool'], env: { ...baseEnv(), ...env }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'mcp-stdio-test', version: '1' });
    await expect(client.connect(transport)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stderr).toMatch(/no_such_tool/);
    await client.close().catch(() => undefined);
  }, 60_000);
});
