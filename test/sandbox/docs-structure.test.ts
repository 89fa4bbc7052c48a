/**
 * Docs batchUpdate beyond plain text: tables (and their rows and columns), page breaks, inline images, bullets,
 * named ranges and the document style, with the API's index rules, read back through documents.get.
 *
 * Index facts used (Docs' structure guide and the InsertTableRequest reference): a newline is inserted before a new
 * table, so it starts at the location + 1; a table, each row and each cell take one index, and every cell holds at
 * least one paragraph; a page break is followed by a newline. The exact index arithmetic of a table is not spelled
 * out in the reference: the checker below asserts the layout the sandbox documents (contiguous indexes, cell content
 * after one index for the cell), which matches the usual "first cell at table start + 3" clients rely on.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createDocsApi } from '../../sandbox/apis/docs/index.js';
import type { ApiModule } from '../../sandbox/types.js';

type Body = Record<string, any>;
let api: ApiModule;
let id: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await api.handle({ method, path, query: new URLSearchParams(), headers: {}, body, user: 'dee@example.com', scopes: ['https://www.googleapis.com/auth/documents'], now: 0 });
  return res as { status: number; body: Body };
}
const batch = (requests: unknown[]) => call('POST', `/v1/documents/${id}:batchUpdate`, { requests });
const getDoc = async (): Promise<Body> => (await call('GET', `/v1/documents/${id}`)).body;
const at = (index: number) => ({ location: { index } });

/** Walks the content checking that indexes are contiguous at every level; returns the end index. */
function checkIndexes(content: Body[], start: number): number {
  let expected = start;
  for (const el of content) {
    expect(el.startIndex ?? 0).toBe(expected);
    if (el.paragraph) {
      for (const e of el.paragraph.elements) {
        expect(e.startIndex).toBe(expected);
        expected = e.endIndex;
        if (e.textRun) expect(e.endIndex - e.startIndex).toBe(e.textRun.content.length);
        else expect(e.endIndex - e.startIndex).toBe(1);
      }
    } else if (el.table) {
      expected += 1;
      expect(el.table.tableRows).toHaveLength(el.table.rows);
      for (const row of el.table.tableRows) {
        expect(row.startIndex).toBe(expected);
        expected += 1;
        expect(row.tableCells).toHaveLength(el.table.columns);
        for (const cell of row.tableCells) {
          expect(cell.startIndex).toBe(expected);
          expected = checkIndexes(cell.content, expected + 1);
          expect(cell.endIndex).toBe(expected);
        }
        expect(row.endIndex).toBe(expected);
      }
    } else {
      expected = el.endIndex;
    }
    expect(el.endIndex).toBe(expected);
  }
  return expected;
}

function tableOf(doc: Body): Body {
  const t = doc.body.content.find((el: Body) => el.table);
  expect(t).toBeDefined();
  return t;
}
const cellText = (cell: Body): string => cell.content.map((p: Body) => p.paragraph.elements.map((e: Body) => e.textRun?.content ?? '').join('')).join('');
const grid = (table: Body): string[][] => table.table.tableRows.map((r: Body) => r.tableCells.map((c: Body) => cellText(c).replace(/\n$/, '')));

beforeEach(async () => {
  api = createDocsApi();
  api.seedUser('dee@example.com', 0);
  id = (await call('POST', '/v1/documents', { title: 'Structure' })).body.documentId;
});

