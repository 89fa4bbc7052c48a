/**
 * The query string of the cursor-paged lists (`GET /api/v1/executions`, `GET /api/v1/connected_accounts`,
 * `GET /api/v1/webhook_deliveries`).
 */
import type { preValidationHookHandler } from 'fastify';

/**
 * A query string is text and the service's validator does not coerce: `limit` becomes a number here when it is one
 * (up to six digits), so the schema's integer bounds apply to it and anything else (`abc`, `1.5`, an empty value) is
 * refused by the schema as not an integer, with the pointer `/limit`.
 */
export const numericLimit: preValidationHookHandler = (request, _reply, done) => {
  const query = request.query as Record<string, unknown>;
  if (typeof query.limit === 'string' && /^[0-9]{1,6}$/.test(query.limit)) query.limit = Number(query.limit);
  done();
};
