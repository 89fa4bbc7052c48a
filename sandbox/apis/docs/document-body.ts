/**
 * A document's content as the Docs API indexes it: index 0 is the section break, content starts at index 1, every
 * paragraph ends with `\n`, and the body always ends with one. Indexes count UTF-16 code units, which is what a
 * JavaScript string's length counts, so one array slot per index keeps the arithmetic exact.
 *
 * Slots are text characters or structure: a table takes one index at its start, each row one at its start, each
 * cell one at its start followed by the cell's own paragraphs (at least a `\n`); a page break and an inline image
 * take one index each inside their paragraph. So an empty r x c table at index i spans 1 + r * (1 + 2c) indexes and
 * its first cell's text starts at i + 3. Slots inside a table carry the table and cell they belong to, which is what
 * tells a table's last cell apart from the paragraph after it.
 *
 * Each slot carries its text style; a `\n` slot also carries its paragraph's style and bullet (a paragraph's style
 * lives on its closing newline, so deleting that newline merges the paragraph into the next and takes the next's).
 * Named ranges are tags on the slots they cover, so they move and shrink with edits as Docs keeps them.
 *
 * Besides the body, the state that a batch may change all-or-nothing lives here too: the document style, the lists
 * bullets refer to, inline objects and named ranges.
 * @see https://developers.google.com/docs/api/concepts/structure
 */

export type Style = Record<string, unknown>;

/** A table: its cells, row by row; each cell is an object slots point at, so rows and columns can move. */
export interface Table {
  rows: Cell[][];
}
export interface Cell {
  table: Table;
}

export type SlotKind = 'text' | 'table' | 'row' | 'cell' | 'pageBreak' | 'image';

export interface Slot {
  kind: SlotKind;
  /** The character for a text slot (`\n` ends a paragraph); empty for structure. */
  ch: string;
  text: Style;
  /** On a `\n`: its paragraph's style and bullet. */
  para?: Style;
  bullet?: { listId: string; nestingLevel: number };
  /** The table this slot is part of (its start, a row or cell start, or cell content). */
  table?: Table;
  /** The cell whose content this slot is (or whose start it marks). */
  cell?: Cell;
  /** An inline image's object id. */
  objectId?: string;
  /** Ids of the named ranges covering this slot. */
  ranges?: string[];
}

export interface NamedRangeMeta {
  name: string;
}

