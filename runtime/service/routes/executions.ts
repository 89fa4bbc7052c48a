/** `GET /api/v1/executions`: the environment's execution history, filtered, newest first, with cursor paging. */
import type { FastifyInstance } from 'fastify';
import type { ExecutionListQuery } from '../../api.js';
import { numericLimit } from './page-query.js';
import { apiSchemas } from './schemas.js';

export function registerExecutionRoutes(api: FastifyInstance): void {
  const { executionsQuery } = apiSchemas();
  api.get<{ Querystring: ExecutionListQuery }>(
    '/executions',
    { schema: { querystring: executionsQuery }, preValidation: numericLimit },
    async (request) => request.env.listExecutions(request.query),
  );
}