describe('tables', () => {
  it('inserts a table after a new newline: it starts at the location + 1, its first cell text at + 3', async () => {
    expect((await batch([{ insertTable: { rows: 2, columns: 3, ...at(1) } }])).status).toBe(200);
    const doc = await getDoc();
    const end = checkIndexes(doc.body.content.slice(1), 1);
    const table = tableOf(doc);
    expect(table.startIndex).toBe(2);
    expect(table.endIndex).toBe(2 + 1 + 2 * (1 + 2 * 3));
    expect(table.table).toMatchObject({ rows: 2, columns: 3 });
    expect(table.table.tableRows[0].tableCells[0].content[0].startIndex).toBe(5);
    // The paragraph before (the inserted newline) and the document's own last paragraph around it.
    expect(doc.body.content[1].paragraph).toBeDefined();
    expect(doc.body.content.at(-1).paragraph).toBeDefined();
    expect(end).toBe(table.endIndex + 1);
  });

  it('writes into cells by index, from the last cell back, and reads it back', async () => {
    await batch([{ insertTable: { rows: 2, columns: 2, endOfSegmentLocation: {} } }]);
    const cells = tableOf(await getDoc()).table.tableRows.flatMap((r: Body) => r.tableCells.map((c: Body) => c.content[0].startIndex as number));
    // Right to left, as clients do, so earlier indexes stay valid.
    const names = ['Item', 'Qty', 'Anvil', '2'];
    await batch(cells.map((index: number, i: number) => ({ insertText: { text: names[i], ...at(index) } })).reverse());
    const doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    expect(grid(tableOf(doc))).toEqual([['Item', 'Qty'], ['Anvil', '2']]);
  });

  it('inserts and deletes rows and columns by table start, row and column', async () => {
    await batch([{ insertTable: { rows: 1, columns: 2, ...at(1) } }]);
    await batch([{ insertText: { text: 'b', ...at(7) } }, { insertText: { text: 'a', ...at(5) } }]);
    const cell = (rowIndex: number, columnIndex: number) => ({ tableCellLocation: { tableStartLocation: { index: 2 }, rowIndex, columnIndex } });
    expect((await batch([{ insertTableRow: { ...cell(0, 0), insertBelow: true } }, { insertTableColumn: { ...cell(0, 0), insertRight: false } }])).status).toBe(200);
    let doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    expect(grid(tableOf(doc))).toEqual([['', 'a', 'b'], ['', '', '']]);

    expect((await batch([{ deleteTableColumn: cell(0, 0) }, { deleteTableRow: cell(1, 0) }])).status).toBe(200);
    doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    expect(grid(tableOf(doc))).toEqual([['a', 'b']]);

    expect((await batch([{ deleteTableRow: cell(0, 0) }])).status).toBe(400);
    expect((await batch([{ insertTableRow: { tableCellLocation: { tableStartLocation: { index: 1 }, rowIndex: 0, columnIndex: 0 } } }])).status).toBe(400);
    expect((await batch([{ insertTableRow: cell(5, 0) }])).status).toBe(400);
  });

  it('deletes a whole table or text in one cell, and refuses ranges that cut the structure', async () => {
    await batch([{ insertTable: { rows: 1, columns: 2, ...at(1) } }]);
    await batch([{ insertText: { text: 'xyz', ...at(5) } }]);
    const range = (startIndex: number, endIndex: number) => ({ deleteContentRange: { range: { startIndex, endIndex } } });
    const table = tableOf(await getDoc());
    expect(table.endIndex).toBe(2 + 1 + 1 + 2 * 2 + 3);
    expect((await batch([range(3, 6)])).status).toBe(400); // from a row start into a cell
    expect((await batch([range(4, 9)])).status).toBe(400); // across a cell boundary
    expect((await batch([range(5, 9)])).status).toBe(400); // a cell's last newline
    expect((await batch([range(1, 2)])).status).toBe(400); // the newline before a table
    expect((await batch([range(2, 6)])).status).toBe(400); // part of the table
    expect((await batch([range(5, 7)])).status).toBe(200);
    expect(grid(tableOf(await getDoc()))).toEqual([['z', '']]);
    const whole = tableOf(await getDoc());
    expect((await batch([range(whole.startIndex, whole.endIndex)])).status).toBe(200);
    const doc = await getDoc();
    expect(doc.body.content.some((el: Body) => el.table)).toBe(false);
    checkIndexes(doc.body.content.slice(1), 1);
  });

  it('refuses text at a table, row or cell start (not inside a paragraph)', async () => {
    await batch([{ insertTable: { rows: 1, columns: 1, ...at(1) } }]);
    for (const index of [2, 3, 4]) {
      const res = await batch([{ insertText: { text: 'x', ...at(index) } }]);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('inside the bounds of an existing paragraph');
    }
  });
});

