/**
 * issue 11, "Workspace columns checked against the database's schema": through the HTTP service against the sandbox,
 * the workspace tools that name columns are checked against the database's real schema (read with the user's token,
 * cached per account for a short time, dropped when Notion refuses a call), each refusal at its pointer with the
 * valid names, the closest one, or the column's type and an example. Nothing is written when the check refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_PROPERTY_IDS } from '../../sandbox/apis/workspace/state.js';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
let db: string;
const identifier = 'columns-user';

async function run(tool_name: string, tool_input: Record<string, unknown>) {
  return h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name, identifier, tool_input } });
}

const text = (content: string) => [{ type: 'text', text: { content } }];
const rowsOf = async () => (await run('workspace_database_query', { database_id: db })).body.data.results as Array<{ properties: Record<string, any> }>;
const schemaReads = () => h.sandbox.control.requests('workspace').filter((r) => r.method === 'GET' && r.path === `/v1/databases/${db}`).length;

beforeAll(async () => {
  h = await startHarness();
  ({ token } = await connectSandboxUser(h, { connector: 'workspace', identifier, user: 'columns@example.com' }));
  const found = await run('workspace_search', { query: 'Tasks' });
  db = found.body.data.results.find((r: { object: string }) => r.object === 'database').id;
});
afterAll(() => h?.close());

describe('workspace columns checked against the schema', () => {
  it('an unknown key is invalid_input at its pointer, naming the closest column and every valid one; nothing is written', async () => {
    const before = (await rowsOf()).length;
    const res = await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('x') }, status: { select: { name: 'Todo' } }, 'Du/e': { date: { start: '2026-01-01' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    const [status, due] = res.body.error.details.violations;
    expect(status.pointer).toBe('/properties/status');
    expect(status.message).toMatch(/^`status` is not a column of this database; did you mean `Status`\?/);
    for (const name of ['Name', 'Status', 'Priority', 'Due', 'Notes', 'Done']) expect(status.message).toContain(`\`${name}\``);
    expect(status.message).toContain('key `title`');
    // RFC 6901: a `/` in a key is written `~1`.
    expect(due.pointer).toBe('/properties/Du~1e');
    expect(due.message).toContain('did you mean `Due`?');
    expect((await rowsOf()).length).toBe(before);
  });

  it('a value whose shape does not fit the column type is refused, naming the type and an example', async () => {
    const res = await run('workspace_database_insert_row', {
      database_id: db,
      properties: { title: { title: text('x') }, Status: { select: 'Todo' }, Due: { date: { end: '2026-01-02' } }, Priority: { rich_text: text('high') }, Done: { checkbox: 'yes' } },
    });
    expect(res.status).toBe(400);
    const byPointer = Object.fromEntries(res.body.error.details.violations.map((v: { pointer: string; message: string }) => [v.pointer, v.message]));
    expect(byPointer['/properties/Status/select']).toBe('`Status` is a select column; `select` must be an object {name} (or {id}), or null (a plain string is not an option), e.g. {"select":{"name":"Todo"}}');
    expect(byPointer['/properties/Due/date']).toContain('`Due` is a date column; `date` must be an object with `start`');
    expect(byPointer['/properties/Due/date']).toContain('{"date":{"start":"2026-03-01"}}');
    expect(byPointer['/properties/Priority']).toContain('`Priority` is a number column; its value needs the `number` member (given `rich_text`)');
    expect(byPointer['/properties/Done/checkbox']).toBe('`Done` is a checkbox column; `checkbox` must be true or false, e.g. {"checkbox":true}');
  });

  it('an option given the wrong way is shown written the right way; a status option that does not exist is refused listing them', async () => {
    const swapped = await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('x') }, Status: { status: { name: 'done' } } } });
    expect(swapped.body.error.details.violations).toEqual([
      { pointer: '/properties/Status', message: '`Status` is a select column; its value needs the `select` member (given `status`), e.g. {"select":{"name":"Done"}}', keyword: 'column_type' },
    ]);
    const page = (await run('workspace_database_retrieve', { database_id: db })).body.data.parent.page_id;
    const board = await run('workspace_database_create', { parent: { page_id: page }, title: text('Board'), properties: { Name: { title: {} }, Stage: { status: { options: [{ name: 'Not started' }, { name: 'Done' }] } } } });
    const unknown = await run('workspace_database_insert_row', { database_id: board.body.data.id, properties: { title: { title: text('x') }, Stage: { status: { name: 'Shipped' } } } });
    expect(unknown.body.error.details.violations).toEqual([
      {
        pointer: '/properties/Stage/status/name',
        message: '`Stage` is a status column without the option `Shipped` (Notion adds no status option when a page is written); its options: `Not started`, `Done`; send one of them, e.g. {"name":"Not started"}',
        keyword: 'column_type',
      },
    ]);
  });

  it('the title is keyed `title` or by its display name (Notion accepts both); other keys by exact name or decoded id', async () => {
    const byTitle = await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('keyed title') }, Status: { select: { name: 'Todo' } } } });
    expect(byTitle.status).toBe(200);
    const byName = await run('workspace_page_create', { database_id: db, properties: { Name: { title: text('keyed Name') }, '[JCR': { select: { name: 'Done' } } } });
    expect(byName.status).toBe(200);
    expect(byName.body.data.properties.Status.select.name).toBe('Done');
    expect(byName.body.data.properties.Status.id).toBe(SEED_PROPERTY_IDS.Status);
  });

  it('a URL-encoded property id with special characters is refused as a key, naming the column to use', async () => {
    const res = await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('x') }, [SEED_PROPERTY_IDS.Status!]: { select: { name: 'Todo' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([
      { pointer: '/properties/%5BJCR', message: '`%5BJCR` is a URL-encoded property id; use the column name `Status` instead', keyword: 'column' },
    ]);
  });

  it('a sort by an unknown property is refused at /sorts/i/property; timestamp sorts need no schema', async () => {
    const res = await run('workspace_database_query', { database_id: db, sorts: [{ timestamp: 'created_time', direction: 'ascending' }, { property: 'priority', direction: 'descending' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations[0].pointer).toBe('/sorts/1/property');
    expect(res.body.error.details.violations[0].message).toContain('did you mean `Priority`?');
    const ok = await run('workspace_database_query', { database_id: db, sorts: [{ property: 'Priority', direction: 'descending' }] });
    expect(ok.status).toBe(200);
  });

  it('a filter: rows filtered as asked; a column in the wrong case or a condition under another type (status on a select) is refused at its pointer, before sending', async () => {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    for (const [name, due, done] of [['Week: open', day(0), false], ['Week: done', day(0), true], ['Week: later', day(10), false]] as const) {
      expect((await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text(name) }, Due: { date: { start: due } }, Done: { checkbox: done } } })).status).toBe(200);
    }
    const open = await run('workspace_database_query', {
      database_id: db,
      filter: { and: [{ property: 'Due', date: { this_week: {} } }, { property: 'Done', checkbox: { equals: false } }, { property: 'Name', title: { starts_with: 'Week:' } }] },
    });
    expect(open.status).toBe(200);
    expect(open.body.data.results.map((r: { properties: Record<string, any> }) => r.properties.Name.title[0].plain_text)).toEqual(['Week: open']);

    const sent = () => h.sandbox.control.requests('workspace').filter((r) => r.method === 'POST' && r.path === `/v1/databases/${db}/query`).length;
    const before = sent();
    const res = await run('workspace_database_query', {
      database_id: db,
      filter: { or: [{ property: 'Status', status: { equals: 'Done' } }, { and: [{ property: 'due', date: { this_week: {} } }, { timestamp: 'created_time', created_time: { past_week: {} } }] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    const byPointer = Object.fromEntries(res.body.error.details.violations.map((v: { pointer: string; message: string }) => [v.pointer, v.message]));
    expect(byPointer['/filter/or/0/status']).toBe('`Status` is a select column; its filter condition goes under `select`, not `status`: {"property":"Status","select":{"equals":"Done"}}');
    expect(byPointer['/filter/or/1/and/0/property']).toMatch(/^`due` is not a column of this database; did you mean `Due`\?/);
    expect(Object.keys(byPointer)).toHaveLength(2);
    expect(sent()).toBe(before);
  });

  it('property_id takes ids as Notion lists them (percent-encoded), sent decoded once; a column name is pointed to its id', async () => {
    const ok = await run('workspace_database_query_properties', { database_id: db, property_id: `${SEED_PROPERTY_IDS.Status},${SEED_PROPERTY_IDS.Priority}` });
    expect(ok.status).toBe(200);
    for (const row of ok.body.data.results) expect(Object.keys(row.properties).sort()).toEqual(['Priority', 'Status']);
    const sent = h.sandbox.control.requests('workspace').filter((r) => r.path === `/v1/databases/${db}/query`).at(-1)!;
    expect(sent.query.filter_properties).toEqual(['[JCR', 'AJP}']);

    const named = await run('workspace_database_query_properties', { database_id: db, property_id: 'Status' });
    expect(named.status).toBe(400);
    expect(named.body.error.details.violations).toEqual([
      { pointer: '/property_id', message: '`Status` is a column name; property_id takes property ids: `%5BJCR`', keyword: 'column' },
    ]);
  });

  it('the schema is read once per account and database while cached, and read again after Notion refuses a call', async () => {
    await run('workspace_database_query', { database_id: db, sorts: [{ property: 'Due', direction: 'ascending' }] });
    const reads = schemaReads();
    await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('cached') } } });
    await run('workspace_database_query_properties', { database_id: db, property_id: 'title' });
    expect(schemaReads()).toBe(reads);
    // The shape passes the check but Notion refuses the value (rich text over 2000 characters): the refusal drops
    // the cached schema.
    const refused = await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('x') }, Notes: { rich_text: [{ text: { content: 'x'.repeat(2001) } }] } } });
    expect(refused.status).not.toBe(200);
    await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('after refusal') } } });
    expect(schemaReads()).toBe(reads + 1);
  });

  it('a child page under a page needs no schema read', async () => {
    const page = (await run('workspace_database_retrieve', { database_id: db })).body.data.parent.page_id;
    const reads = schemaReads();
    const res = await run('workspace_page_create', { parent_page_id: page, properties: { title: { title: text('child') } } });
    expect(res.status).toBe(200);
    expect(schemaReads()).toBe(reads);
  });
});
