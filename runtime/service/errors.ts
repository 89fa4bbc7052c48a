/**
 * Rendering errors as the service's one error body: `{"error": {"code", "message", "details"?, "retry_after_seconds"?,
 * "execution_id"?, "request_id"}}` (`retry_after_seconds` beside a Retry-After header, `execution_id` on a failed tool
 * call or proxy request).
 *
 * A {@link ConnectorError} keeps its code, message, details and the catalogue's status (with Retry-After where set).
 * fastify's own refusals (bad JSON, body too large, schema violations) map onto catalogue codes; a body refused by
 * `jsonBodyParser` (json-body.ts) says where it stops being JSON. Anything else is a
 * bug: it is logged with its stack under the request id and answered as `internal` without a word of its message.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ConnectorError, isConnectorError, wholeRetryAfterSeconds, type ErrorCode } from '../errors.js';
import type { Violation } from '../types.js';
import { isInvalidJsonBodyError } from './json-body.js';
import { toViolations, type AjvErrorLike } from '../validation/violations.js';
import { isPlainObject } from '../agent/formats/open-shapes.js';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown; retry_after_seconds?: number; execution_id?: string; request_id: string };
}

export function errorBody(error: ConnectorError, requestId: string): ErrorBody {
  return { error: { ...error.toJSON(), request_id: requestId } };
}

/** Sends `error` as the error body with its status and Retry-After. */
export function sendError(reply: FastifyReply, error: ConnectorError): FastifyReply {
  const retryAfter = wholeRetryAfterSeconds(error);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="agent-connector"');
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(error, reply.request.id));
}

/** Where fastify found the violation, and the word naming the whole value in messages about it. */
const CONTEXT_ROOTS: Record<string, { root: string; part: 'body' | 'query' | 'params' | 'headers' }> = {
  body: { root: 'body', part: 'body' },
  querystring: { root: 'query', part: 'query' },
  params: { root: 'path', part: 'params' },
  headers: { root: 'headers', part: 'headers' },
};

/**
 * fastify's request-schema violations, rendered by the tool validators' own builder: the same `{pointer, message,
 * keyword}` entries (escaped RFC 6901 pointers relative to the body, query or path), the same wording (`unknown
 * parameter 'x'`, `connector must be one of: ...`, `url must be a URI`).
 */
export function requestViolations(error: FastifyError, request: FastifyRequest): Violation[] {
  const validationContext = (error as { validationContext?: string }).validationContext ?? 'body';
  const context = CONTEXT_ROOTS[validationContext] ?? CONTEXT_ROOTS.body!;
  // The route's schema for that part, so that an unknown field names the one it misspells (`toolInput`: tool_input).
  const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[validationContext];
  const errors = ((error as { validation?: Partial<AjvErrorLike>[] }).validation ?? []).map((e) => ({
    instancePath: e.instancePath ?? '',
    schemaPath: e.schemaPath ?? '',
    keyword: e.keyword ?? 'invalid',
    params: e.params ?? {},
  }));
  return toViolations(errors, request[context.part], context.root, isPlainObject(schema) ? schema : undefined);
}

/** Maps anything thrown in a route to a {@link ConnectorError}; logs what is a bug. */
export function toConnectorError(error: unknown, request: FastifyRequest): ConnectorError {
  if (isConnectorError(error)) return error;
  const fe = error as FastifyError;
  if (fe && typeof fe === 'object' && 'validation' in fe && fe.validation) {
    const context = (fe as { validationContext?: string }).validationContext ?? 'body';
    const violations = requestViolations(fe, request);
    const where = context === 'querystring' ? 'query' : context === 'params' ? 'path' : context;
    return new ConnectorError('invalid_request', `The request ${where} is invalid: ${violations.map((v) => v.message).join('; ')}`, {
      details: { violations },
    });
  }
  if (isInvalidJsonBodyError(error)) {
    return new ConnectorError('invalid_request', error.message, { details: { position: error.position } });
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // The limit in force, so that a caller (a model handed the error) knows how much less to send.
      const limit = request.routeOptions?.bodyLimit;
      return typeof limit === 'number'
        ? new ConnectorError('payload_too_large', `The request body is larger than the limit of ${limit} bytes`, { details: { limit_bytes: limit } })
        : new ConnectorError('payload_too_large', 'The request body is larger than the limit');
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ConnectorError('invalid_request', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ConnectorError('unsupported_media_type', 'The request content type is not supported; send application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ConnectorError('invalid_request', 'The request body does not match its content-length');
    default:
      break;
  }
  // Body parser errors from the JSON parser carry a 400 status but no fastify code.
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode === 400 && fe instanceof SyntaxError) {
    return new ConnectorError('invalid_request', 'The request body is not valid JSON');
  }
  request.log.error({ err: error }, 'unexpected error');
  return new ConnectorError('internal', 'Internal error; quote the request id when reporting it');
}
