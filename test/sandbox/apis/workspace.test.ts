import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { getPage, updatePage } from '../../../sandbox/apis/workspace/pages.js';
import { seedWorkspace } from '../../../sandbox/apis/workspace/state.js';

type Json = Record<string, any>;

describe('Notion API fake', () => {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox();
    token = sb.control.issueTokens('notion', 'alice@example.com').accessToken;
  });
  afterAll(() => sb.close());

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'notion-version': '2022-06-28' }) {
    const res = await fetch(`${sb.url}/notion${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }
  const title = (s: string) => [{ type: 'text', text: { content: s } }];

  async function seeded() {
    const s = await call('POST', '/v1/search', {});
    const home = s.body.results.find((r: Json) => r.object === 'page' && r.properties.title?.title?.[0]?.plain_text === 'Getting started');
    const tasks = s.body.results.find((r: Json) => r.object === 'database' && r.title[0]?.plain_text === 'Tasks');
    return { home, tasks };
  }

  it('requires Notion-Version', async () => {
    const r = await call('GET', '/v1/users/me', undefined, {});
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ object: 'error', status: 400, code: 'missing_version' });
  });

  it('GET /v1/users/me is the bot user', async () => {
    const r = await call('GET', '/v1/users/me');
    expect(r.body).toMatchObject({ object: 'user', type: 'bot', bot: { owner: { type: 'user' } } });
  });

  it('seeds a shared page and a Tasks database; the private page is not visible', async () => {
    const s = await call('POST', '/v1/search', {});
    expect(s.body).toMatchObject({ object: 'list', type: 'page_or_database', page_or_database: {}, has_more: false, next_cursor: null });
    const titles = s.body.results.map((r: Json) => (r.object === 'database' ? r.title[0].plain_text : r.properties.title?.title?.[0]?.plain_text ?? r.properties.Name.title[0].plain_text));
    expect(titles).toContain('Getting started');
    expect(titles).toContain('Tasks');
    expect(titles).not.toContain('Private notes');
  });

  it('search matches titles and filters by object, with cursor pagination', async () => {
    const q = await call('POST', '/v1/search', { query: 'venue' });
    expect(q.body.results).toHaveLength(1);
    const dbs = await call('POST', '/v1/search', { filter: { property: 'object', value: 'database' } });
    expect(dbs.body.results.every((r: Json) => r.object === 'database')).toBe(true);
    const p1 = await call('POST', '/v1/search', { page_size: 2 });
    expect(p1.body.results).toHaveLength(2);
    expect(p1.body.has_more).toBe(true);
    const p2 = await call('POST', '/v1/search', { page_size: 2, start_cursor: p1.body.next_cursor });
    expect(p2.body.results[0].id).not.toBe(p1.body.results[0].id);
    expect((await call('POST', '/v1/search', { filter: { property: 'object', value: 'data_source' } })).status).toBe(400);
    expect((await call('POST', '/v1/search', { page_size: 101 })).body).toMatchObject({ status: 400, code: 'validation_error' });
    expect((await call('POST', '/v1/search', { start_cursor: 'bogus' })).status).toBe(400);
  });

  it('creates a page under a page with children and icon; GET returns it; 404 for unknown ids', async () => {
    const { home } = await seeded();
    const created = await call('POST', '/v1/pages', {
      parent: { page_id: home.id.replace(/-/g, '') },
      properties: { title: { title: title('Meeting notes') } },
      children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: title('hello') } }],
      icon: { type: 'emoji', emoji: '📝' },
      cover: { type: 'external', external: { url: 'https://example.com/c.png' } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'page', parent: { type: 'page_id', page_id: home.id }, icon: { type: 'emoji', emoji: '📝' }, archived: false });
    expect(created.body.properties.title).toMatchObject({ id: 'title', type: 'title', title: [{ plain_text: 'Meeting notes', annotations: { bold: false } }] });
    expect((await call('GET', `/v1/pages/${created.body.id}`)).body.id).toBe(created.body.id);
    const kids = await call('GET', `/v1/blocks/${created.body.id}/children`);
    expect(kids.body.results[0]).toMatchObject({ object: 'block', type: 'paragraph' });
    const missing = await call('GET', '/v1/pages/00000000-0000-4000-8000-000000000000');
    expect(missing.body).toMatchObject({ status: 404, code: 'object_not_found' });
    expect((await call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { Foo: { rich_text: [] } } })).body.code).toBe('validation_error');
    expect((await call('POST', '/v1/pages', { parent: { page_id: home.id }, icon: { type: 'emoji' } })).status).toBe(400);
  });

  it('database rows: keys by name or id, title id `title`, schema-checked values, select auto-created', async () => {
    const { tasks } = await seeded();
    const db = (await call('GET', `/v1/databases/${tasks.id}`)).body;
    expect(db.properties.Name).toMatchObject({ id: 'title', type: 'title' });
    const statusId = db.properties.Status.id;
    const row = await call('POST', '/v1/pages', {
      parent: { database_id: tasks.id },
      properties: {
        title: { title: title('Order snacks') },
        [statusId]: { select: { name: 'Blocked' } },
        Priority: { number: 5 },
        Due: { date: { start: '2025-02-01' } },
      },
    });
    expect(row.status).toBe(200);
    expect(row.body.properties).toMatchObject({
      Name: { id: 'title', title: [{ plain_text: 'Order snacks' }] },
      Status: { type: 'select', select: { name: 'Blocked' } },
      Priority: { number: 5 },
      Due: { date: { start: '2025-02-01', end: null } },
      Done: { checkbox: false },
      Notes: { rich_text: [] },
    });
    const after = (await call('GET', `/v1/databases/${tasks.id}`)).body;
    expect(after.properties.Status.select.options.map((o: Json) => o.name)).toContain('Blocked');
    const wrongType = await call('POST', '/v1/pages', { parent: { database_id: tasks.id }, properties: { Priority: { rich_text: [] } } });
    expect(wrongType.body).toMatchObject({ code: 'validation_error' });
    const noProps = await call('POST', '/v1/pages', { parent: { database_id: tasks.id } });
    expect(noProps.status).toBe(400);
    const caseSensitive = await call('POST', '/v1/pages', { parent: { database_id: tasks.id }, properties: { priority: { number: 1 } } });
    expect(caseSensitive.status).toBe(400);
  });

  it('pages and databases say in_trash beside archived in every version (the 2022-06-28 client, 4.0.2, types both)', async () => {
    const { home, tasks } = await seeded();
    const v25 = { 'notion-version': '2025-09-03' };
    const answers = [
      (await call('GET', `/v1/pages/${home.id}`)).body,
      (await call('GET', `/v1/pages/${home.id}`, undefined, v25)).body,
      (await call('GET', `/v1/databases/${tasks.id}`)).body,
      (await call('GET', `/v1/databases/${tasks.id}`, undefined, v25)).body,
      (await call('POST', `/v1/databases/${tasks.id}/query`, { page_size: 1 })).body.results[0],
    ];
    for (const a of answers) expect(a).toMatchObject({ archived: false, in_trash: false });
    const page = await call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { title: { title: title('Old notes') } } });
    expect((await call('PATCH', `/v1/pages/${page.body.id}`, { archived: true })).body).toMatchObject({ archived: true, in_trash: true });
  });

  it('PATCH /v1/pages/{id}: only the properties sent change, checked against the schema, in Notion\'s words', async () => {
    const { home } = await seeded();
    const made = await call('POST', '/v1/databases', {
      parent: { type: 'page_id', page_id: home.id },
      title: title('Board'),
      properties: { Name: { title: {} }, Stage: { status: { options: [{ name: 'Not started' }, { name: 'Done' }] } }, Tag: { select: { options: [{ name: 'ops' }] } } },
    });
    const row = (await call('POST', '/v1/pages', { parent: { database_id: made.body.id }, properties: { Name: { title: title('Card') }, Tag: { select: { name: 'ops' } } } })).body;
    const patch = (body: unknown, id = row.id) => call('PATCH', `/v1/pages/${id}`, body);

    const done = await patch({ properties: { Stage: { status: { name: 'Done' } } } });
    expect(done.status).toBe(200);
    expect(done.body.properties).toMatchObject({ Stage: { type: 'status', status: { name: 'Done' } }, Tag: { select: { name: 'ops' } }, Name: { title: [{ plain_text: 'Card' }] } });

    const refused = async (body: unknown, id?: string) => {
      const r = await patch(body, id);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_error');
      return r.body.message;
    };
    expect(await refused({ properties: { stage: { status: { name: 'Done' } } } })).toBe('stage is not a property that exists.');
    expect(await refused({ properties: { Stage: { select: { name: 'Done' } } } })).toBe('Stage is expected to be status.');
    // A status takes only its options (Notion's API cannot add one); a select adds a name it does not have.
    expect(await refused({ properties: { Stage: { status: { name: 'Shipped' } } } })).toBe('body failed validation: body.properties.Stage.status: option `Shipped` does not exist.');
    expect((await patch({ properties: { Tag: { select: { name: 'infra' } } } })).body.properties.Tag.select.name).toBe('infra');
    // A page outside a database has its title only.
    expect(await refused({ properties: { Stage: { status: { name: 'Done' } } } }, home.id)).toBe('Stage is not a property that exists.');
    // A page that does not exist, and one not shared with the integration (the seed's private page), read alike.
    const missing = await patch({ properties: { title: { title: title('x') } } }, '0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'object_not_found', message: 'Could not find page with ID: 0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0. Make sure the relevant pages and databases are shared with your integration.' });
    const ws = seedWorkspace('unshared@example.com', Date.now());
    const hidden = [...ws.pages.values()].find((p) => !p.shared)!;
    const request = { method: 'PATCH', path: '', query: new URLSearchParams(), headers: {}, body: { in_trash: false }, user: 'unshared@example.com', scopes: [], now: Date.now() };
    expect(() => updatePage(ws, request, hidden.id)).toThrow(`Could not find page with ID: ${hidden.id}.`);
    expect(() => getPage(ws, request, hidden.id)).toThrow(`Could not find page with ID: ${hidden.id}.`);

    // The trash: in_trash (or archived) moves the page there; it is still read, says so, and takes only a restore.
    expect((await patch({ in_trash: true })).body).toMatchObject({ in_trash: true, archived: true });
    expect((await call('GET', `/v1/pages/${row.id}`)).body).toMatchObject({ id: row.id, in_trash: true });
    const edit = { properties: { Stage: { status: { name: 'Not started' } } } };
    expect(await refused(edit)).toBe("Can't edit block that is archived. You must unarchive the block before editing.");
    expect(await refused({ icon: { type: 'emoji', emoji: '📌' } })).toBe("Can't edit block that is archived. You must unarchive the block before editing.");
    expect((await call('GET', `/v1/pages/${row.id}`)).body.properties.Stage.status.name).toBe('Done');
    expect((await patch({ archived: false })).body).toMatchObject({ in_trash: false, archived: false });
    expect((await patch(edit)).body.properties.Stage.status.name).toBe('Not started');
    expect(await refused({ in_trash: 'yes' })).toBe('body failed validation: body.in_trash should be a boolean, instead was `"yes"`.');
  });

  it('creates databases with exactly one title property', async () => {
    const { home } = await seeded();
    const ok = await call('POST', '/v1/databases', {
      parent: { type: 'page_id', page_id: home.id },
      title: title('Contacts'),
      properties: { Name: { title: {} }, Stage: { select: { options: [{ name: 'Lead' }] } } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ object: 'database', title: [{ plain_text: 'Contacts' }], properties: { Name: { id: 'title' }, Stage: { type: 'select' } } });
    expect((await call('POST', '/v1/databases', { parent: { page_id: home.id }, title: title('X'), properties: { A: { rich_text: {} } } })).status).toBe(400);
    expect((await call('POST', '/v1/databases', { parent: { page_id: home.id }, title: title('X'), properties: { A: { title: {} }, B: { title: {} } } })).status).toBe(400);
  });

  it('queries with filters, sorts, filter_properties and pagination', async () => {
    const { tasks } = await seeded();
    const q = (body: unknown, qs = '') => call('POST', `/v1/databases/${tasks.id}/query${qs}`, body);
    const names = (r: { body: Json }) => r.body.results.map((p: Json) => p.properties.Name?.title[0]?.plain_text);
    const byPriority = await q({ sorts: [{ property: 'Priority', direction: 'ascending' }] });
    expect(byPriority.body).toMatchObject({ object: 'list', type: 'page_or_database' });
    expect(names(byPriority).slice(0, 3)).toEqual(['Write the launch plan', 'Book the venue', 'Send invitations']);
    const done = await q({ filter: { property: 'Done', checkbox: { equals: true } } });
    expect(names(done)).toEqual(['Send invitations']);
    const compound = await q({
      filter: { or: [{ property: 'Status', select: { equals: 'Todo' } }, { and: [{ property: 'Priority', number: { less_than: 2 } }, { property: 'Name', title: { contains: 'LAUNCH' } }] }] },
      sorts: [{ property: 'Due', direction: 'descending' }],
    });
    expect(names(compound)).toEqual(['Book the venue', 'Write the launch plan']);
    const dated = await q({ filter: { property: 'Due', date: { on_or_after: '2025-01-10' } }, sorts: [{ timestamp: 'created_time', direction: 'ascending' }] });
    expect(names(dated)).toEqual(expect.arrayContaining(['Write the launch plan', 'Book the venue']));
    expect((await q({ filter: { property: 'Done', select: { equals: 'x' } } })).status).toBe(400);
    expect((await q({ sorts: [{ property: 'Priority', direction: 'up' }] })).status).toBe(400);
    const limited = await q({}, '?filter_properties=title');
    expect(Object.keys(limited.body.results[0].properties)).toEqual(['Name']);
    const p1 = await q({ page_size: 1, sorts: [{ property: 'Priority', direction: 'ascending' }] });
    expect(p1.body.has_more).toBe(true);
    const p2 = await q({ page_size: 1, start_cursor: p1.body.next_cursor, sorts: [{ property: 'Priority', direction: 'ascending' }] });
    expect(names(p2)).toEqual(['Book the venue']);
    expect((await q({ page_size: 101 })).body.code).toBe('validation_error');
  });

  it('queries by people and relation: contains and does_not_contain an id (hyphens optional), is_empty', async () => {
    const { home, tasks } = await seeded();
    const me = (await call('GET', '/v1/users/me')).body.id as string;
    const db = await call('POST', '/v1/databases', {
      parent: { page_id: home.id },
      title: title('Reviews'),
      properties: { Name: { title: {} }, Owner: { people: {} }, Task: { relation: { database_id: tasks.id, single_property: {} } } },
    });
    expect(db.status).toBe(200);
    const task = (await call('POST', `/v1/databases/${tasks.id}/query`, {})).body.results[0].id as string;
    const add = (name: string, props: Json) => call('POST', '/v1/pages', { parent: { database_id: db.body.id }, properties: { Name: { title: title(name) }, ...props } });
    expect((await add('Mine, on the task', { Owner: { people: [{ id: me }] }, Task: { relation: [{ id: task }] } })).status).toBe(200);
    expect((await add('Nobody', {})).status).toBe(200);
    const q = async (filter: unknown) => {
      const r = await call('POST', `/v1/databases/${db.body.id}/query`, { filter });
      expect(r.status).toBe(200);
      return r.body.results.map((p: Json) => p.properties.Name.title[0].plain_text);
    };
    expect(await q({ property: 'Owner', people: { contains: me } })).toEqual(['Mine, on the task']);
    expect(await q({ property: 'Task', relation: { contains: task.replace(/-/g, '') } })).toEqual(['Mine, on the task']);
    expect(await q({ property: 'Task', relation: { does_not_contain: task } })).toEqual(['Nobody']);
    expect(await q({ property: 'Owner', people: { is_empty: true } })).toEqual(['Nobody']);
    const notTrue = await call('POST', `/v1/databases/${db.body.id}/query`, { filter: { property: 'Owner', people: { is_empty: false } } });
    expect(notTrue.body.message).toBe('body failed validation: body.filter.people.is_empty should be `true`, instead was `false`.');
    // A person's e-mail, or a page's title, is no id: refused as Notion refuses a non-UUID, never an empty list.
    const byEmail = await call('POST', `/v1/databases/${db.body.id}/query`, { filter: { property: 'Owner', people: { contains: 'alice@example.com' } } });
    expect(byEmail.status).toBe(400);
    expect(byEmail.body.message).toBe('body failed validation: body.filter.people.contains should be a valid uuid, instead was `"alice@example.com"`.');
    const byTitle = await call('POST', `/v1/databases/${db.body.id}/query`, { filter: { property: 'Task', relation: { does_not_contain: 'Book the venue' } } });
    expect(byTitle.status).toBe(400);
    expect(byTitle.body.message).toBe('body failed validation: body.filter.relation.does_not_contain should be a valid uuid, instead was `"Book the venue"`.');
  });

  it('comments: new discussion on a page, reply by discussion_id, get, list paginated', async () => {
    const { home } = await seeded();
    const first = await call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: title('First!') });
    expect(first.body).toMatchObject({ object: 'comment', parent: { type: 'page_id', page_id: home.id }, rich_text: [{ plain_text: 'First!' }] });
    const reply = await call('POST', '/v1/comments', { discussion_id: first.body.discussion_id, rich_text: title('Reply') });
    expect(reply.body.discussion_id).toBe(first.body.discussion_id);
    expect((await call('GET', `/v1/comments/${reply.body.id}`)).body.id).toBe(reply.body.id);
    const both = await call('POST', '/v1/comments', { parent: { page_id: home.id }, discussion_id: first.body.discussion_id, rich_text: title('x') });
    expect(both.body.code).toBe('validation_error');
    const neither = await call('POST', '/v1/comments', { rich_text: title('x') });
    expect(neither.status).toBe(400);
    // A union's branches one a line, as Notion writes them.
    expect(neither.body.message).toBe('body failed validation. Fix one:\nbody.parent should be defined, instead was `undefined`.\nbody.discussion_id should be defined, instead was `undefined`.');
    const l1 = await call('GET', `/v1/comments?block_id=${home.id}&page_size=1`);
    expect(l1.body).toMatchObject({ object: 'list', type: 'comment', comment: {}, has_more: true });
    const l2 = await call('GET', `/v1/comments?block_id=${home.id}&page_size=1&start_cursor=${l1.body.next_cursor}`);
    expect(l2.body.results[0].id).toBe(reply.body.id);
    expect((await call('GET', '/v1/comments?block_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('rich text: a link is an absolute URL of at most 2000 characters inside text, an equation at most 1000 characters', async () => {
    const { home } = await seeded();
    const linked = (link: unknown) => [{ type: 'text', text: { content: 'docs', link } }];
    const ok = await call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: linked({ url: 'https://example.com/docs' }) });
    expect(ok.status).toBe(200);
    expect(ok.body.rich_text[0]).toMatchObject({ text: { content: 'docs', link: { url: 'https://example.com/docs' } }, href: 'https://example.com/docs' });
    for (const url of ['url', '/relative/page', 'example.com']) {
      const bad = await call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: linked({ url }) });
      expect(bad.body).toMatchObject({ object: 'error', status: 400, code: 'validation_error', message: 'Invalid URL for link.' });
    }
    const long = await call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: linked({ url: `https://example.com/${'a'.repeat(2000)}` }) });
    expect(long.body).toMatchObject({ status: 400, code: 'validation_error' });
    expect(long.body.message).toContain('body.rich_text[0].text.link.url.length');
    expect((await call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: linked('https://example.com') })).body.code).toBe('validation_error');
    const beside = await call('POST', '/v1/pages', {
      parent: { page_id: home.id },
      properties: { title: { title: title('Links') } },
      children: [{ type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'x' }, link: { url: 'https://example.com' } }] } }],
    });
    expect(beside.body).toMatchObject({ status: 400, code: 'validation_error' });
    expect(beside.body.message).toContain('body.children[0].paragraph.rich_text[0].link should be not present');
    const equation = (expression: string) => call('POST', '/v1/comments', { parent: { page_id: home.id }, rich_text: [{ type: 'equation', equation: { expression } }] });
    expect((await equation('x'.repeat(1000))).status).toBe(200);
    expect((await equation('x'.repeat(1001))).body).toMatchObject({ status: 400, code: 'validation_error' });
  });

  it('block children nest two levels below the blocks sent, each level checked as the top one', async () => {
    const { home } = await seeded();
    const toggle = (text: string, children?: unknown[]) => ({ type: 'toggle', toggle: { rich_text: title(text), ...(children ? { children } : {}) } });
    const page = (children: unknown[]) => call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { title: { title: title('Nested') } }, children });
    const ok = await page([toggle('1', [toggle('2', [toggle('3')])])]);
    expect(ok.status).toBe(200);
    const kids = await call('GET', `/v1/blocks/${ok.body.id}/children`);
    expect(kids.body.results[0]).toMatchObject({ type: 'toggle', has_children: true });
    const deep = await page([toggle('1', [toggle('2', [toggle('3', [toggle('4')])])])]);
    expect(deep.body).toMatchObject({ status: 400, code: 'validation_error' });
    expect(deep.body.message).toContain('body.children[0].toggle.children[0].toggle.children[0].toggle.children should be not present');
    const longText = await page([toggle('1', [{ type: 'paragraph', paragraph: { rich_text: title('x'.repeat(2001)) } }])]);
    expect(longText.body).toMatchObject({ status: 400, code: 'validation_error' });
    expect(longText.body.message).toContain('body.children[0].toggle.children[0].paragraph.rich_text[0].text.content.length');
    const many = await page([toggle('1', Array.from({ length: 101 }, (_, i) => toggle(String(i))))]);
    expect(many.body.message).toContain('body.children[0].toggle.children.length should be ≤ `100`');
    const appended = await call('PATCH', `/v1/blocks/${ok.body.id}/children`, { children: [toggle('a', [toggle('b', [toggle('c', [toggle('d')])])])] });
    expect(appended.body).toMatchObject({ status: 400, code: 'validation_error' });
  });

  // Notion's answer to a block type it does not have (`note`, appended), quoted verbatim in a public test fixture
  // (request 6afdaebe-2879-4c24-9139-adf803caff89): the union of the 34 block types, one line each, in this order.
  const NOTION_BLOCK_TYPES = [
    'embed', 'bookmark', 'image', 'video', 'pdf', 'file', 'audio', 'code', 'equation', 'divider', 'breadcrumb', 'tab', 'table_of_contents',
    'link_to_page', 'table_row', 'ai_block', 'meeting_notes', 'custom_block', 'table', 'column_list', 'column', 'heading_1', 'heading_2',
    'heading_3', 'heading_4', 'paragraph', 'bulleted_list_item', 'numbered_list_item', 'quote', 'to_do', 'toggle', 'template', 'callout',
    'synced_block',
  ];
  const unknownType = (at: string) => ['body failed validation. Fix one:', ...NOTION_BLOCK_TYPES.map((t) => `${at}.${t} should be defined, instead was \`undefined\`.`)].join('\n');

  it('a block type Notion does not have is refused with every type it has, at any depth, and nothing is written', async () => {
    const { home } = await seeded();
    const text = (type: string) => ({ object: 'block', type, [type]: { rich_text: title('x') } });
    const appended = await call('PATCH', `/v1/blocks/${home.id}/children`, { children: [text('paragraph'), text('note')] });
    expect(appended.body).toEqual({ object: 'error', status: 400, code: 'validation_error', message: unknownType('body.children[1]'), request_id: expect.any(String) });
    // Without `type`, the first key names it, as for a known type.
    const untyped = await call('PATCH', `/v1/blocks/${home.id}/children`, { children: [{ bullet: { rich_text: title('x') } }] });
    expect(untyped.body.message).toBe(unknownType('body.children[0]'));
    const nested = await call('POST', '/v1/pages', {
      parent: { page_id: home.id },
      properties: { title: { title: title('Nested') } },
      children: [{ type: 'toggle', toggle: { rich_text: title('t'), children: [text('heading_5')] } }],
    });
    expect(nested.body.message).toBe(unknownType('body.children[0].toggle.children[0]'));
    expect((await call('GET', `/v1/blocks/${home.id}/children`)).body.results.map((b: Json) => b.type)).not.toContain('note');
    // Every type in Notion's list is taken; heading_4 is one of them.
    const heading4 = await call('PATCH', `/v1/blocks/${home.id}/children`, { children: [text('heading_4'), { type: 'divider', divider: {} }] });
    expect(heading4.status).toBe(200);
    expect(heading4.body.results.map((b: Json) => b.type)).toEqual(['heading_4', 'divider']);
  });

  it('block children: a nested block is read by its own id; a block answers its parent and has_children, never its children', async () => {
    const { home } = await seeded();
    const seed = await call('GET', `/v1/blocks/${home.id}/children`);
    expect(seed.body.results[0]).toMatchObject({ object: 'block', id: expect.stringMatching(/^[0-9a-f-]{36}$/), parent: { type: 'page_id', page_id: home.id }, type: 'paragraph', has_children: false });
    const toggle = (text: string, children?: unknown[]) => ({ type: 'toggle', toggle: { rich_text: title(text), ...(children ? { children } : {}) } });
    const made = await call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { title: { title: title('Outline') } }, children: [toggle('1', [toggle('1.1', [toggle('1.1.1')])]), toggle('2')] });
    const top = (await call('GET', `/v1/blocks/${made.body.id}/children`)).body;
    expect(top).toMatchObject({ object: 'list', type: 'block', block: {}, has_more: false, next_cursor: null });
    expect(top.results.map((b: Json) => [b.toggle.rich_text[0].plain_text, b.has_children])).toEqual([['1', true], ['2', false]]);
    expect(top.results[0].toggle).not.toHaveProperty('children');
    expect(top.results[0]).toMatchObject({ parent: { type: 'page_id', page_id: made.body.id }, archived: false, in_trash: false });
    const second = (await call('GET', `/v1/blocks/${top.results[0].id.replace(/-/g, '')}/children`)).body;
    expect(second.results).toMatchObject([{ type: 'toggle', has_children: true, parent: { type: 'block_id', block_id: top.results[0].id } }]);
    const third = (await call('GET', `/v1/blocks/${second.results[0].id}/children`)).body;
    expect(third.results.map((b: Json) => b.toggle.rich_text[0].plain_text)).toEqual(['1.1.1']);
    // Appending to a nested block, and reading it back there.
    const under = await call('PATCH', `/v1/blocks/${third.results[0].id}/children`, { children: [toggle('1.1.1.1')] });
    expect(under.status).toBe(200);
    expect(under.body.results).toMatchObject([{ parent: { type: 'block_id', block_id: third.results[0].id } }]);
    expect((await call('GET', `/v1/blocks/${second.results[0].id}/children`)).body.results[0].has_children).toBe(true);
  });

  it('append: to the end, or after a block of the parent; answers the new blocks only; refusals in Notion\'s words', async () => {
    const { home } = await seeded();
    const para = (text: string) => ({ type: 'paragraph', paragraph: { rich_text: title(text) } });
    const texts = (list: Json) => list.results.map((b: Json) => b.paragraph.rich_text[0].plain_text);
    const made = await call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { title: { title: title('Notes') } }, children: [para('a'), para('b')] });
    const page = made.body.id as string;
    const end = await call('PATCH', `/v1/blocks/${page}/children`, { children: [para('d')] });
    expect(end.body).toMatchObject({ object: 'list', type: 'block', block: {}, has_more: false, next_cursor: null });
    expect(texts(end.body)).toEqual(['d']);
    const b = (await call('GET', `/v1/blocks/${page}/children`)).body.results[1].id;
    const after = await call('PATCH', `/v1/blocks/${page}/children`, { children: [para('c1'), para('c2')], after: b.replace(/-/g, '') });
    expect(texts(after.body)).toEqual(['c1', 'c2']);
    expect(texts((await call('GET', `/v1/blocks/${page}/children`)).body)).toEqual(['a', 'b', 'c1', 'c2', 'd']);
    const paged = (await call('GET', `/v1/blocks/${page}/children?page_size=2&start_cursor=${(await call('GET', `/v1/blocks/${page}/children?page_size=2`)).body.next_cursor}`)).body;
    expect(texts(paged)).toEqual(['c1', 'c2']);
    expect(paged.has_more).toBe(true);
    // `after` names a block that is not a child of this parent: Notion's 400.
    const stranger = (await call('GET', `/v1/blocks/${home.id}/children`)).body.results[0].id;
    expect((await call('PATCH', `/v1/blocks/${page}/children`, { children: [para('x')], after: stranger })).body).toEqual({
      object: 'error', status: 400, code: 'validation_error', message: `Block ID (${stranger}) to append children after is not parented by ${page}.`, request_id: expect.any(String),
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('PATCH', `/v1/blocks/${unknown}/children`, { children: [para('x')] })).body).toMatchObject({
      status: 404, code: 'object_not_found', message: `Could not find block with ID: ${unknown}. Make sure the relevant pages and databases are shared with your integration.`,
    });
    expect((await call('GET', `/v1/blocks/${unknown}/children`)).body).toMatchObject({ status: 404, code: 'object_not_found' });
    expect((await call('PATCH', `/v1/blocks/${page}/children`, { children: Array.from({ length: 101 }, (_, i) => para(String(i))) })).body).toMatchObject({
      status: 400, code: 'validation_error', message: 'body failed validation: body.children.length should be ≤ `100`, instead was `101`.',
    });
    expect((await call('PATCH', `/v1/blocks/${page}/children`, {})).body).toMatchObject({
      status: 400, code: 'validation_error', message: 'body failed validation: body.children should be defined, instead was `undefined`.',
    });
    // Nothing of the refused calls was written.
    expect(texts((await call('GET', `/v1/blocks/${page}/children`)).body)).toEqual(['a', 'b', 'c1', 'c2', 'd']);
  });

  // Which blocks hold children, and what Notion answers otherwise: 400 validation_error. The words are the sandbox's
  // (Notion's are not quoted anywhere public) except the schema form "... should be defined, instead was `undefined`."
  // and "... should be not present, ..." (its refusal of a column without children, and of a fourth level).
  const para = (text: string, children?: unknown[]) => ({ type: 'paragraph', paragraph: { rich_text: title(text), ...(children ? { children } : {}) } });
  const heading = (text: string, extra: Json = {}) => ({ type: 'heading_2', heading_2: { rich_text: title(text), ...extra } });
  const plain = (list: Json) => list.results.map((b: Json) => b.type);
  async function outline() {
    const { home } = await seeded();
    const made = await call('POST', '/v1/pages', {
      parent: { page_id: home.id },
      properties: { title: { title: title('Kickoff') } },
      children: [heading('Notes'), para('Kickoff went well.'), { type: 'divider', divider: {} }, heading('Open', { is_toggleable: true })],
    });
    expect(made.status).toBe(200);
    const blocks = (await call('GET', `/v1/blocks/${made.body.id}/children`)).body.results as Json[];
    return { page: made.body.id as string, blocks };
  }

  it('a heading holds children only as a toggle heading, a divider never: appending to one is refused and nothing is written', async () => {
    const { page, blocks } = await outline();
    const [notes, , divider, open] = blocks as [Json, Json, Json, Json];
    const under = await call('PATCH', `/v1/blocks/${notes.id}/children`, { children: [para('Summary: scope agreed.')] });
    expect(under.body).toEqual({
      object: 'error', status: 400, code: 'validation_error', message: `Block ${notes.id} of type heading_2 does not support children: its is_toggleable is false.`, request_id: expect.any(String),
    });
    expect((await call('PATCH', `/v1/blocks/${divider.id}/children`, { children: [para('x')] })).body).toMatchObject({
      status: 400, code: 'validation_error', message: `Block ${divider.id} of type divider does not support children.`,
    });
    // A toggle heading takes them.
    expect((await call('PATCH', `/v1/blocks/${open.id}/children`, { children: [para('Who books the room?')] })).status).toBe(200);
    expect((await call('GET', `/v1/blocks/${page}/children`)).body.results.map((b: Json) => b.has_children)).toEqual([false, false, false, true]);
    expect((await call('GET', `/v1/blocks/${notes.id}/children`)).body.results).toEqual([]);
    // Each heading says which it is.
    expect([notes.heading_2.is_toggleable, open.heading_2.is_toggleable]).toEqual([false, true]);
  });

  it('children sent inside a block that holds none are refused where they are, in any request, and nothing is written', async () => {
    const { home } = await seeded();
    const { page } = await outline();
    const before = plain((await call('GET', `/v1/blocks/${page}/children`)).body);
    const leaves: Json[] = [
      { type: 'divider', divider: {} },
      { type: 'image', image: { type: 'external', external: { url: 'https://example.com/a.png' } } },
      { type: 'code', code: { rich_text: title('x = 1'), language: 'python' } },
      { type: 'equation', equation: { expression: 'e=mc^2' } },
      { type: 'bookmark', bookmark: { url: 'https://example.com' } },
      { type: 'embed', embed: { url: 'https://example.com' } },
      { type: 'breadcrumb', breadcrumb: {} },
      { type: 'table_of_contents', table_of_contents: {} },
      heading('Static', { is_toggleable: false }),
    ];
    for (const leaf of leaves) {
      const block = { ...leaf, [leaf.type]: { ...leaf[leaf.type], children: [para('hidden')] } };
      const appended = await call('PATCH', `/v1/blocks/${page}/children`, { children: [para('first'), block] });
      expect(appended.body, leaf.type).toMatchObject({ status: 400, code: 'validation_error' });
      expect(appended.body.message, leaf.type).toBe(`body failed validation: body.children[1].${leaf.type}.children should be not present, instead was \`[{"type":"paragraph","paragraph":{"rich_...\`.`);
      const nested = await call('POST', '/v1/pages', { parent: { page_id: home.id }, properties: { title: { title: title('Nested leaf') } }, children: [{ type: 'toggle', toggle: { rich_text: title('t'), children: [block] } }] });
      expect(nested.body.message, leaf.type).toContain(`body.children[0].toggle.children[0].${leaf.type}.children should be not present`);
    }
    expect(plain((await call('GET', `/v1/blocks/${page}/children`)).body)).toEqual(before);
    expect((await call('POST', '/v1/search', { query: 'Nested leaf' })).body.results).toEqual([]);
    // A heading sent with children and no is_toggleable is made a toggle heading, holding them.
    const made = await call('PATCH', `/v1/blocks/${page}/children`, { children: [heading('Details', { children: [para('inside')] })] });
    expect(made.body.results[0]).toMatchObject({ type: 'heading_2', has_children: true, heading_2: { is_toggleable: true } });
    expect((await call('PATCH', `/v1/blocks/${page}/children`, { children: [heading('x', { is_toggleable: 'yes' })] })).body.message).toBe(
      'body failed validation: body.children[0].heading_2.is_toggleable should be a boolean, instead was `"yes"`.',
    );
  });

  it('a table holds table_row children only, each as wide as the table; a table_row goes nowhere else', async () => {
    const { page } = await outline();
    const before = plain((await call('GET', `/v1/blocks/${page}/children`)).body);
    const row = (...cells: string[]) => ({ type: 'table_row', table_row: { cells: cells.map(title) } });
    const table = (children?: unknown[], extra: Json = {}) => ({ type: 'table', table: { table_width: 2, has_column_header: true, ...extra, ...(children ? { children } : {}) } });
    const append = (children: unknown[], to = page) => call('PATCH', `/v1/blocks/${to}/children`, { children });
    const refusal = async (children: unknown[], to = page) => {
      const r = await append(children, to);
      expect(r.body, JSON.stringify(children)).toMatchObject({ status: 400, code: 'validation_error' });
      return r.body.message as string;
    };
    expect(await refusal([table()])).toBe('body failed validation: body.children[0].table.children should be defined, instead was `undefined`.');
    expect(await refusal([table([])])).toBe('body failed validation: body.children[0].table.children.length should be ≥ `1`, instead was `0`.');
    expect(await refusal([table([row('a', 'b'), para('c')])])).toBe('body failed validation: body.children[0].table.children[1].table_row should be defined, instead was `undefined`.');
    expect(await refusal([table([row('a', 'b'), row('c')])])).toBe("body failed validation: body.children[0].table.children[1].table_row.cells.length should be `2` (the table's table_width), instead was `1`.");
    expect(await refusal([table([row('a', 'b')], { table_width: undefined })])).toBe('body failed validation: body.children[0].table.table_width should be defined, instead was `undefined`.');
    expect(await refusal([row('a', 'b')])).toBe('body failed validation: body.children[0] is a table_row, which can only be a child of a table.');
    expect(plain((await call('GET', `/v1/blocks/${page}/children`)).body)).toEqual(before);

    const made = await append([table([row('Name', 'Role'), row('Ada', 'Lead')])]);
    expect(made.status).toBe(200);
    const t = made.body.results[0];
    expect(t).toMatchObject({ type: 'table', has_children: true, table: { table_width: 2 } });
    const rows = (await call('GET', `/v1/blocks/${t.id}/children`)).body.results;
    expect(rows.map((r: Json) => r.table_row.cells.map((c: Json) => c[0].plain_text))).toEqual([['Name', 'Role'], ['Ada', 'Lead']]);
    // Rows are added to the table as it is; anything else, or a row of another width, is refused; a row holds nothing.
    expect((await append([row('Grace', 'Eng')], t.id)).status).toBe(200);
    expect(await refusal([para('x')], t.id)).toBe('body failed validation: body.children[0].table_row should be defined, instead was `undefined`.');
    expect(await refusal([row('a', 'b'), row('a', 'b', 'c')], t.id)).toBe("body failed validation: body.children[1].table_row.cells.length should be `2` (the table's table_width), instead was `3`.");
    expect(await refusal([para('x')], rows[0].id)).toBe(`Block ${rows[0].id} of type table_row does not support children.`);
    expect((await call('GET', `/v1/blocks/${t.id}/children`)).body.results).toHaveLength(3);
  });

  it('a column_list holds two or more columns, each holding one block or more; a column goes nowhere else and holds no column', async () => {
    const { page } = await outline();
    const before = plain((await call('GET', `/v1/blocks/${page}/children`)).body);
    const column = (children?: unknown[]) => ({ type: 'column', column: children ? { children } : {} });
    const columns = (children?: unknown[]) => ({ type: 'column_list', column_list: children ? { children } : {} });
    const refusal = async (children: unknown[], to = page) => {
      const r = await call('PATCH', `/v1/blocks/${to}/children`, { children });
      expect(r.body, JSON.stringify(children)).toMatchObject({ status: 400, code: 'validation_error' });
      return r.body.message as string;
    };
    expect(await refusal([columns()])).toBe('body failed validation: body.children[0].column_list.children should be defined, instead was `undefined`.');
    expect(await refusal([columns([column([para('only')])])])).toBe('body failed validation: body.children[0].column_list.children.length should be ≥ `2`, instead was `1`.');
    expect(await refusal([columns([column([para('a')]), para('b')])])).toBe('body failed validation: body.children[0].column_list.children[1].column should be defined, instead was `undefined`.');
    // Notion's words for a column without children (quoted in seratch/notion-translator#4).
    expect(await refusal([columns([column([para('a')]), column()])])).toBe('body failed validation: body.children[0].column_list.children[1].column.children should be defined, instead was `undefined`.');
    expect(await refusal([columns([column([para('a')]), column([])])])).toBe('body failed validation: body.children[0].column_list.children[1].column.children.length should be ≥ `1`, instead was `0`.');
    expect(await refusal([columns([column([para('a')]), column([column([para('b')])])])])).toBe(
      'body failed validation: body.children[0].column_list.children[1].column.children[0] is a column, which a column cannot contain.',
    );
    expect(await refusal([column([para('a')])])).toBe('body failed validation: body.children[0] is a column, which can only be a child of a column_list.');
    expect(plain((await call('GET', `/v1/blocks/${page}/children`)).body)).toEqual(before);

    // Made right, each column's blocks may hold children of their own (a column is not a level of nesting).
    const made = await call('PATCH', `/v1/blocks/${page}/children`, { children: [columns([column([para('left', [para('under left')])]), column([para('right')])])] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const list = made.body.results[0];
    const cols = (await call('GET', `/v1/blocks/${list.id}/children`)).body.results;
    expect(plain({ results: cols })).toEqual(['column', 'column']);
    expect(await refusal([para('x')], list.id)).toBe('body failed validation: body.children[0].column should be defined, instead was `undefined`.');
    expect(await refusal([columns([column([para('a')]), column([para('b')])])], cols[0].id)).toBe('body failed validation: body.children[0] is a column_list, which a column cannot contain.');
    expect((await call('PATCH', `/v1/blocks/${list.id}/children`, { children: [column([para('third')])] })).status).toBe(200);
    expect((await call('PATCH', `/v1/blocks/${cols[1].id}/children`, { children: [para('more')] })).status).toBe(200);
  });

  it('a select value with neither id nor name is refused as Notion refuses a union, naming both fields, not "option `undefined`"', async () => {
    const { tasks } = await seeded();
    const res = await call('POST', '/v1/pages', { parent: { database_id: tasks.id }, properties: { title: { title: title('x') }, Status: { select: {} } } });
    expect(res.body).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: [
        'body failed validation. Fix one:',
        'body.properties.Status.select.id should be defined, instead was `undefined`.',
        'body.properties.Status.select.name should be defined, instead was `undefined`.',
      ].join('\n'),
    });
    // A name that is no string is named as such, with its value.
    const numbered = await call('POST', '/v1/pages', { parent: { database_id: tasks.id }, properties: { title: { title: title('x') }, Status: { select: { name: 3 } } } });
    expect(numbered.body.message).toBe(
      ['body failed validation. Fix one:', 'body.properties.Status.select.id should be defined, instead was `undefined`.', 'body.properties.Status.select.name should be a string, instead was `3`.'].join('\n'),
    );
  });

  it('a sort property that is no string is refused naming its value, not "[object Object]"', async () => {
    const { tasks } = await seeded();
    const res = await call('POST', `/v1/databases/${tasks.id}/query`, { sorts: [{ property: { name: 'Priority' }, direction: 'ascending' }] });
    expect(res.body).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'body failed validation: body.sorts[0].property should be a string, instead was `{"name":"Priority"}`.',
    });
  });

  it('keeps users apart', async () => {
    const { home } = await seeded();
    const bob = sb.control.issueTokens('notion', 'bob@example.com').accessToken;
    const res = await fetch(`${sb.url}/notion/v1/pages/${home.id}`, { headers: { authorization: `Bearer ${bob}`, 'notion-version': '2022-06-28' } });
    expect(res.status).toBe(404);
  });
});
