import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { SpecError } from './spec-error.js';

/** A path into a parsed spec: object keys and array indexes. */
export type SpecPath = ReadonlyArray<string | number>;

/**
 * One YAML spec file, parsed with source positions kept, so that every later stage (meta-schema validation,
 * semantic checks) can report `file:line:column` for any value it finds wrong.
 */
export interface SpecSource {
  /** Path as reported in errors (relative to the working directory when possible). */
  file: string;
  /** The plain JS value of the document. */
  data: unknown;
  /** An error positioned at the node at `path` (or at its key when `at` is `key`), falling back to the nearest ancestor. */
  error(path: SpecPath, message: string, at?: 'key' | 'value'): SpecError;
}

/** Parses YAML text. Syntax errors are returned, positioned; `source` is undefined when the text is unusable. */
export function parseSpecSource(file: string, text: string): { source?: SpecSource; errors: SpecError[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors: SpecError[] = [];
  const report = (e: (typeof doc.errors)[number], more = '') => {
    const pos = lineCounter.linePos(e.pos[0]);
    errors.push({ file, line: pos.line, column: pos.col, message: `YAML: ${e.message.split('\n')[0]}${more}` });
  };
  // One syntax slip (a key indented a space short) upsets every line after it in its mapping, and the parser says so
  // for each: the first error is the mistake, so it alone is reported, saying how many came after it.
  const [first, ...rest] = doc.errors;
  if (first !== undefined) {
    report(first, rest.length === 0 ? '' : ` (and ${rest.length} more after it, which it may cause or hide: fix it first)`);
    return { errors };
  }
  for (const w of doc.warnings) report(w);
  const locate = (offset: number) => lineCounter.linePos(offset);
  const source: SpecSource = {
    file,
    data: doc.toJS({ maxAliasCount: 100 }),
    error(path, message, at = 'value') {
      const offset = findOffset(doc, path, at);
      const pos = locate(offset);
      return { file, line: pos.line, column: pos.col, message };
    },
  };
  return { source, errors };
}

/** Offset of the deepest node on `path` that exists; the key's offset when `at` is `key`. */
function findOffset(doc: Document, path: SpecPath, at: 'key' | 'value'): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
      if (!pair) return offset;
      if (last && at === 'key') return rangeStart(pair.key) ?? offset;
      node = pair.value;
      offset = rangeStart(node) ?? rangeStart(pair.key) ?? offset;
    } else if (isSeq(node) && /^\d+$/.test(String(seg))) {
      node = node.items[Number(seg)];
      if (node === undefined) return offset;
      offset = rangeStart(node) ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
