import { beforeEach, describe, expect, it } from 'vitest';
import { createDocsApi } from '../../sandbox/apis/docs/index.js';
import type { ApiModule } from '../../sandbox/types.js';

const USER = 'dee@example.com';
type Body = Record<string, any>;
let api: ApiModule;

async function call(method: string, path: string, opts: { query?: Record<string, string>; body?: unknown; scopes?: string[]; user?: string } = {}) {
  const res = await api.handle({
    method,
    path,
    query: new URLSearchParams(opts.query ?? {}),
    headers: {},
    body: opts.body,
    user: opts.user ?? USER,
    scopes: opts.scopes ?? ['https://www.googleapis.com/auth/documents'],
    now: 0,
  });
  return res as { status: number; body: Body };
}

function expectError(res: { status: number; body: Body }, status: number, statusName: string, message?: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code: status, status: statusName });
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else if (message) expect(res.body.error.message).toMatch(message);
}

async function createDoc(title = 'Notes'): Promise<Body> {
  const res = await call('POST', '/v1/documents', { body: { title, body: { content: ['ignored'] } } });
  expect(res.status).toBe(200);
  return res.body;
}

const batch = (id: string, requests: unknown[], writeControl?: unknown) =>
  call('POST', `/v1/documents/${id}:batchUpdate`, { body: { requests, ...(writeControl ? { writeControl } : {}) } });
const getDoc = async (id: string): Promise<Body> => (await call('GET', `/v1/documents/${id}`)).body;
/** The document's text from its paragraphs, checking every index on the way. */
function textOf(doc: Body): string {
  let expected = 1;
  let text = '';
  for (const el of doc.body.content.slice(1)) {
    expect(el.startIndex).toBe(expected);
    for (const run of el.paragraph.elements) {
      expect(run.startIndex).toBe(expected);
      expect(run.endIndex - run.startIndex).toBe(run.textRun.content.length);
      expected = run.endIndex;
      text += run.textRun.content;
    }
    expect(el.endIndex).toBe(expected);
  }
  return text;
}
const insert = (text: string, index: number) => ({ insertText: { text, location: { index } } });

beforeEach(() => {
  api = createDocsApi();
  api.seedUser(USER, 0);
});

