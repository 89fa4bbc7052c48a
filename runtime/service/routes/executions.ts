/**
 * The environment's execution history: `GET /api/v1/executions`, filtered, newest first, with cursor paging, and
 * `GET /api/v1/executions/{execution_id}`, one execution by the id a tool call returned.
 */
import type { FastifyInstance } from 'fastify';
import type { ExecutionListQuery } from '../../api.js';
import { numericLimit } from './page-query.js';
import { apiSchemas } from './schemas.js';

export function registerExecutionRoutes(api: FastifyInstance): void {
  const { executionsQuery, executionParams } = apiSchemas();
  api.get<{ Querystring: ExecutionListQuery }>(
    '/executions',
    { schema: { querystring: executionsQuery }, preValidation: numericLimit },
    async (request) => request.env.listExecutions(request.query),
  );

  api.get<{ Params: { execution_id: string } }>('/executions/:execution_id', { schema: { params: executionParams } }, async (request) =>
    request.env.getExecution(request.params.execution_id),
  );
}
