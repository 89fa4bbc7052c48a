/** `/api/v1/mcp_sessions`: the application mints, lists and revokes per-user MCP sessions (runtime/mcp/sessions.ts). */
import type { FastifyInstance } from 'fastify';
import type { Connector } from '../../api.js';
import { createMcpSession, listMcpSessions, revokeMcpSession, type CreateMcpSessionInput } from '../../mcp/sessions.js';
import { parametersSchema, requestBodySchema } from './schemas.js';
import { sendCreated } from './created.js';

export function registerMcpSessionRoutes(api: FastifyInstance, deps: { connector: Connector; now: () => number }): void {
  const { connector, now } = deps;
  const createBody = requestBodySchema('/api/v1/mcp_sessions', 'post');
  const listQuery = parametersSchema('/api/v1/mcp_sessions', 'get', 'query');
  const sessionParams = parametersSchema('/api/v1/mcp_sessions/{id}', 'delete', 'path');

  api.post<{ Body: CreateMcpSessionInput }>('/mcp_sessions', { schema: { body: createBody } }, async (request, reply) => {
    return sendCreated(request, reply, await createMcpSession(connector, request.environmentId, request.body, now()));
  });

  api.get<{ Querystring: { identifier?: string } }>('/mcp_sessions', { schema: { querystring: listQuery } }, async (request) => ({
    mcp_sessions: await listMcpSessions(connector, request.environmentId, request.query, now()),
  }));

  api.delete<{ Params: { id: string } }>('/mcp_sessions/:id', { schema: { params: sessionParams } }, async (request) =>
    revokeMcpSession(connector, request.environmentId, request.params.id, now()),
  );
}
