/**
 * What is wrong with caller JSON text, said without repeating the text: V8's messages sometimes quote all of it
 * (`Unexpected token '}', "{"a":}" is not valid JSON`), and it may hold a secret (a request body's client secret, a
 * tool argument). Used by the body parser (service/json-body.ts), by the readers of JSON text given in tool inputs
 * (agent/model-input.ts, mcp/meta-tools.ts) and by the input validator's message for text given where an object is
 * expected (validation/violations.ts), so every refusal of such text gives the same reason.
 */
import { JsonPrototypeKeyError, JsonTooDeepError, parseUntrustedJson } from './untrusted-json.js';

/** Where `text` stops being JSON and why, from the `SyntaxError` JSON.parse threw on it (the text left out). */
export function jsonSyntaxProblem(text: string, error: unknown): { position: number; reason: string } {
  const message = error instanceof Error ? error.message : '';
  const stated = /\bat position (\d+)/.exec(message);
  const position = stated ? Number(stated[1]) : jsonErrorPosition(text);
  const reason = message
    // Whole (`, "{...}" is not`) or elided on either side (`, ..."t_secret":SUPERSECRE"... is not`): both go.
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ after JSON at position \d+.*$/s, ' after JSON');
  return { position, reason: reason || 'Unexpected input' };
}

/** `null`, `an array`, `a number`...: what a JSON value is, for a message that must not quote it. */
export function describeJson(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * A string given where an object is expected, read as the JSON text of one (parseUntrustedJson's rules): the object,
 * or why it is not one (`the JSON text is nested deeper than 64 levels`, `the JSON text has a __proto__ key`,
 * `the text is not JSON (Unexpected token 'o' at position 1)`, `the JSON text is an array, not an object`); `notJson`
 * when it does not parse at all.
 */
export function readJsonObjectText(text: string): { object: Record<string, unknown> } | { problem: string; notJson?: true } {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) return { problem: `the JSON text is nested deeper than ${error.maxDepth} levels` };
    if (error instanceof JsonPrototypeKeyError) return { problem: `the JSON text has a ${error.key} key` };
    const { position, reason } = jsonSyntaxProblem(text, error);
    return { problem: `the text is not JSON (${reason} at position ${position})`, notJson: true };
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { object: value as Record<string, unknown> }
    : { problem: `the JSON text is ${describeJson(value)}, not an object` };
}

/**
 * The offset at which `text` stops being a prefix of a JSON text (its length when it is a prefix that ended early,
 * -1 when it is valid JSON). A small recursive-descent scanner that builds nothing; used only on the failure path.
 */
export function jsonErrorPosition(text: string): number {
  let i = 0;
  const fail = (at: number): never => {
    throw at;
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (i >= text.length || text[i] !== ch) fail(i);
      i++;
    }
  };
  const digits = (): void => {
    if (i >= text.length || !/[0-9]/.test(text[i]!)) fail(i);
    while (i < text.length && /[0-9]/.test(text[i]!)) i++;
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail(i);
      const ch = text.charCodeAt(i);
      if (ch === 0x22) break;
      if (ch < 0x20) fail(i);
      if (ch === 0x5c) {
        i++;
        if (i >= text.length) fail(i);
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) {
            const hex = text[i + k];
            if (hex === undefined || !/[0-9a-fA-F]/.test(hex)) fail(i + k);
          }
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i]!)) fail(i);
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    ws();
    if (i >= text.length) fail(i);
    const ch = text[i]!;
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i);
        string();
        ws();
        if (text[i] !== ':') fail(i);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(i);
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(i);
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    fail(i);
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (at) {
    return Math.min(at as number, text.length);
  }
}
