/**
 * A page's content through the tools, end to end (executor -> sandbox): written with workspace_page_create, read back
 * with workspace_page_read a page of blocks at a time, added to with workspace_page_append (at the end, after a
 * block, inside a block), read again in order; and the refusals an agent meets, with their hints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

type Data = Record<string, any>;
const text = (content: string) => [{ type: 'text', text: { content } }];
const para = (content: string) => ({ type: 'paragraph', paragraph: { rich_text: text(content) } });
/** A block's text, whatever its type. */
const textOf = (b: Data) => b[b.type].rich_text.map((r: Data) => r.plain_text).join('');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('workspace', 'notes');
  await h.authorize('notes', 'ada');
});
afterAll(() => h.close());

const run = (tool_name: string, tool_input: Record<string, unknown>) => h.env.executeTool({ tool_name, connection_name: 'notes', identifier: 'ada', tool_input });
const refused = (tool_name: string, tool_input: Record<string, unknown>) => run(tool_name, tool_input).then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as Data);

async function home(): Promise<string> {
  const found = (await run('workspace_search', { query: 'Getting started' })).data as Data;
  return found.results.find((r: Data) => r.object === 'page').id;
}

describe('a page written, read, added to and read again', () => {
  let page: string;
  it('workspace_page_create writes blocks, workspace_page_read reads them back a page at a time', async () => {
    const made = await run('workspace_page_create', {
      parent_page_id: await home(),
      properties: { title: { title: text('Meeting notes') } },
      child_blocks: [
        { type: 'heading_2', heading_2: { rich_text: text('Decisions') } },
        para('Ship on Friday'),
        { type: 'toggle', toggle: { rich_text: text('Details'), children: [para('Hidden detail')] } },
      ],
    });
    page = (made.data as Data).id;
    const first = (await run('workspace_page_read', { block_id: page.replace(/-/g, ''), page_size: 2 })).data as Data;
    expect(first.results.map(textOf)).toEqual(['Decisions', 'Ship on Friday']);
    expect(first).toMatchObject({ object: 'list', type: 'block', has_more: true, next_cursor: expect.any(String) });
    const second = (await run('workspace_page_read', { block_id: page, page_size: 2, start_cursor: first.next_cursor })).data as Data;
    expect(second.results.map(textOf)).toEqual(['Details']);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    // Top level only: the toggle says it holds more, read with its own id.
    expect(second.results[0]).toMatchObject({ type: 'toggle', has_children: true });
    expect(second.results[0].toggle).not.toHaveProperty('children');
    const inside = (await run('workspace_page_read', { block_id: second.results[0].id })).data as Data;
    expect(inside.results.map(textOf)).toEqual(['Hidden detail']);
  });

  it('workspace_page_append adds at the end, after a block, and inside a block; the page reads in that order', async () => {
    const end = (await run('workspace_page_append', { block_id: page, child_blocks: [{ type: 'to_do', to_do: { rich_text: text('Send the minutes') } }, { type: 'to_do', to_do: { rich_text: text('Book the room') } }] })).data as Data;
    expect(end.results.map(textOf)).toEqual(['Send the minutes', 'Book the room']);
    expect(end.results[0]).toMatchObject({ object: 'block', type: 'to_do', to_do: { checked: false }, parent: { type: 'page_id', page_id: page } });
    const blocks = ((await run('workspace_page_read', { block_id: page })).data as Data).results;
    await run('workspace_page_append', { block_id: page, child_blocks: [para('Owner: Ada')], after_block_id: blocks[1].id.replace(/-/g, '') });
    await run('workspace_page_append', { block_id: blocks[2].id, child_blocks: [para('Second detail')] });
    const all = ((await run('workspace_page_read', { block_id: page })).data as Data).results;
    expect(all.map(textOf)).toEqual(['Decisions', 'Ship on Friday', 'Owner: Ada', 'Details', 'Send the minutes', 'Book the room']);
    const inside = ((await run('workspace_page_read', { block_id: blocks[2].id })).data as Data).results;
    expect(inside.map(textOf)).toEqual(['Hidden detail', 'Second detail']);
  });

  it('refusals: an unknown id, a block of another parent, too many blocks, a text block without its list', async () => {
    const unknown = '0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0';
    for (const [tool, input] of [['workspace_page_read', { block_id: unknown }], ['workspace_page_append', { block_id: unknown, child_blocks: [para('x')] }]] as const) {
      const e = await refused(tool, input);
      expect(e).toMatchObject({ code: 'upstream_error', status: 404, details: { status: 404, body: { code: 'object_not_found' } } });
      expect(e.message).toContain(`Could not find block with ID: ${unknown}. Make sure the relevant pages and databases are shared with your integration.`);
      expect(e.details.hint).toMatch(/^block_id names no page or block shared with this integration: workspace_search lists/);
    }
    const other = ((await run('workspace_page_read', { block_id: await home() })).data as Data).results[0].id;
    const stranger = await refused('workspace_page_append', { block_id: page, child_blocks: [para('x')], after_block_id: other });
    expect(stranger).toMatchObject({ code: 'upstream_error', status: 400, details: { body: { code: 'validation_error' } } });
    expect(stranger.message).toContain(`Block ID (${other}) to append children after is not parented by ${page}.`);
    expect(stranger.details.hint).toMatch(/^after_block_id must be a top-level block of block_id/);
    // Over 100 at the top is refused before sending; over 100 inside a block is Notion's own refusal.
    h.sandbox.control.clearRequests();
    const many = await refused('workspace_page_append', { block_id: page, child_blocks: Array.from({ length: 101 }, (_, i) => para(String(i))) });
    expect(many).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(many.details.violations).toMatchObject([{ pointer: '/child_blocks', keyword: 'maxItems' }]);
    expect(h.sandbox.control.requests('workspace')).toEqual([]);
    const nested = await refused('workspace_page_append', { block_id: page, child_blocks: [{ type: 'toggle', toggle: { rich_text: text('t'), children: Array.from({ length: 101 }, (_, i) => para(String(i))) } }] });
    expect(nested).toMatchObject({ code: 'upstream_error', status: 400 });
    expect(nested.message).toContain('body failed validation: body.children[0].toggle.children.length should be ≤ `100`, instead was `101`.');
    const plain = await refused('workspace_page_append', { block_id: page, child_blocks: [{ type: 'bulleted_list_item', bulleted_list_item: { rich_text: 'Hire two engineers' } }] });
    expect(plain.details.hint).toMatch(/needs rich_text, a list such as/);
    // Nothing refused was written.
    expect(((await run('workspace_page_read', { block_id: page })).data as Data).results).toHaveLength(6);
  });
});

