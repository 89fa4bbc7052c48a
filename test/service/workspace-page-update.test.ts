/**
 * workspace_page_update through the HTTP service against the sandbox: the mistakes an agent makes when it changes a
 * page ("mark the task Done", "set the due date", "archive this page") are each answered with what to send, before
 * anything is written where the service can tell (the workspacePageColumns pre-check: the page's parent, then its
 * database's schema), and with a hint where only Notion can (a page in the trash, a page not shared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
let db: string;
let home: string;
let row: string;
const identifier = 'page-update-user';
type Json = Record<string, any>;

async function run(tool_name: string, tool_input: Record<string, unknown>) {
  return h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name, identifier, tool_input } });
}

const text = (content: string) => [{ type: 'text', text: { content } }];
/** The violations of a refusal before sending, by pointer. */
async function refused(properties: Record<string, unknown>, page_id = row, extra: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const res = await run('workspace_page_update', { page_id, properties, ...extra });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_input');
  return Object.fromEntries(res.body.error.details.violations.map((v: { pointer: string; message: string }) => [v.pointer, v.message]));
}
const patches = () => h.sandbox.control.requests('workspace').filter((r) => r.method === 'PATCH').length;
const pageReads = (id: string) => h.sandbox.control.requests('workspace').filter((r) => r.method === 'GET' && r.path === `/v1/pages/${id}`).length;

beforeAll(async () => {
  h = await startHarness();
  ({ token } = await connectSandboxUser(h, { connector: 'workspace', identifier, user: 'page-update@example.com' }));
  const found = await run('workspace_search', { query: 'Tasks' });
  const database = found.body.data.results.find((r: Json) => r.object === 'database');
  db = database.id;
  home = database.parent.page_id;
  row = (await run('workspace_database_insert_row', { database_id: db, properties: { title: { title: text('Ship it') }, Status: { select: { name: 'Todo' } } } })).body.data.id;
});
afterAll(() => h?.close());

