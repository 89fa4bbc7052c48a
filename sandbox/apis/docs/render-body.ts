/**
 * A body's slots as the Docs API's `body.content`: the section break, then paragraphs (text runs, page breaks,
 * inline images) and tables (rows of cells, each cell with its own paragraphs), every element with its indexes.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents#StructuralElement
 */
import { DEFAULT_PARAGRAPH, type DocumentBody, type Slot, type Table } from './document-body.js';

const SECTION_BREAK = {
  endIndex: 1,
  sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT', sectionType: 'CONTINUOUS' } },
};

export function renderContent(body: DocumentBody): unknown[] {
  return [SECTION_BREAK, ...renderRange(body.slots, 0, body.slots.length)];
}

/** Structural elements for slots [from, to) (0-based slot positions; a slot's document index is its position + 1). */
function renderRange(slots: Slot[], from: number, to: number): unknown[] {
  const out: unknown[] = [];
  let i = from;
  while (i < to) {
    const s = slots[i] as Slot;
    if (s.kind === 'table' && s.table) {
      const end = tableEnd(slots, i, s.table);
      out.push(renderTable(slots, i, end, s.table));
      i = end;
    } else {
      let nl = i;
      while (nl < to && !((slots[nl] as Slot).kind === 'text' && (slots[nl] as Slot).ch === '\n')) nl++;
      out.push(renderParagraph(slots, i, Math.min(nl, to - 1)));
      i = nl + 1;
    }
  }
  return out;
}

/** The slot position one past the table starting at `start`. */
function tableEnd(slots: Slot[], start: number, table: Table): number {
  let i = start + 1;
  while (i < slots.length && (slots[i] as Slot).table === table) i++;
  return i;
}

function renderTable(slots: Slot[], start: number, end: number, table: Table): unknown {
  const rows: unknown[] = [];
  let i = start + 1;
  for (const row of table.rows) {
    const rowStart = i;
    i++; // the row's own slot
    const cells: unknown[] = [];
    for (const cell of row) {
      const cellStart = i;
      i++; // the cell's own slot
      const contentStart = i;
      while (i < end && (slots[i] as Slot).cell === cell && (slots[i] as Slot).kind !== 'cell') i++;
      cells.push({
        startIndex: cellStart + 1,
        endIndex: i + 1,
        content: renderRange(slots, contentStart, i),
        tableCellStyle: { rowSpan: 1, columnSpan: 1, contentAlignment: 'TOP' },
      });
    }
    rows.push({ startIndex: rowStart + 1, endIndex: i + 1, tableCells: cells, tableRowStyle: { minRowHeight: { unit: 'PT' } } });
  }
  return {
    startIndex: start + 1,
    endIndex: end + 1,
    table: { rows: table.rows.length, columns: table.rows[0]?.length ?? 0, tableRows: rows, tableStyle: { tableColumnProperties: (table.rows[0] ?? []).map(() => ({ widthType: 'EVENLY_DISTRIBUTED' })) } },
  };
}

/** A paragraph of slots [from, nl], `nl` being its closing newline. */
function renderParagraph(slots: Slot[], from: number, nl: number): unknown {
  const elements: unknown[] = [];
  let runStart = from;
  for (let j = from; j <= nl; j++) {
    const s = slots[j] as Slot;
    if (s.kind === 'pageBreak' || s.kind === 'image') {
      elements.push(
        s.kind === 'pageBreak'
          ? { startIndex: j + 1, endIndex: j + 2, pageBreak: { textStyle: { ...s.text } } }
          : { startIndex: j + 1, endIndex: j + 2, inlineObjectElement: { inlineObjectId: s.objectId, textStyle: { ...s.text } } },
      );
      runStart = j + 1;
      continue;
    }
    const next = slots[j + 1];
    const endOfRun = j === nl || !next || next.kind !== 'text' || JSON.stringify(next.text) !== JSON.stringify(s.text);
    if (endOfRun) {
      elements.push({
        startIndex: runStart + 1,
        endIndex: j + 2,
        textRun: { content: slots.slice(runStart, j + 1).map((x) => x.ch).join(''), textStyle: { ...(slots[runStart] as Slot).text } },
      });
      runStart = j + 1;
    }
  }
  const closing = slots[nl] as Slot;
  const paragraph: Record<string, unknown> = { elements, paragraphStyle: { ...(closing.para ?? DEFAULT_PARAGRAPH) } };
  if (closing.bullet) {
    // proto3 JSON leaves out a zero nesting level.
    paragraph.bullet = closing.bullet.nestingLevel === 0 ? { listId: closing.bullet.listId } : { ...closing.bullet };
  }
  return { startIndex: from + 1, endIndex: nl + 2, paragraph };
}
