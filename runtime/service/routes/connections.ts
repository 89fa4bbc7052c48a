/** Connections CRUD: `GET|POST /connections`, `GET|PATCH|DELETE /connections/{id_or_name}`. The secret is write-only. */
import type { FastifyInstance } from 'fastify';
import type { CreateConnectionInput, UpdateConnectionInput } from '../../api.js';
import { apiSchemas } from './schemas.js';
import { sendCreated } from './created.js';

export function registerConnectionRoutes(api: FastifyInstance): void {
  const { createConnectionBody, updateConnectionBody, connectionParams } = apiSchemas();
  api.get('/connections', async (request) => ({ connections: await request.env.listConnections() }));

  api.post<{ Body: CreateConnectionInput }>('/connections', { schema: { body: createConnectionBody } }, async (request, reply) => {
    return sendCreated(request, reply, await request.env.createConnection(request.body));
  });

  api.get<{ Params: { id_or_name: string } }>('/connections/:id_or_name', { schema: { params: connectionParams } }, async (request) =>
    request.env.getConnection(request.params.id_or_name),
  );

  api.patch<{ Params: { id_or_name: string }; Body: UpdateConnectionInput }>(
    '/connections/:id_or_name',
    { schema: { params: connectionParams, body: updateConnectionBody } },
    async (request) => request.env.updateConnection(request.params.id_or_name, request.body),
  );

  api.delete<{ Params: { id_or_name: string } }>('/connections/:id_or_name', { schema: { params: connectionParams } }, async (request) =>
    request.env.deleteConnection(request.params.id_or_name),
  );
}
