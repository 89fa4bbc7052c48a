/**
 * A document body as the Docs API indexes it: index 0 is the section break, text starts at index 1, every
 * paragraph ends with `\n`, and the body always ends with one. Indexes count UTF-16 code units, which is what a
 * JavaScript string's length counts, so one array slot per code unit keeps the arithmetic exact.
 *
 * Each slot carries its text style; a `\n` slot also carries its paragraph's style (a paragraph's style lives on
 * its closing newline, so deleting that newline merges the paragraph into the next and takes the next's style).
 * @see https://developers.google.com/docs/api/concepts/structure
 */

export type Style = Record<string, unknown>;

interface Unit {
  ch: string;
  text: Style;
  para?: Style;
}

const DEFAULT_PARAGRAPH: Style = { namedStyleType: 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT' };

export class DocumentBody {
  private units: Unit[];

  constructor(units?: Unit[]) {
    this.units = units ?? [{ ch: '\n', text: {}, para: { ...DEFAULT_PARAGRAPH } }];
  }

  clone(): DocumentBody {
    return new DocumentBody(this.units.map((u) => ({ ch: u.ch, text: { ...u.text }, ...(u.para ? { para: { ...u.para } } : {}) })));
  }

  /** The body's end index (exclusive): one past the final newline. */
  get endIndex(): number {
    return this.units.length + 1;
  }

  /** The whole text, index 1 first. */
  get text(): string {
    return this.units.map((u) => u.ch).join('');
  }

  /** Inserts at an index in [1, endIndex - 1]; new newlines copy the paragraph style they split. */
  insert(index: number, text: string): void {
    const at = index - 1;
    const inherit = this.units[at - 1] ?? this.units[at];
    const style = inherit && inherit.ch !== '\n' ? { ...inherit.text } : { ...(this.units[at]?.text ?? {}) };
    const paraOfTarget = this.paragraphStyleAt(at);
    const added: Unit[] = text.split('').map((ch) => (ch === '\n' ? { ch, text: { ...style }, para: { ...paraOfTarget } } : { ch, text: { ...style } }));
    this.units.splice(at, 0, ...added);
  }

  /** Deletes [start, end); the caller has checked the bounds. */
  delete(start: number, end: number): void {
    this.units.splice(start - 1, end - start);
  }

  /** Replaces every occurrence; returns how many. */
  replaceAll(find: string, replacement: string, matchCase: boolean): number {
    const hay = matchCase ? this.text : this.text.toLowerCase();
    const needle = matchCase ? find : find.toLowerCase();
    const starts: number[] = [];
    for (let from = 0; ; ) {
      const i = hay.indexOf(needle, from);
      if (i < 0) break;
      starts.push(i);
      from = i + needle.length;
    }
    // Right to left so earlier indexes stay valid.
    for (const i of starts.reverse()) {
      const style = { ...(this.units[i]?.text ?? {}) };
      const para = this.paragraphStyleAt(i);
      const added: Unit[] = replacement.split('').map((ch) => (ch === '\n' ? { ch, text: { ...style }, para: { ...para } } : { ch, text: { ...style } }));
      this.units.splice(i, needle.length, ...added);
    }
    return starts.length;
  }

  /** Applies `fields` of `style` to the text in [start, end): `*` replaces the whole style. */
  updateTextStyle(start: number, end: number, style: Style, fields: string[]): void {
    for (let i = start - 1; i < end - 1; i++) {
      const u = this.units[i] as Unit;
      u.text = applyFields(u.text, style, fields);
    }
  }

  /** Applies `fields` of `style` to every paragraph overlapping [start, end). */
  updateParagraphStyle(start: number, end: number, style: Style, fields: string[]): void {
    let i = start - 1;
    // Walk to each paragraph's closing newline from the first touched position.
    while (i < this.units.length) {
      while (i < this.units.length && (this.units[i] as Unit).ch !== '\n') i++;
      const nl = this.units[i];
      if (!nl) break;
      nl.para = applyFields(nl.para ?? { ...DEFAULT_PARAGRAPH }, style, fields);
      i++;
      if (i >= end - 1) break;
    }
  }

  private paragraphStyleAt(at: number): Style {
    for (let i = at; i < this.units.length; i++) {
      const u = this.units[i] as Unit;
      if (u.ch === '\n') return { ...(u.para ?? DEFAULT_PARAGRAPH) };
    }
    return { ...DEFAULT_PARAGRAPH };
  }

  /** `body.content`: the section break, then one paragraph element per paragraph with its text runs. */
  content(): unknown[] {
    const out: unknown[] = [
      {
        endIndex: 1,
        sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT', sectionType: 'CONTINUOUS' } },
      },
    ];
    let paraStart = 0;
    for (let i = 0; i < this.units.length; i++) {
      const u = this.units[i] as Unit;
      if (u.ch !== '\n') continue;
      const elements: unknown[] = [];
      let runStart = paraStart;
      for (let j = paraStart; j <= i; j++) {
        const next = this.units[j + 1];
        const endOfRun = j === i || !next || JSON.stringify(next.text) !== JSON.stringify((this.units[j] as Unit).text);
        if (endOfRun) {
          elements.push({
            startIndex: runStart + 1,
            endIndex: j + 2,
            textRun: {
              content: this.units.slice(runStart, j + 1).map((x) => x.ch).join(''),
              textStyle: { ...(this.units[runStart] as Unit).text },
            },
          });
          runStart = j + 1;
        }
      }
      out.push({
        startIndex: paraStart + 1,
        endIndex: i + 2,
        paragraph: { elements, paragraphStyle: { ...(u.para ?? DEFAULT_PARAGRAPH) } },
      });
      paraStart = i + 1;
    }
    return out;
  }
}

function applyFields(current: Style, given: Style, fields: string[]): Style {
  if (fields.includes('*')) return structuredClone(given);
  const out: Style = { ...current };
  for (const f of fields) {
    const key = f.split('.')[0] as string;
    if (given[key] === undefined) delete out[key];
    else out[key] = structuredClone(given[key]);
  }
  return out;
}
