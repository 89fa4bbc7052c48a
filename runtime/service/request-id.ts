/**
 * Request ids: every response carries `x-request-id`, and every error body repeats it.
 *
 * An incoming `x-request-id` is kept when it looks like an id (so a caller's tracing id follows the request through
 * our logs); anything else — too long, odd characters that could forge log lines — is replaced by a fresh one.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** fastify `genReqId`: the caller's id when sane, else `req_<uuid>`. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  if (typeof incoming === 'string' && SANE_ID.test(incoming)) return incoming;
  return `req_${randomUUID()}`;
}