describe('children where Notion takes none, through the tools', () => {
  it('workspace_page_append under a heading is refused with a hint to write after it instead; sent so, it lands in the section', async () => {
    const made = await run('workspace_page_create', {
      parent_page_id: await home(),
      properties: { title: { title: text('Kickoff') } },
      child_blocks: [{ type: 'heading_2', heading_2: { rich_text: text('Notes') } }, para('Kickoff went well.'), { type: 'divider', divider: {} }, { type: 'heading_2', heading_2: { rich_text: text('Links') } }],
    });
    const page = (made.data as Data).id;
    const [notes, kickoff, divider] = ((await run('workspace_page_read', { block_id: page })).data as Data).results as Data[];
    const under = await refused('workspace_page_append', { block_id: notes!.id, child_blocks: [para('Summary: scope agreed.')] });
    expect(under).toMatchObject({ code: 'upstream_error', status: 400, details: { body: { code: 'validation_error' } } });
    expect(under.message).toContain(`Block ${notes!.id} of type heading_2 does not support children: its is_toggleable is false.`);
    expect(under.details.hint).toMatch(/^block_id is a heading, which holds no blocks \(only a toggle heading does\): to add under it, send its page as block_id and, as after_block_id, the last block/);
    const afterDivider = await refused('workspace_page_append', { block_id: divider!.id, child_blocks: [para('x')] });
    expect(afterDivider.details.hint).toMatch(/^block_id is a block that holds no blocks \(a divider, image, code, table row, \.\.\.\): to add after it/);
    await run('workspace_page_append', { block_id: page, after_block_id: kickoff!.id, child_blocks: [para('Summary: scope agreed.')] });
    const read = ((await run('workspace_page_read', { block_id: page })).data as Data).results as Data[];
    expect(read.map((b) => (b.type === 'divider' ? '---' : textOf(b)))).toEqual(['Notes', 'Kickoff went well.', 'Summary: scope agreed.', '---', 'Links']);
  });

  it('children sent inside a divider or a static heading are refused with the same hint by every tool that sends blocks, and nothing is written', async () => {
    const found = ((await run('workspace_search', { query: '' })).data as Data).results as Data[];
    const database_id = found.find((r) => r.object === 'database')!.id;
    const senders: Array<[string, Record<string, unknown>]> = [
      ['workspace_page_create', { parent_page_id: await home(), properties: { title: { title: text('Hidden') } } }],
      ['workspace_page_append', { block_id: await home() }],
      ['workspace_database_insert_row', { database_id, properties: { title: { title: text('Hidden') } } }],
    ];
    const before = ((await run('workspace_page_read', { block_id: await home() })).data as Data).results.length;
    for (const [tool, input] of senders) {
      for (const block of [{ type: 'divider', divider: { children: [para('x')] } }, { type: 'heading_3', heading_3: { rich_text: text('Static'), is_toggleable: false, children: [para('x')] } }]) {
        const e = await refused(tool, { ...input, child_blocks: [para('first'), block] });
        expect(e, tool).toMatchObject({ code: 'upstream_error', status: 400, details: { body: { code: 'validation_error' } } });
        expect(e.message, tool).toContain(`body failed validation: body.children[1].${block.type}.children should be not present`);
        expect(e.details.hint, tool).toMatch(/^Only some blocks hold children \(paragraph, list items, to_do, toggle, quote, callout, a heading with is_toggleable true; not a divider/);
      }
    }
    expect(((await run('workspace_page_read', { block_id: await home() })).data as Data).results).toHaveLength(before);
    expect(((await run('workspace_search', { query: 'Hidden' })).data as Data).results).toEqual([]);
  });
});

describe("the block hints, written once in the connector's spec, reach every tool that sends blocks", () => {
  it('a block of a type Notion does not have, and a text block without its rich_text list, carry the same hints whichever tool sent them', async () => {
    const found = ((await run('workspace_search', { query: '' })).data as Data).results as Data[];
    const database_id = found.find((r) => r.object === 'database')!.id;
    const senders: Array<[string, Record<string, unknown>]> = [
      ['workspace_page_create', { parent_page_id: await home(), properties: { title: { title: text('Plan') } } }],
      ['workspace_page_append', { block_id: await home() }],
      ['workspace_database_insert_row', { database_id, properties: { title: { title: text('Plan') } } }],
    ];
    const hints: Record<string, string[]> = {};
    for (const [tool, input] of senders) {
      const unknownType = await refused(tool, { ...input, child_blocks: [{ type: 'bullet', bullet: { rich_text: text('Hire two engineers') } }] });
      expect(unknownType, tool).toMatchObject({ code: 'upstream_error', status: 400, details: { body: { code: 'validation_error' } } });
      expect(unknownType.message, tool).toContain('body failed validation. Fix one:\nbody.children[0].embed should be defined, instead was `undefined`.');
      expect(unknownType.details, tool).toMatchObject({ hint: expect.stringMatching(/^Notion lists the block types it takes \(embed, bookmark, \.\.\.\) when a block is of none of them: text blocks are paragraph, heading_1, /) });
      const oldKey = await refused(tool, { ...input, child_blocks: [{ type: 'paragraph', paragraph: { text: 'hi' } }] });
      expect(oldKey.message, tool).toContain('body.children[0].paragraph.rich_text should be defined, instead was `undefined`.');
      expect(oldKey.details, tool).toMatchObject({ hint: expect.stringMatching(/^child_blocks are sent as children: each text block .* needs rich_text/) });
      hints[tool] = [unknownType.details.hint, oldKey.details.hint];
    }
    expect(hints.workspace_database_insert_row).toEqual(hints.workspace_page_create);
    expect(hints.workspace_page_append).toEqual(hints.workspace_page_create);
  });

  it("a database's column written without its configuration is told about columns, not blocks, though Notion's refusal names rich_text too", async () => {
    const parent = { page_id: await home() };
    const input = (Notes: unknown) => ({ parent, title: text('Tasks'), properties: { Name: { title: {} }, Notes } });
    for (const Notes of [{ type: 'rich_text' }, { rich_text: 'x' }]) {
      const e = await refused('workspace_database_create', input(Notes));
      expect(e.message).toMatch(/body\.properties\.Notes\.rich_text should be (defined|an object)/);
      expect(e.details, JSON.stringify(Notes)).toMatchObject({ hint: expect.stringMatching(/^properties maps each column name to its type key/) });
    }
  });
});
