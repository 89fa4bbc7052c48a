/**
 * A tool's pre-check reads the upstream with the user's token (a Notion database's schema before a row is written)
 * and quotes what it read in its refusals (the database's column names, its data sources' names). An upstream that
 * echoes the request into what it answers (a debug field, a server a connection's overrides name) would put the
 * user's provider token into those names: the caller's error, the MCP result and the execution history's message
 * must hold none of it, in any form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.js';
import { connectThrough, startUpstream, type Upstream } from './helpers.js';

let h: Harness;
let upstream: Upstream;
let token: string;
let connectionName: string;
const DATABASE = 'd9824bdc-8445-4327-be8b-5b47500af6ce';

beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  upstream = await startUpstream();
  connectionName = (await connectThrough(h, h.a, upstream.url, 'precheck-user', 'workspace')).name;
  token = await h.token(h.a);
});
afterAll(async () => {
  await h?.close();
  await upstream?.close();
});

/** The forms an echo may take: as is, JSON-escaped, URL-encoded, base64. */
function forms(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), Buffer.from(secret).toString('base64').slice(4, -4)];
}

describe('a pre-check read that echoes the token', () => {
  it('its column and data source names quoted in a refusal hold no form of the token (answer and history)', async () => {
    upstream.respond = (req, res) => {
      const bearer = String(req.headers.authorization).replace(/^Bearer /, '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        object: 'database',
        id: DATABASE,
        properties: {
          Name: { id: 'title', name: `Name ${bearer}`, type: 'title', title: {} },
          Debug: { id: encodeURIComponent(bearer), name: `auth=${encodeURIComponent(bearer)}`, type: 'rich_text', rich_text: {} },
        },
        data_sources: [{ id: 'ds-1', name: `source ${bearer}` }, { id: 'ds-2', name: Buffer.from(`Bearer ${bearer}`).toString('base64') }],
      }));
    };
    const call = (tool_input: Record<string, unknown>) => h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'workspace_database_insert_row', identifier: 'precheck-user', connection_name: connectionName, tool_input } });
    const columns = await call({ database_id: DATABASE, properties: { Nmae: { rich_text: [{ text: { content: 'x' } }] } } });
    const sources = await call({ database_id: DATABASE, workspace_version: '2025-09-03', properties: { Nmae: { rich_text: [] } } });
    const bearer = String(upstream.received.at(-1)!.headers.authorization).replace(/^Bearer /, '');
    expect(bearer.length).toBeGreaterThan(8);
    expect(columns.body.error?.code, JSON.stringify(columns.body)).toBe('invalid_input');
    expect(columns.body.error.message).toContain('Columns:');
    expect(sources.body.error?.code, JSON.stringify(sources.body)).toBe('invalid_input');
    expect(sources.body.error.message).toContain('data sources');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const history = await h.call('GET', '/api/v1/executions?identifier=precheck-user&limit=10', { token });
    expect(history.body.executions.some((e: { error_message?: string }) => e.error_message?.includes('Columns:'))).toBe(true);
    const text = JSON.stringify([columns.body, sources.body, history.body]);
    expect(forms(bearer).filter((f) => text.includes(f))).toEqual([]);
    expect(text).toContain('[redacted]');
  });
});