describe('documents.create / get', () => {
  it('creates an empty document: a section break, then an empty paragraph at index 1', async () => {
    const doc = await createDoc('Plan');
    expect(doc.title).toBe('Plan');
    expect(doc.documentId).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(doc.revisionId).toEqual(expect.any(String));
    expect(doc.body.content).toEqual([
      { endIndex: 1, sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT', sectionType: 'CONTINUOUS' } } },
      {
        startIndex: 1,
        endIndex: 2,
        paragraph: {
          elements: [{ startIndex: 1, endIndex: 2, textRun: { content: '\n', textStyle: {} } }],
          paragraphStyle: { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' },
        },
      },
    ]);
    expect(doc.documentStyle).toBeDefined();
    expect(doc.namedStyles.styles[0].namedStyleType).toBe('NORMAL_TEXT');
    expect((await call('POST', '/v1/documents', { body: {} })).body.title).toBe('Untitled document');
  });

  it('get validates suggestionsViewMode and answers 404 for unknown ids', async () => {
    const doc = await createDoc();
    const got = await call('GET', `/v1/documents/${doc.documentId}`, { query: { suggestionsViewMode: 'PREVIEW_WITHOUT_SUGGESTIONS' } });
    expect(got.body.suggestionsViewMode).toBe('PREVIEW_WITHOUT_SUGGESTIONS');
    expect((await call('GET', `/v1/documents/${doc.documentId}`)).body.suggestionsViewMode).toBe('SUGGESTIONS_INLINE');
    expectError(await call('GET', `/v1/documents/${doc.documentId}`, { query: { suggestionsViewMode: 'FANCY' } }), 400, 'INVALID_ARGUMENT', /suggestions_view_mode/);
    expectError(await call('GET', '/v1/documents/missing'), 404, 'NOT_FOUND', 'Requested entity was not found.');
    expectError(await batch('missing', [insert('x', 1)]), 404, 'NOT_FOUND');
  });

  it('answers 403 PERMISSION_DENIED for a document that exists but is not shared with the caller', async () => {
    const doc = await createDoc();
    expectError(await call('GET', `/v1/documents/${doc.documentId}`, { user: 'eve@example.com' }), 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    expectError(await call('POST', `/v1/documents/${doc.documentId}:batchUpdate`, { user: 'eve@example.com', body: { requests: [insert('x', 1)] } }), 403, 'PERMISSION_DENIED');
  });

  it('includeTabsContent moves the content under tabs', async () => {
    const doc = await createDoc();
    const got = await call('GET', `/v1/documents/${doc.documentId}`, { query: { includeTabsContent: 'true' } });
    expect(got.body.body).toBeUndefined();
    expect(got.body.tabs[0].documentTab.body.content).toHaveLength(2);
  });
});

describe('documents.batchUpdate', () => {
  let id: string;
  beforeEach(async () => {
    id = (await createDoc()).documentId;
  });

  it('inserts text at index 1 and at the end of the segment; newlines make paragraphs', async () => {
    const res = await batch(id, [insert('Hello world', 1), { insertText: { text: '\nSecond', endOfSegmentLocation: {} } }]);
    expect(res.status).toBe(200);
    expect(res.body.replies).toEqual([{}, {}]);
    expect(res.body.documentId).toBe(id);
    const doc = await getDoc(id);
    expect(textOf(doc)).toBe('Hello world\nSecond\n');
    expect(doc.body.content).toHaveLength(3);
    expect(doc.body.content[2]).toMatchObject({ startIndex: 13, endIndex: 20 });
  });

  it("reads an index given as a string of digits, as Google's JSON mapping reads an int32; anything else is refused", async () => {
    expect((await batch(id, [{ insertText: { text: 'Hello', location: { index: '1' } } }])).status).toBe(200);
    expect((await batch(id, [{ deleteContentRange: { range: { startIndex: '1', endIndex: '2' } } }])).status).toBe(200);
    expect(textOf(await getDoc(id))).toBe('ello\n');
    for (const index of ['one', '1.5', 1.5, true]) {
      expectError(await batch(id, [{ insertText: { text: 'x', location: { index } } }]), 400, 'INVALID_ARGUMENT', /location\.index must be an integer/);
    }
  });

  it('reads kinds and fields by their proto names; a field given under both names, or two kinds, is refused', async () => {
    // insert_text with a location under its proto name, a table row by its proto names, a page break: all applied.
    const res = await batch(id, [
      { insert_text: { text: 'ab', location: { index: 1 } } },
      { insert_table: { rows: 1, columns: 1, end_of_segment_location: {} } },
    ]);
    expect(res.status).toBe(200);
    expect(JSON.stringify((await getDoc(id)).body.content)).toContain('"table"');
    expectError(
      await batch(id, [{ insertText: { text: 'x', location: { index: 1 }, end_of_segment_location: {}, endOfSegmentLocation: {} } }]),
      400,
      'INVALID_ARGUMENT',
      'Invalid JSON payload received. "end_of_segment_location" and "endOfSegmentLocation" are the same field, endOfSegmentLocation: give it once (the sandbox does not model which one Google keeps).',
    );
    expectError(
      await batch(id, [{ insert_text: { text: 'x', location: { index: 1 } }, deleteContentRange: { range: { startIndex: 1, endIndex: 2 } } }]),
      400,
      'INVALID_ARGUMENT',
      "Invalid value at 'requests[0]' (oneof), oneof field 'request' is already set. Cannot set 'deleteContentRange'",
    );
    // writeControl by its proto names, checked as writeControl is.
    const stale = await call('POST', `/v1/documents/${id}:batchUpdate`, { body: { requests: [insert('x', 1)], write_control: { required_revision_id: 'old' } } });
    expectError(stale, 400, 'INVALID_ARGUMENT', /does not match the required revision ID old/);
  });

  it('counts indexes in UTF-16 code units', async () => {
    await batch(id, [insert('a😀b', 1)]);
    const doc = await getDoc(id);
    expect(doc.body.content[1].endIndex).toBe(1 + 4 + 1);
    await batch(id, [{ deleteContentRange: { range: { startIndex: 2, endIndex: 4 } } }]);
    expect(textOf(await getDoc(id))).toBe('ab\n');
  });

  it('refuses index 0 and indexes at or past the end, naming the request', async () => {
    await batch(id, [insert('abc', 1)]);
    expectError(await batch(id, [insert('x', 0)]), 400, 'INVALID_ARGUMENT', /^Invalid requests\[0\]\.insertText: The insertion index must be inside the bounds of an existing paragraph/);
    // Requests apply in order: after the first insert the end index is 7, so 6 would be valid and 7 is not.
    expectError(await batch(id, [insert('ok', 1), insert('x', 7)]), 400, 'INVALID_ARGUMENT', 'Invalid requests[1].insertText: Index 7 must be less than the end index of the referenced segment, 7.');
    expectError(await batch(id, [insert('x', 5)]), 400, 'INVALID_ARGUMENT', /Index 5 must be less than the end index of the referenced segment, 5\./);
    expect((await batch(id, [insert('!', 4)])).status).toBe(200);
    expect(textOf(await getDoc(id))).toBe('abc!\n');
  });

  it('deleteContentRange deletes, merging paragraphs, but never the final newline', async () => {
    await batch(id, [insert('one\ntwo', 1)]);
    await batch(id, [{ deleteContentRange: { range: { startIndex: 3, endIndex: 6 } } }]);
    expect(textOf(await getDoc(id))).toBe('onwo\n');
    expectError(await batch(id, [{ deleteContentRange: { range: { startIndex: 1, endIndex: 6 } } }]), 400, 'INVALID_ARGUMENT', /newline character at the end of the segment/);
    expectError(await batch(id, [{ deleteContentRange: { range: { startIndex: 2, endIndex: 2 } } }]), 400, 'INVALID_ARGUMENT', /should not be empty/);
    expectError(await batch(id, [{ deleteContentRange: { range: { startIndex: 0, endIndex: 2 } } }]), 400, 'INVALID_ARGUMENT', /requests\[0\]\.deleteContentRange/);
    expectError(await batch(id, [{ deleteContentRange: { range: { startIndex: 1, endIndex: 60 } } }]), 400, 'INVALID_ARGUMENT');
  });

  it('replaceAllText honours matchCase and reports occurrencesChanged', async () => {
    await batch(id, [insert('Cat cat CAT dog', 1)]);
    const res = await batch(id, [
      { replaceAllText: { containsText: { text: 'cat', matchCase: true }, replaceText: 'bird' } },
      { replaceAllText: { containsText: { text: 'cat' }, replaceText: 'fox' } },
      { replaceAllText: { containsText: { text: 'zebra' }, replaceText: 'x' } },
    ]);
    expect(res.body.replies).toEqual([
      { replaceAllText: { occurrencesChanged: 1 } },
      { replaceAllText: { occurrencesChanged: 2 } },
      { replaceAllText: {} },
    ]);
    expect(textOf(await getDoc(id))).toBe('fox bird fox dog\n');
    expectError(await batch(id, [{ replaceAllText: { containsText: { text: '' }, replaceText: 'x' } }]), 400, 'INVALID_ARGUMENT');
  });

  it('is all-or-nothing: a bad request later in the batch leaves the document and revision untouched', async () => {
    const before = await getDoc(id);
    const res = await batch(id, [insert('kept?', 1), { deleteContentRange: { range: { startIndex: 1, endIndex: 99 } } }]);
    expectError(res, 400, 'INVALID_ARGUMENT', /requests\[1\]\.deleteContentRange/);
    const after = await getDoc(id);
    expect(textOf(after)).toBe('\n');
    expect(after.revisionId).toBe(before.revisionId);
  });

  it('refuses unknown request kinds, and requests with two kinds', async () => {
    expectError(await batch(id, [{ frobnicate: {} }]), 400, 'INVALID_ARGUMENT', /Unknown name "frobnicate" at 'requests\[0\]'/);
    expectError(await batch(id, [{ insertText: { text: 'a', location: { index: 1 } }, replaceAllText: {} }]), 400, 'INVALID_ARGUMENT');
    // A kind the API has that the sandbox does not model is an invalid request, never a 501.
    expectError(await batch(id, [{ createFootnote: { endOfSegmentLocation: {} } }]), 400, 'INVALID_ARGUMENT', /does not model createFootnote/);
    expectError(await batch(id, []), 400, 'INVALID_ARGUMENT');
  });

  it("refuses a field its request does not have, at every level the sandbox reads, in the words of Google's JSON parser", async () => {
    const unknown = (name: string, at: string) => `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;
    // A heading's style written beside range, where Docs takes it inside paragraphStyle: refused, not applied as nothing.
    const beside = await batch(id, [insert('Title\n', 1), { updateParagraphStyle: { range: { startIndex: 1, endIndex: 6 }, namedStyleType: 'HEADING_1', fields: 'namedStyleType' } }]);
    expectError(beside, 400, 'INVALID_ARGUMENT', unknown('namedStyleType', 'requests[1].update_paragraph_style'));
    expect(textOf(await getDoc(id))).toBe('\n');
    // The index beside text, where Docs takes it in location; the path names fields by their proto names.
    expectError(await batch(id, [{ insertText: { index: 1, text: 'x' } }]), 400, 'INVALID_ARGUMENT', unknown('index', 'requests[0].insert_text'));
    expectError(await batch(id, [{ insert_text: { text: 'x', location: { index: 1, segment: '' } } }]), 400, 'INVALID_ARGUMENT', unknown('segment', 'requests[0].insert_text.location'));
    expectError(
      await batch(id, [{ replaceAllText: { containsText: { text: 'a', match_case: true, caseSensitive: true }, replaceText: 'b' } }]),
      400,
      'INVALID_ARGUMENT',
      unknown('caseSensitive', 'requests[0].replace_all_text.contains_text'),
    );
    expectError(
      await batch(id, [insert('ab', 1), { updateTextStyle: { range: { startIndex: 1, endIndex: 2 }, textStyle: { bold: true, colour: 'red' }, fields: 'bold' } }]),
      400,
      'INVALID_ARGUMENT',
      unknown('colour', 'requests[1].update_text_style.text_style'),
    );
    // The body is read whole before any request is applied: an unknown name anywhere is what the batch is refused for,
    // every one of them, one line each.
    expectError(
      await batch(id, [insert('x', 0), { replaceAllText: { text: 'a', replace: 'b' } }]),
      400,
      'INVALID_ARGUMENT',
      `${unknown('text', 'requests[1].replace_all_text')}\n${unknown('replace', 'requests[1].replace_all_text')}`,
    );
    // Every field these requests have is taken.
    const all = await batch(id, [
      { insertText: { text: 'Hello world\n', location: { index: 1, segmentId: '' } } },
      { updateTextStyle: { range: { startIndex: 1, endIndex: 6, segmentId: '' }, textStyle: { bold: true, italic: true, fontSize: { magnitude: 12, unit: 'PT' } }, fields: 'bold,italic,fontSize' } },
      { updateParagraphStyle: { range: { startIndex: 1, endIndex: 6 }, paragraphStyle: { namedStyleType: 'HEADING_1', alignment: 'CENTER' }, fields: 'namedStyleType,alignment' } },
      { createParagraphBullets: { range: { startIndex: 1, endIndex: 6 }, bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE' } },
      { replaceAllText: { containsText: { text: 'world', matchCase: true, searchByRegex: false }, replaceText: 'there' } },
      { insertText: { text: '!', endOfSegmentLocation: { segmentId: '' } } },
    ]);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
  });

  it('updateTextStyle splits runs; updateParagraphStyle restyles paragraphs', async () => {
    await batch(id, [insert('Title\nbody text', 1)]);
    const res = await batch(id, [
      { updateTextStyle: { range: { startIndex: 7, endIndex: 11 }, textStyle: { bold: true }, fields: 'bold' } },
      { updateParagraphStyle: { range: { startIndex: 1, endIndex: 3 }, paragraphStyle: { namedStyleType: 'HEADING_1' }, fields: 'namedStyleType' } },
    ]);
    expect(res.status).toBe(200);
    const doc = await getDoc(id);
    expect(doc.body.content[1].paragraph.paragraphStyle.namedStyleType).toBe('HEADING_1');
    expect(doc.body.content[2].paragraph.paragraphStyle.namedStyleType).toBe('NORMAL_TEXT');
    expect(doc.body.content[2].paragraph.elements.map((e: Body) => [e.textRun.content, e.textRun.textStyle])).toEqual([
      ['body', { bold: true }],
      [' text\n', {}],
    ]);
    expect(textOf(doc)).toBe('Title\nbody text\n');
    expectError(await batch(id, [{ updateTextStyle: { range: { startIndex: 1, endIndex: 2 }, textStyle: { bold: true } } }]), 400, 'INVALID_ARGUMENT', /fields/);
  });

  it('checks writeControl: requiredRevisionId must match; never both ids; replies carry the new revision', async () => {
    const doc = await getDoc(id);
    const ok = await batch(id, [insert('a', 1)], { requiredRevisionId: doc.revisionId });
    expect(ok.status).toBe(200);
    const rev2 = ok.body.writeControl.requiredRevisionId;
    expect(rev2).not.toBe(doc.revisionId);
    expect((await getDoc(id)).revisionId).toBe(rev2);

    const stale = await batch(id, [insert('b', 1)], { requiredRevisionId: doc.revisionId });
    expectError(stale, 400, 'INVALID_ARGUMENT');
    expect(textOf(await getDoc(id))).toBe('a\n');

    const both = await batch(id, [insert('b', 1)], { requiredRevisionId: rev2, targetRevisionId: rev2 });
    expectError(both, 400, 'INVALID_ARGUMENT');
    expect((await batch(id, [insert('b', 1)], { targetRevisionId: doc.revisionId })).status).toBe(200);
    expectError(await batch(id, [insert('c', 1)], { targetRevisionId: 'not-a-revision' }), 400, 'INVALID_ARGUMENT');
  });

  it('refuses writes with a read-only scope', async () => {
    const res = await call('POST', `/v1/documents/${id}:batchUpdate`, {
      body: { requests: [insert('x', 1)] },
      scopes: ['https://www.googleapis.com/auth/documents.readonly'],
    });
    expectError(res, 403, 'PERMISSION_DENIED');
    expect((await call('GET', `/v1/documents/${id}`, { scopes: ['https://www.googleapis.com/auth/documents.readonly'] })).status).toBe(200);
  });

  it('accepts a percent-encoded colon before batchUpdate', async () => {
    const res = await call('POST', `/v1/documents/${id}%3AbatchUpdate`, { body: { requests: [insert('x', 1)] } });
    expect(res.status).toBe(200);
  });
});