describe('workspace_page_update', () => {
  it('changes only what it is given: a row marked done, a due date, a page renamed', async () => {
    const done = await run('workspace_page_update', { page_id: row.replace(/-/g, ''), properties: { Status: { select: { name: 'Done' } }, Due: { date: { start: '2026-03-01' } } } });
    expect(done.status).toBe(200);
    expect(done.body.data.properties).toMatchObject({ Name: { title: [{ plain_text: 'Ship it' }] }, Status: { select: { name: 'Done' } }, Due: { date: { start: '2026-03-01' } } });
    const renamed = await run('workspace_page_update', { page_id: home, properties: { title: { title: text('Start here') } } });
    expect(renamed.body.data.properties.title.title[0].plain_text).toBe('Start here');
  });

  it('a plain string, another type\'s key, or an option in the wrong case is answered with the value to send; nothing is sent', async () => {
    const before = patches();
    // The whole value a string: the tool's own schema says an object is needed, with each type's shape.
    const plain = await refused({ Status: 'Done' });
    expect(plain['/properties/Status']).toContain('{"select":{"name":"High"}}');
    expect(plain['/properties/Status']).toContain('{"status":{"name":"Done"}}');
    // A status value for a select column, a string for the option, a lower-case option: the column's type and the
    // option the caller meant, written as the column takes it.
    expect(await refused({ Status: { status: { name: 'done' } } })).toEqual({
      '/properties/Status': '`Status` is a select column; its value needs the `select` member (given `status`), e.g. {"select":{"name":"Done"}}',
    });
    expect(await refused({ Status: { select: 'Done' } })).toEqual({
      '/properties/Status/select': '`Status` is a select column; `select` must be an object {name} (or {id}), or null (a plain string is not an option), e.g. {"select":{"name":"Done"}}',
    });
    expect((await refused({ Status: { select: { name: 'done' } } }))['/properties/Status/select/name']).toBe(
      '`Status` is a select column with the option `Done`, not `done` (option names are exact: Notion would add `done` as another option); send {"name":"Done"}',
    );
    expect((await refused({ status: { select: { name: 'Done' } } }))['/properties/status']).toMatch(/^`status` is not a column of this database; did you mean `Status`\?/);
    // A page outside a database has its title only.
    expect(await refused({ Status: { select: { name: 'Done' } } }, home)).toEqual({
      '/properties/Status': '`Status` is not a property of this page: a page outside a database has one property, its title, keyed `title`, e.g. {"title":{"title":[{"text":{"content":"New name"}}]}}',
    });
    expect(patches()).toBe(before);
  });

  it('a status takes only its options (Notion adds none): one that does not exist is refused listing them', async () => {
    const board = await run('workspace_database_create', {
      parent: { page_id: home },
      title: text('Board'),
      properties: { Name: { title: {} }, Stage: { status: { options: [{ name: 'Not started' }, { name: 'In progress' }, { name: 'Done' }] } } },
    });
    const card = (await run('workspace_database_insert_row', { database_id: board.body.data.id, properties: { Name: { title: text('card') } } })).body.data.id;
    expect(await refused({ Stage: { status: { name: 'Shipped' } } }, card)).toEqual({
      '/properties/Stage/status/name':
        '`Stage` is a status column without the option `Shipped` (Notion adds no status option when a page is written); its options: `Not started`, `In progress`, `Done`; send one of them, e.g. {"name":"Not started"}',
    });
    expect(await refused({ Stage: { status: 'in progress' } }, card)).toEqual({
      '/properties/Stage/status': '`Stage` is a status column; `status` must be an object {name} (or {id}), or null (a plain string is not an option), e.g. {"status":{"name":"In progress"}}',
    });
    const moved = await run('workspace_page_update', { page_id: card, properties: { Stage: { status: { name: 'In progress' } } }, workspace_version: '2025-09-03' });
    expect(moved.body.data.properties.Stage.status.name).toBe('In progress');
    expect(moved.body.data.parent).toMatchObject({ type: 'data_source_id', database_id: board.body.data.id });
  });

  it('the trash: in_trash (or archived) moves a page there; another change is refused with how to restore it', async () => {
    const page = (await run('workspace_page_create', { parent_page_id: home, properties: { title: { title: text('Old notes') } } })).body.data.id;
    expect((await run('workspace_page_update', { page_id: page, in_trash: true })).body.data).toMatchObject({ in_trash: true });
    const edit = await run('workspace_page_update', { page_id: page, properties: { title: { title: text('New notes') } } });
    expect(edit.status).toBe(400);
    expect(edit.body.error.code).toBe('upstream_error');
    expect(edit.body.error.details.hint).toBe('The page is in the trash: restore it first with {"page_id": ..., "in_trash": false} alone, then send the change.');
    expect((await run('workspace_page_update', { page_id: page, archived: false })).body.data).toMatchObject({ in_trash: false });
    expect((await run('workspace_page_update', { page_id: page, properties: { title: { title: text('New notes') } } })).status).toBe(200);
  });

  it('a value only Notion can refuse (a file item of no kind): its list of shapes comes with the value shapes, not the block hint', async () => {
    const library = await run('workspace_database_create', { parent: { page_id: home }, title: text('Library'), properties: { Name: { title: {} }, Docs: { files: {} } } });
    const item = (await run('workspace_database_insert_row', { database_id: library.body.data.id, properties: { Name: { title: text('brief') } } })).body.data.id;
    const res = await run('workspace_page_update', { page_id: item, properties: { Docs: { files: [{ name: 'Spec', url: 'https://example.com/spec.pdf' }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upstream_error');
    expect(res.body.error.message).toContain('body.properties.Docs.files[0].external should be defined');
    expect(res.body.error.details.hint).toMatch(/^Notion lists the shapes a property value may take: .*a file is \{"name": "Spec", "external": \{"url": "https:\/\/\.\.\."\}\}\.$/);
  });

  it('a page that does not exist or is not shared: the hint says where page ids come from', async () => {
    for (const input of [{ properties: { title: { title: text('x') } } }, { in_trash: true }]) {
      const res = await run('workspace_page_update', { page_id: '0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0', ...input });
      expect(res.status).toBe(404);
      expect(res.body.error.details.hint).toMatch(/^page_id names no page shared with this integration: workspace_search and workspace_database_query/);
    }
  });

  it('the page\'s parent is read once while cached; a change with no properties reads nothing', async () => {
    await run('workspace_page_update', { page_id: row, properties: { Priority: { number: 1 } } });
    const reads = pageReads(row);
    expect(reads).toBeGreaterThan(0);
    await run('workspace_page_update', { page_id: row, properties: { Priority: { number: 2 } } });
    await run('workspace_page_update', { page_id: row, icon: { type: 'emoji', emoji: '✅' } });
    expect(pageReads(row)).toBe(reads);
  });
});
