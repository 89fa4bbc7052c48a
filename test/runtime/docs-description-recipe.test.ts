/**
 * docs_update_document's description teaches where a document's body ends and how a heading is made, with a worked
 * example ("a heading at the end of a body whose last endIndex is 42"). Its example, sent as it is through the runtime
 * to the sandbox on such a document, must do what it says: the text lands after the last paragraph, as a paragraph of
 * its own styled HEADING_1, the paragraph before it unchanged. So must the append its requests parameter shows
 * (endOfSegmentLocation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolClient, type ToolClient } from '../../generated/client.gen.js';
import { tools as allTools } from '../../generated/tools.gen.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { descriptionExample } from '../specs/description-example.js';
import { startHarness, type Harness } from './connector-harness.js';

type Data = Record<string, any>;

let h: Harness;
let tools: ToolClient;
const call = { identifier: 'recipe-user', connection_name: 'docs-conn' };

beforeAll(async () => {
  h = await startHarness();
  await h.connection('docs', 'docs-conn');
  await h.authorize('docs-conn', 'recipe-user');
  tools = createToolClient(h.env);
});
afterAll(() => h?.close());

/** The body's paragraphs: their text, named style and end index. */
async function paragraphs(documentId: string): Promise<Array<{ text: string; style: string; endIndex: number }>> {
  const { data } = await tools.docs_read_document({ document_id: documentId }, call);
  return ((data as Data).body.content as Data[])
    .filter((e) => e.paragraph !== undefined)
    .map((e) => ({
      text: (e.paragraph.elements as Data[]).map((x) => x.textRun?.content ?? '').join(''),
      style: e.paragraph.paragraphStyle?.namedStyleType,
      endIndex: e.endIndex,
    }));
}

/** A new document whose body is one paragraph of 40 characters: its last endIndex is 42. */
async function documentEndingAt42(): Promise<string> {
  const id = (await tools.docs_create_document({ title: 'Recipe' }, call)).data.documentId!;
  await tools.docs_update_document({ document_id: id, requests: [{ insertText: { location: { index: 1 }, text: 'x'.repeat(40) } }] }, call);
  expect((await paragraphs(id)).at(-1)!.endIndex).toBe(42);
  return id;
}

describe("docs_update_document's description, applied", () => {
  const tool = (allTools as readonly ToolDefinition[]).find((t) => t.name === 'docs_update_document')!;

  it('the example puts a HEADING_1 paragraph after the last one', async () => {
    const id = await documentEndingAt42();
    const example = descriptionExample(tool.description) as { requests: unknown[] };
    await tools.docs_update_document({ document_id: id, requests: example.requests as never }, call);
    expect(await paragraphs(id)).toEqual([
      { text: `${'x'.repeat(40)}\n`, style: 'NORMAL_TEXT', endIndex: 42 },
      { text: 'Roadmap\n', style: 'HEADING_1', endIndex: 50 },
    ]);
  });

  it('insertText with endOfSegmentLocation appends a paragraph at the end of the body', async () => {
    const id = await documentEndingAt42();
    await tools.docs_update_document({ document_id: id, requests: [{ insertText: { endOfSegmentLocation: {}, text: '\nThe end' } }] }, call);
    expect((await paragraphs(id)).map((p) => p.text)).toEqual([`${'x'.repeat(40)}\n`, 'The end\n']);
  });
});
