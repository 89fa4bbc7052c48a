/**
 * The JSON body parser that says where a body stops being JSON. fastify's default parser replaces the
 * `SyntaxError` with `FST_ERR_CTP_INVALID_JSON_BODY` and loses the position; this one keeps it, and refuses what
 * `json/untrusted-json.ts` refuses (too deep; `__proto__` and `constructor.prototype` keys, as fastify does).
 *
 * V8's messages sometimes quote the whole body (`Unexpected token '}', "{"a":}" is not valid JSON`), and a body may
 * hold a client secret, so the reason is rebuilt from the message without the quote, and the position is found by
 * {@link jsonErrorPosition} when V8 does not give one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
import type { FastifyRequest } from 'fastify';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseUntrustedJson } from '../json/untrusted-json.js';

/** A body that is not JSON: fastify's error handler receives it (status 400). */
export class InvalidJsonBodyError extends SyntaxError {
  readonly code = 'AC_INVALID_JSON_BODY';
  readonly statusCode = 400;
  constructor(
    /** UTF-16 offset of the first character that cannot continue a JSON text (the length when it ended early). */
    readonly position: number,
    /** What went wrong, without any of the body's text beyond one offending character. */
    readonly reason: string,
  ) {
    super(`The request body is not valid JSON (at position ${position}: ${reason})`);
    this.name = 'InvalidJsonBodyError';
  }
}

export function isInvalidJsonBodyError(error: unknown): error is InvalidJsonBodyError {
  return error instanceof InvalidJsonBodyError;
}

/**
 * Parses a request body; throws {@link InvalidJsonBodyError} with the position, on input nested deeper than
 * {@link MAX_JSON_DEPTH}, or on a prototype-poisoning key (checked on the parsed keys, see `json/untrusted-json.ts`).
 */
export function parseJsonBody(text: string): unknown {
  try {
    return parseUntrustedJson(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new InvalidJsonBodyError(error.position, `Arrays and objects are nested deeper than ${error.maxDepth} levels, the most this service accepts`);
    }
    const message = error instanceof Error ? error.message : '';
    if (message === 'Object contains forbidden prototype property') throw new InvalidJsonBodyError(0, 'Object contains a forbidden prototype property');
    const stated = /\bat position (\d+)/.exec(message);
    const position = stated ? Number(stated[1]) : jsonErrorPosition(text);
    const reason = message
      // Whole (`, "{...}" is not`) or elided on either side (`, ..."t_secret":SUPERSECRE"... is not`): both go.
      .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ after JSON at position \d+.*$/s, ' after JSON');
    throw new InvalidJsonBodyError(position, reason || 'Unexpected input');
  }
}

/** fastify content-type parser (`parseAs: 'string'`) around {@link parseJsonBody}. */
export function jsonBodyParser(_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.length === 0) {
    done(new InvalidJsonBodyError(0, 'The body is empty'));
    return;
  }
  try {
    done(null, parseJsonBody(text));
  } catch (error) {
    done(error as Error);
  }
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
