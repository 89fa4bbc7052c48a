/** Connections CRUD: `GET|POST /connections`, `GET|PATCH|DELETE /connections/{id_or_name}`. The secret is write-only. */
import type { FastifyInstance } from 'fastify';
import type { CreateConnectionInput, UpdateConnectionInput } from '../../api.js';
import { createConnectionBody, idParams, updateConnectionBody } from './schemas.js';

export function registerConnectionRoutes(api: FastifyInstance): void {
  api.get('/connections', async (request) => ({ connections: await request.env.listConnections() }));

  api.post<{ Body: CreateConnectionInput }>('/connections', { schema: { body: createConnectionBody } }, async (request, reply) => {
    const view = await request.env.createConnection(request.body);
    return reply.code(201).send(view);
  });

  api.get<{ Params: { id: string } }>('/connections/:id', { schema: { params: idParams } }, async (request) =>
    request.env.getConnection(request.params.id),
  );

  api.patch<{ Params: { id: string }; Body: UpdateConnectionInput }>(
    '/connections/:id',
    { schema: { params: idParams, body: updateConnectionBody } },
    async (request) => request.env.updateConnection(request.params.id, request.body),
  );

  api.delete<{ Params: { id: string } }>('/connections/:id', { schema: { params: idParams } }, async (request, reply) => {
    await request.env.deleteConnection(request.params.id);
    return reply.code(204).send();
  });
}
