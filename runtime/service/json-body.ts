/**
 * The JSON body parser that says where a body stops being JSON. fastify's default parser replaces the
 * `SyntaxError` with `FST_ERR_CTP_INVALID_JSON_BODY` and loses the position; this one keeps it, and refuses what
 * `json/untrusted-json.ts` refuses (too deep; `__proto__` and `constructor.prototype` keys, as fastify does).
 *
 * V8's messages sometimes quote the whole body (`Unexpected token '}', "{"a":}" is not valid JSON`), and a body may
 * hold a client secret, so the reason is rebuilt from the message without the quote, and the position found where V8
 * does not give one (json/json-text-problem.ts).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
import type { FastifyRequest } from 'fastify';
import { jsonSyntaxProblem } from '../json/json-text-problem.js';
import { JsonPrototypeKeyError, JsonTooDeepError, MAX_JSON_DEPTH, parseUntrustedJson } from '../json/untrusted-json.js';

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
    if (error instanceof JsonPrototypeKeyError) throw new InvalidJsonBodyError(0, `Object contains a forbidden prototype property (a ${error.key} key)`);
    const { position, reason } = jsonSyntaxProblem(text, error);
    throw new InvalidJsonBodyError(position, reason);
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