describe('page breaks, images, bullets, named ranges, document style', () => {
  it('a page break sits in a paragraph of its own and cannot go inside a table', async () => {
    await batch([{ insertText: { text: 'Intro\nNext', ...at(1) } }]);
    expect((await batch([{ insertPageBreak: at(7) }])).status).toBe(200);
    const doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    const breakPara = doc.body.content[2].paragraph;
    expect(breakPara.elements[0]).toMatchObject({ startIndex: 7, endIndex: 8, pageBreak: {} });
    expect(breakPara.elements[1].textRun.content).toBe('\n');
    await batch([{ insertTable: { rows: 1, columns: 1, endOfSegmentLocation: {} } }]);
    const cellStart = tableOf(await getDoc()).table.tableRows[0].tableCells[0].content[0].startIndex;
    expect((await batch([{ insertPageBreak: at(cellStart) }])).status).toBe(400);
  });

  it('an inline image is a placeholder object of one index, listed in inlineObjects', async () => {
    await batch([{ insertText: { text: 'Logo: ', ...at(1) } }]);
    const res = await batch([{ insertInlineImage: { uri: 'https://example.com/logo.png', ...at(7), objectSize: { width: { magnitude: 50, unit: 'PT' } } } }]);
    expect(res.status).toBe(200);
    const objectId = res.body.replies[0].insertInlineImage.objectId;
    const doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    expect(doc.body.content[1].paragraph.elements[1]).toMatchObject({ startIndex: 7, endIndex: 8, inlineObjectElement: { inlineObjectId: objectId } });
    expect(doc.inlineObjects[objectId].inlineObjectProperties.embeddedObject.imageProperties.sourceUri).toBe('https://example.com/logo.png');
    expect((await batch([{ insertInlineImage: { uri: 'file:///etc/passwd', ...at(1) } }])).status).toBe(400);
  });

  it('bullets: one list per request, nesting from leading tabs (removed), and removal', async () => {
    await batch([{ insertText: { text: 'One\n\tTwo\nThree\n', ...at(1) } }]);
    const res = await batch([{ createParagraphBullets: { range: { startIndex: 1, endIndex: 15 }, bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE' } }]);
    expect(res.status).toBe(200);
    let doc = await getDoc();
    checkIndexes(doc.body.content.slice(1), 1);
    const paras = doc.body.content.slice(1, 4).map((el: Body) => el.paragraph);
    const listId = paras[0].bullet.listId;
    expect(doc.lists[listId]).toBeDefined();
    expect(paras.map((p: Body) => p.bullet)).toEqual([{ listId }, { listId, nestingLevel: 1 }, { listId }]);
    expect(paras[1].elements[0].textRun.content).toBe('Two\n');
    expect((await batch([{ createParagraphBullets: { range: { startIndex: 1, endIndex: 2 }, bulletPreset: 'SQUIGGLES' } }])).status).toBe(400);

    await batch([{ deleteParagraphBullets: { range: { startIndex: 1, endIndex: 5 } } }]);
    doc = await getDoc();
    expect(doc.body.content[1].paragraph.bullet).toBeUndefined();
    expect(doc.body.content[2].paragraph.bullet).toEqual({ listId, nestingLevel: 1 });
  });

  it('named ranges move with edits before them, shrink with deletions inside, and can be deleted by name', async () => {
    await batch([{ insertText: { text: 'Hello world\n', ...at(1) } }]);
    const res = await batch([{ createNamedRange: { name: 'greeting', range: { startIndex: 7, endIndex: 12 } } }]);
    const namedRangeId = res.body.replies[0].createNamedRange.namedRangeId;
    await batch([{ insertText: { text: '>> ', ...at(1) } }, { deleteContentRange: { range: { startIndex: 11, endIndex: 13 } } }]);
    let doc = await getDoc();
    expect(doc.namedRanges.greeting.namedRanges).toEqual([{ namedRangeId, name: 'greeting', ranges: [{ startIndex: 10, endIndex: 13 }] }]);
    expect((await batch([{ createNamedRange: { name: '', range: { startIndex: 1, endIndex: 2 } } }])).status).toBe(400);
    expect((await batch([{ deleteNamedRange: { name: 'greeting' } }])).status).toBe(200);
    doc = await getDoc();
    expect(doc.namedRanges).toBeUndefined();
  });

  it('updateDocumentStyle changes the named fields only', async () => {
    await batch([{ updateDocumentStyle: { documentStyle: { marginTop: { magnitude: 36, unit: 'PT' } }, fields: 'marginTop' } }]);
    const doc = await getDoc();
    expect(doc.documentStyle.marginTop).toEqual({ magnitude: 36, unit: 'PT' });
    expect(doc.documentStyle.marginBottom).toEqual({ magnitude: 72, unit: 'PT' });
  });

  it('a batch is all or nothing: a failing request leaves the table unwritten', async () => {
    const res = await batch([{ insertTable: { rows: 2, columns: 2, ...at(1) } }, { insertText: { text: 'x', ...at(999) } }]);
    expect(res.status).toBe(400);
    const doc = await getDoc();
    expect(doc.body.content.some((el: Body) => el.table)).toBe(false);
  });
});

// A value that is absent, or not the kind the field takes, is never printed as "undefined" or "[object Object]".
describe('refusals name what was sent', () => {
  const bulletsOn = async (bullets: Record<string, unknown>) => {
    await batch([{ insertText: { text: 'One\n', ...at(1) } }]);
    return batch([{ createParagraphBullets: { range: { startIndex: 1, endIndex: 4 }, ...bullets } }]);
  };
  it.each([
    ['absent', {}],
    ['the enum\'s zero value', { bulletPreset: 'BULLET_GLYPH_PRESET_UNSPECIFIED' }],
  ])('createParagraphBullets with bulletPreset %s is refused as missing', async (_name, bullets) => {
    const res = await bulletsOn(bullets);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid requests[0].createParagraphBullets: bulletPreset must be specified.');
  });

  it('createParagraphBullets with an object as bulletPreset is refused at parse time, quoting it as JSON', async () => {
    const res = await bulletsOn({ bulletPreset: { type: 'DISC' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `Invalid value at 'requests[0].create_paragraph_bullets.bullet_preset' (type.googleapis.com/google.apps.docs.v1.CreateParagraphBulletsRequest.BulletGlyphPreset), {"type":"DISC"}`,
    );
  });

  it('an object as a row index is quoted as JSON', async () => {
    await batch([{ insertTable: { rows: 1, columns: 1, ...at(1) } }]);
    const res = await batch([{ insertTableRow: { tableCellLocation: { tableStartLocation: { index: 2 }, rowIndex: { n: 1 } } } }]);
    expect(res.body.error.message).toBe('Invalid requests[0].insertTableRow: Invalid row index {"n":1}.');
  });

  it('an object as a column index is quoted as JSON', async () => {
    await batch([{ insertTable: { rows: 1, columns: 1, ...at(1) } }]);
    const res = await batch([{ insertTableColumn: { tableCellLocation: { tableStartLocation: { index: 2 }, columnIndex: [1] } } }]);
    expect(res.body.error.message).toBe('Invalid requests[0].insertTableColumn: Invalid column index [1].');
  });

  it('an object as a named range id is quoted as JSON', async () => {
    const res = await batch([{ deleteNamedRange: { namedRangeId: { id: 'x' } } }]);
    expect(res.body.error.message).toBe('Invalid requests[0].deleteNamedRange: The named range {"id":"x"} was not found.');
  });

  it('an object as a segment id is quoted as JSON', async () => {
    const res = await batch([{ insertText: { text: 'x', location: { index: 1, segmentId: { id: 'h' } } } }]);
    expect(res.body.error.message).toBe('Invalid requests[0].insertText: The segment ID {"id":"h"} was not found.');
  });

  it.each([
    ['requiredRevisionId', 'The document revision does not match the required revision ID {"rev":1}.'],
    ['targetRevisionId', 'The target revision ID {"rev":1} is invalid or too old.'],
  ])('an object as writeControl.%s is quoted as JSON', async (field, message) => {
    const res = await call('POST', `/v1/documents/${id}:batchUpdate`, { requests: [{ insertText: { text: 'x', ...at(1) } }], writeControl: { [field]: { rev: 1 } } });
    expect(res.body.error.message).toBe(message);
  });
});
