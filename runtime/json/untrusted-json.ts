/**
 * JSON from callers (request bodies, JSON-string tool parameters), read one way everywhere.
 *
 * Two rules on top of `JSON.parse`:
 * - **Depth.** Nothing the service accepts nests deeper than {@link MAX_JSON_DEPTH} arrays and objects; the deepest
 *   request any of the five APIs documents is far below it. V8 parses any depth, but the code that walks a value
 *   afterwards (validators, `JSON.stringify`) recurses, and 100,000 levels overflow the stack there. The depth is
 *   checked on the text, without recursion, before anything is built.
 * - **Prototype poisoning.** `__proto__` keys and `constructor.prototype` are refused by fastify's
 *   `secure-json-parse`, which checks the parsed keys, so escapes (`"\u005f_proto__"`) are caught too.
 *
 * @see https://github.com/fastify/secure-json-parse
 */
import secureJson from 'secure-json-parse';

/** The deepest nesting of arrays and objects accepted in any JSON input (documented in docs/security.md). */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset of the first `[` or `{` that opens level `max + 1` in `text`, or -1 when the text never nests that
 * deep. Brackets inside strings do not count. A scan, not a parse: invalid JSON is left to the parser.
 */
export function jsonDepthExceededAt(text: string, max: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return -1;
}

/** Whether a value (built in-process, e.g. a proxy body from a library caller) nests deeper than `max`. Iterative. */
export function valueDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (node === null || typeof node !== 'object') continue;
      if (depth >= max) return true;
      for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') next.push(child);
    }
    level = next;
  }
  return false;
}

/** Thrown for input nested deeper than allowed; `position` is the offset of the bracket that went too deep. */
export class JsonTooDeepError extends SyntaxError {
  constructor(readonly position: number, readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/** Thrown for JSON text with a prototype-poisoning key; `key` says which of the two. */
export class JsonPrototypeKeyError extends SyntaxError {
  constructor(readonly key: '__proto__' | 'constructor.prototype') {
    super(`JSON has a ${key} key`);
    this.name = 'JsonPrototypeKeyError';
  }
}

/**
 * Parses caller-supplied JSON text: the depth limit ({@link JsonTooDeepError}), then `secure-json-parse`, whose
 * refusal of a prototype-poisoning key becomes {@link JsonPrototypeKeyError}; `JSON.parse`'s own `SyntaxError`
 * passes through.
 */
export function parseUntrustedJson(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  const tooDeep = jsonDepthExceededAt(text, maxDepth);
  if (tooDeep !== -1) throw new JsonTooDeepError(tooDeep, maxDepth);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // secure-json-parse checks the keys of what JSON.parse built, with one message for both keys: a text that
    // JSON.parse reads was refused for a key, and the scan for __proto__ alone says which. Failure path only.
    let plain: unknown;
    try {
      plain = JSON.parse(text);
    } catch {
      throw error;
    }
    const hasProto = secureJson.scan(plain as Record<string, unknown>, { protoAction: 'error', constructorAction: 'ignore', safe: true }) === null;
    throw new JsonPrototypeKeyError(hasProto ? '__proto__' : 'constructor.prototype');
  }
}
