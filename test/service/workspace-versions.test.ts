/**
 * issue 12.5, `workspace_version`: the workspace tools speak the Notion-Version the call names, among those they are
 * built for (2022-06-28, the default, and 2025-09-03), end to end through the HTTP service against the sandbox,
 * which answers each version in its own shapes. From 2025-09-03 a database holds data sources: rows are created in
 * and queried from a data source, which the column pre-check resolves from the database (or the caller names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PROPERTY_IDS } from '../../sandbox/apis/workspace/state.js';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
let db: string;
let page: string;
const identifier = 'versions-user';
const user = 'versions@example.com';
const V25 = '2025-09-03';

async function run(tool_name: string, tool_input: Record<string, unknown>) {
  return h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name, identifier, tool_input } });
}
const text = (content: string) => [{ type: 'text', text: { content } }];
const last = (path: string) => h.sandbox.control.requests('workspace').filter((r) => r.path === path).at(-1)!;

beforeAll(async () => {
  h = await startHarness();
  ({ token } = await connectSandboxUser(h, { connector: 'workspace', identifier, user }));
  const found = await run('workspace_search', { query: 'Tasks' });
  db = found.body.data.results.find((r: { object: string }) => r.object === 'database').id;
  page = (await run('workspace_database_retrieve', { database_id: db })).body.data.parent.page_id;
});
afterAll(() => h?.close());

describe('workspace_version', () => {
  it('a version the tools are not built for is invalid_input at /workspace_version, listing those they are', async () => {
    const res = await run('workspace_database_query', { database_id: db, workspace_version: '2026-03-11' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(res.body.error.details.violations).toEqual([{ pointer: '/workspace_version', message: 'workspace_version must be one of: 2022-06-28, 2025-09-03', keyword: 'enum' }]);
  });

  it('2025-09-03: a database lists its data sources; search finds data sources; the schema is the data source\'s', async () => {
    const retrieved = (await run('workspace_database_retrieve', { database_id: db, workspace_version: V25 })).body.data;
    expect(retrieved).not.toHaveProperty('properties');
    expect(retrieved.data_sources).toEqual([{ id: expect.any(String), name: 'Tasks' }]);
    const found = (await run('workspace_search', { query: 'Tasks', workspace_version: V25 })).body.data;
    expect(found.type).toBe('page_or_data_source');
    const source = found.results.find((r: { object: string }) => r.object === 'data_source');
    expect(source.id).toBe(retrieved.data_sources[0].id);
    expect(source.parent).toEqual({ type: 'database_id', database_id: db });
    expect(source.properties.Status.id).toBe(SEED_PROPERTY_IDS.Status);
    const legacy = (await run('workspace_search', { query: 'Tasks' })).body.data;
    expect(legacy.type).toBe('page_or_database');
    expect(legacy.results.map((r: { object: string }) => r.object)).not.toContain('data_source');
  });

  it('2025-09-03: a row is created in the data source the pre-check resolved, and its parent says so', async () => {
    const dataSource = (await run('workspace_database_retrieve', { database_id: db, workspace_version: V25 })).body.data.data_sources[0].id;
    const res = await run('workspace_database_insert_row', { database_id: db, workspace_version: V25, properties: { title: { title: text('v25 row') }, Status: { select: { name: 'Todo' } } } });
    expect(res.status).toBe(200);
    expect(res.body.data.parent).toEqual({ type: 'data_source_id', data_source_id: dataSource, database_id: db });
    const upstream = last('/v1/pages');
    expect(upstream.headers['notion-version']).toBe(V25);
    expect((upstream.body as { parent: unknown }).parent).toEqual({ data_source_id: dataSource });
    expect(h.sandbox.control.requests('workspace').some((r) => r.method === 'GET' && r.path === `/v1/data_sources/${dataSource}`)).toBe(true);
  });

  it('2025-09-03: queries go to the data source, with the same column checks', async () => {
    const dataSource = (await run('workspace_database_retrieve', { database_id: db, workspace_version: V25 })).body.data.data_sources[0].id;
    const rows = await run('workspace_database_query', { database_id: db, workspace_version: V25, sorts: [{ property: 'Priority', direction: 'ascending' }] });
    expect(rows.status).toBe(200);
    expect(rows.body.data.type).toBe('page_or_data_source');
    expect(last(`/v1/data_sources/${dataSource}/query`).body).toEqual({ sorts: [{ property: 'Priority', direction: 'ascending' }] });
    const limited = await run('workspace_database_query_properties', { database_id: db, workspace_version: V25, property_id: SEED_PROPERTY_IDS.Due });
    expect(limited.status).toBe(200);
    for (const row of limited.body.data.results) expect(Object.keys(row.properties)).toEqual(['Due']);
    const wrong = await run('workspace_database_insert_row', { database_id: db, workspace_version: V25, properties: { title: { title: text('x') }, status: { select: { name: 'Todo' } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.violations[0]).toMatchObject({ pointer: '/properties/status', message: expect.stringContaining('did you mean `Status`?') });
  });

  it('2025-09-03: a database is created with its schema as the first data source\'s', async () => {
    const res = await run('workspace_database_create', { parent: { page_id: page }, title: text('Projects'), properties: { Name: { title: {} }, Stage: { select: { options: [{ name: 'Idea' }] } } }, workspace_version: V25 });
    expect(res.status).toBe(200);
    expect(res.body.data.data_sources).toEqual([{ id: expect.any(String), name: 'Projects' }]);
    expect(last('/v1/databases').body).toMatchObject({ initial_data_source: { properties: { Name: { title: {} } } } });
    expect(last('/v1/databases').body).not.toHaveProperty('properties');
  });

  it('a database with two data sources: 2025-09-03 asks which one (listing them), 2022-06-28 is refused by Notion', async () => {
    const created = (await run('workspace_database_create', { parent: { page_id: page }, title: text('Two sources'), properties: { Name: { title: {} } }, workspace_version: V25 })).body.data;
    const first = created.data_sources[0].id;
    const { accessToken } = h.sandbox.control.issueTokens('notion', user);
    const second = await fetch(`${h.sandbox.endpoints('workspace').apiBaseUrl}/v1/data_sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'notion-version': V25, 'content-type': 'application/json' },
      body: JSON.stringify({ parent: { database_id: created.id }, title: text('Archive'), properties: { Name: { title: {} }, Year: { number: {} } } }),
    }).then((r) => r.json() as Promise<{ id: string }>);

    const ambiguous = await run('workspace_database_insert_row', { database_id: created.id, workspace_version: V25, properties: { title: { title: text('x') } } });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.details.violations).toEqual([
      { pointer: '/data_source_id', message: `database ${created.id} has 2 data sources; give data_source_id, one of: ${first} (Two sources), ${second.id} (Archive)`, keyword: 'column' },
    ]);
    const chosen = await run('workspace_database_insert_row', { database_id: created.id, data_source_id: second.id, workspace_version: V25, properties: { title: { title: text('in the archive') }, Year: { number: 2024 } } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.parent.data_source_id).toBe(second.id);

    const legacy = await run('workspace_database_query', { database_id: created.id });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.code).toBe('upstream_error');
    expect(legacy.body.error.details.status).toBe(400);
  });

  it('data_source_id with 2022-06-28 is refused at /data_source_id before anything is sent', async () => {
    const before = h.sandbox.control.requests('workspace').length;
    const res = await run('workspace_database_query', { database_id: db, data_source_id: db });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations[0]).toMatchObject({ pointer: '/data_source_id', keyword: 'version' });
    expect(h.sandbox.control.requests('workspace').length).toBe(before);
  });
});