export const DEFAULT_PARAGRAPH: Style = { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' };

export class DocumentBody {
  slots: Slot[];
  documentStyle: Style;
  lists: Record<string, unknown>;
  inlineObjects: Record<string, unknown>;
  namedRanges: Map<string, NamedRangeMeta>;

  constructor(documentStyle: Style, init?: Partial<Pick<DocumentBody, 'slots' | 'lists' | 'inlineObjects' | 'namedRanges'>>) {
    this.documentStyle = documentStyle;
    this.slots = init?.slots ?? [{ kind: 'text', ch: '\n', text: {}, para: { ...DEFAULT_PARAGRAPH } }];
    this.lists = init?.lists ?? {};
    this.inlineObjects = init?.inlineObjects ?? {};
    this.namedRanges = init?.namedRanges ?? new Map();
  }

  /** A deep copy (tables and cells copied once each, slots re-pointed at the copies). */
  clone(): DocumentBody {
    const tables = new Map<Table, Table>();
    const cells = new Map<Cell, Cell>();
    const copyTable = (t: Table): Table => {
      let out = tables.get(t);
      if (!out) {
        out = { rows: [] };
        tables.set(t, out);
        const copy = out;
        copy.rows = t.rows.map((row) => row.map((c) => {
          const cc: Cell = { table: copy };
          cells.set(c, cc);
          return cc;
        }));
      }
      return out;
    };
    const slots = this.slots.map((s) => {
      const out: Slot = { ...s, text: { ...s.text } };
      if (s.para) out.para = structuredClone(s.para);
      if (s.bullet) out.bullet = { ...s.bullet };
      if (s.ranges) out.ranges = [...s.ranges];
      if (s.table) out.table = copyTable(s.table);
      if (s.cell) out.cell = cells.get(s.cell);
      return out;
    });
    return new DocumentBody(structuredClone(this.documentStyle), {
      slots,
      lists: structuredClone(this.lists),
      inlineObjects: structuredClone(this.inlineObjects),
      namedRanges: new Map([...this.namedRanges].map(([id, m]) => [id, { ...m }])),
    });
  }

  /** The body's end index (exclusive): one past the final newline. */
  get endIndex(): number {
    return this.slots.length + 1;
  }

  /** The slot at a document index (index 1 is the first slot). */
  slotAt(index: number): Slot | undefined {
    return this.slots[index - 1];
  }

  /** True when `index` is inside a paragraph: a text, page-break or image slot, where text may be inserted. */
  isInParagraph(index: number): boolean {
    const s = this.slotAt(index);
    return s !== undefined && (s.kind === 'text' || s.kind === 'pageBreak' || s.kind === 'image');
  }

  /**
   * Inserts slots before `index` (the caller has checked it is inside a paragraph). New slots take the text style
   * of the character before (or the one at the index), the table/cell and named ranges they land in, and new
   * newlines copy the paragraph style they split.
   */
  insertSlots(index: number, make: (base: Pick<Slot, 'text' | 'table' | 'cell' | 'ranges'>, para: Style) => Slot[]): void {
    const at = index - 1;
    const here = this.slots[at] as Slot;
    const before = this.slots[at - 1];
    const styleFrom = before && before.kind === 'text' && before.ch !== '\n' && before.cell === here.cell ? before : here;
    const ranges = (here.ranges ?? []).filter((id) => before?.ranges?.includes(id));
    const base: Pick<Slot, 'text' | 'table' | 'cell' | 'ranges'> = { text: { ...styleFrom.text } };
    if (here.table) base.table = here.table;
    if (here.cell) base.cell = here.cell;
    if (ranges.length > 0) base.ranges = ranges;
    this.slots.splice(at, 0, ...make(base, this.paragraphStyleAt(at)));
  }

  /** Inserts text inside a paragraph. */
  insertText(index: number, text: string): void {
    this.insertSlots(index, (base, para) => textSlots(text, base, para));
  }

  /** Deletes [start, end); the caller has checked the range against the structure. */
  delete(start: number, end: number): void {
    this.slots.splice(start - 1, end - start);
    this.dropEmptyNamedRanges();
  }

  /** The whole text of text slots, one character per slot (structure as U+0000, so indexes line up). */
  get text(): string {
    return this.slots.map((s) => (s.kind === 'text' ? s.ch : '\u0000')).join('');
  }

  /** Replaces every occurrence; returns how many. */
  replaceAll(find: string, replacement: string, matchCase: boolean): number {
    const hay = matchCase ? this.text : this.text.toLowerCase();
    const needle = matchCase ? find : find.toLowerCase();
    const starts: number[] = [];
    for (let from = 0; ; ) {
      const i = hay.indexOf(needle, from);
      if (i < 0) break;
      // A match never spans two cells or a cell and the body.
      if (this.slots[i]?.cell === this.slots[i + needle.length - 1]?.cell) starts.push(i);
      from = i + needle.length;
    }
    // Right to left so earlier indexes stay valid.
    for (const i of starts.reverse()) {
      const first = this.slots[i] as Slot;
      const base: Pick<Slot, 'text' | 'table' | 'cell' | 'ranges'> = { text: { ...first.text } };
      if (first.table) base.table = first.table;
      if (first.cell) base.cell = first.cell;
      if (first.ranges) base.ranges = [...first.ranges];
      this.slots.splice(i, needle.length, ...textSlots(replacement, base, this.paragraphStyleAt(i)));
    }
    this.dropEmptyNamedRanges();
    return starts.length;
  }

  /** Applies `fields` of `style` to the text in [start, end): `*` replaces the whole style. */
  updateTextStyle(start: number, end: number, style: Style, fields: string[]): void {
    for (let i = start - 1; i < end - 1; i++) {
      const s = this.slots[i] as Slot;
      if (s.kind === 'text' || s.kind === 'pageBreak' || s.kind === 'image') s.text = applyFields(s.text, style, fields);
    }
  }

  /** The closing newline of every paragraph overlapping [start, end). */
  paragraphEnds(start: number, end: number): Slot[] {
    const out: Slot[] = [];
    for (let i = start - 1; i < this.slots.length; i++) {
      const s = this.slots[i] as Slot;
      if (s.kind === 'text' && s.ch === '\n') {
        out.push(s);
        if (i >= end - 2) break;
      }
    }
    return out;
  }

  /** Applies `fields` of `style` to every paragraph overlapping [start, end). */
  updateParagraphStyle(start: number, end: number, style: Style, fields: string[]): void {
    for (const nl of this.paragraphEnds(start, end)) nl.para = applyFields(nl.para ?? { ...DEFAULT_PARAGRAPH }, style, fields);
  }

  /** Tags [start, end) with a named range. */
  tagRange(id: string, start: number, end: number): void {
    for (let i = start - 1; i < end - 1; i++) {
      const s = this.slots[i] as Slot;
      s.ranges = [...(s.ranges ?? []), id];
    }
  }

  /** Removes a named range's tags and metadata. */
  untagRange(id: string): void {
    for (const s of this.slots) if (s.ranges?.includes(id)) s.ranges = s.ranges.filter((r) => r !== id);
    this.namedRanges.delete(id);
  }

  /** A named range's ranges: its contiguous runs of tagged slots, as [start, end) indexes. */
  rangesOf(id: string): Array<{ startIndex: number; endIndex: number }> {
    const out: Array<{ startIndex: number; endIndex: number }> = [];
    for (let i = 0; i < this.slots.length; i++) {
      if (!this.slots[i]?.ranges?.includes(id)) continue;
      const start = i;
      while (i + 1 < this.slots.length && this.slots[i + 1]?.ranges?.includes(id)) i++;
      out.push({ startIndex: start + 1, endIndex: i + 2 });
    }
    return out;
  }

  /** A named range whose text was all deleted is gone, as in Docs. */
  private dropEmptyNamedRanges(): void {
    for (const id of [...this.namedRanges.keys()]) if (this.rangesOf(id).length === 0) this.namedRanges.delete(id);
  }

  paragraphStyleAt(at: number): Style {
    for (let i = at; i < this.slots.length; i++) {
      const s = this.slots[i] as Slot;
      if (s.kind === 'text' && s.ch === '\n') return { ...(s.para ?? DEFAULT_PARAGRAPH) };
    }
    return { ...DEFAULT_PARAGRAPH };
  }
}

/** Text as slots; new newlines take the paragraph style `para`. */
export function textSlots(text: string, base: Pick<Slot, 'text' | 'table' | 'cell' | 'ranges'>, para: Style): Slot[] {
  return text.split('').map((ch) => {
    const slot: Slot = { ...base, kind: 'text', ch, text: { ...base.text } };
    if (base.ranges) slot.ranges = [...base.ranges];
    if (ch === '\n') slot.para = { ...para };
    return slot;
  });
}

export function applyFields(current: Style, given: Style, fields: string[]): Style {
  if (fields.includes('*')) return structuredClone(given);
  const out: Style = { ...current };
  for (const f of fields) {
    const key = f.split('.')[0] as string;
    if (given[key] === undefined) delete out[key];
    else out[key] = structuredClone(given[key]);
  }
  return out;
}
