/**
 * A proxy body as the exact JSON text the caller sent. Re-serializing a parsed body changes what the upstream
 * receives (`9007199254740993` becomes `9007199254740992`, `1e309` becomes `null`, key order and escapes change),
 * so the HTTP service hands the proxy the body's own bytes, cut from the request text it already parsed (and
 * checked: depth, prototype keys). In-process callers may pass one too.
 */
export class JsonText {
  constructor(
    /** A complete JSON value, e.g. `{"n": 9007199254740993}`. */
    readonly text: string,
  ) {}
}

/** Index just past the JSON string token starting at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 0x5c) j++;
    else if (ch === 0x22) return j + 1;
  }
  return text.length;
}

/** Index just past the JSON value starting at `i` (not whitespace). Brackets in strings do not count. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 0x22) {
      j = stringEnd(text, j) - 1;
      if (depth === 0) return j + 1;
    } else if (ch === 0x5b || ch === 0x7b) depth++;
    else if (ch === 0x5d || ch === 0x7d) {
      if (depth === 0) return j; // the end of the enclosing object: a scalar ended just before
      if (--depth === 0) return j + 1;
    } else if (depth === 0 && (ch === 0x2c || ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d)) return j;
  }
  return text.length;
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/**
 * The source text of member `name` of the top-level object in `text` (the last one, as `JSON.parse` keeps the last
 * of duplicate keys), or undefined. `text` must be JSON that parsed as an object; keys are compared decoded, so
 * `"b\u006fdy"` is `body` here as it was to the parser.
 */
export function memberText(text: string, name: string): string | undefined {
  let found: string | undefined;
  let i = skipWhitespace(text, 0);
  if (text[i] !== '{') return undefined;
  i++;
  for (;;) {
    i = skipWhitespace(text, i);
    if (text[i] !== '"') return found;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    i = skipWhitespace(text, i + 1); // past ':'
    const end = valueEnd(text, i);
    if (key === name) found = text.slice(i, end);
    i = skipWhitespace(text, end);
    if (text[i] !== ',') return found;
    i++;
  }
}
