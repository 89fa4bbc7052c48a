/** `GET /api/v1/executions`: the environment's execution history, filtered, newest first, with cursor paging. */
import type { FastifyInstance } from 'fastify';
import type { ExecutionListQuery } from '../../api.js';
import { apiSchemas } from './schemas.js';

export function registerExecutionRoutes(api: FastifyInstance): void {
  const { executionsQuery } = apiSchemas();
  api.get<{ Querystring: ExecutionListQuery }>(
    '/executions',
    {
      schema: { querystring: executionsQuery },
      // A query string is text and the service's validator does not coerce: `limit` becomes a number here when it
      // is one, so the schema's integer bounds apply and anything else is refused with its pointer.
      preValidation: (request, _reply, done) => {
        const query = request.query as Record<string, unknown>;
        if (typeof query.limit === 'string' && /^[0-9]{1,6}$/.test(query.limit)) query.limit = Number(query.limit);
        done();
      },
    },
    async (request) => request.env.listExecutions(request.query),
  );
}
