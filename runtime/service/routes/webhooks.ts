/**
 * Webhook endpoints (`/webhook_endpoints`, secrets shown only by create and rotate) and the delivery log
 * (`/webhook_deliveries`, and sending one again). Schemas come from the document (codegen/emit/openapi-webhooks.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { CreateWebhookEndpointInput, RotateWebhookSecretInput, WebhookDeliveryQuery } from '../../webhooks/webhook-api.js';
import { numericLimit } from './page-query.js';
import { parametersSchema, requestBodySchema } from './schemas.js';
import { sendCreated } from './created.js';

export function registerWebhookRoutes(api: FastifyInstance): void {
  const createBody = requestBodySchema('/api/v1/webhook_endpoints', 'post');
  const endpointParams = parametersSchema('/api/v1/webhook_endpoints/{id}', 'get', 'path');
  const rotateBody = requestBodySchema('/api/v1/webhook_endpoints/{id}/rotate_secret', 'post');
  const deliveriesQuery = parametersSchema('/api/v1/webhook_deliveries', 'get', 'query');
  const deliveryParams = parametersSchema('/api/v1/webhook_deliveries/{id}', 'get', 'path');

  api.get('/webhook_endpoints', async (request) => ({ webhook_endpoints: await request.env.listWebhookEndpoints() }));

  api.post<{ Body: CreateWebhookEndpointInput }>('/webhook_endpoints', { schema: { body: createBody } }, async (request, reply) =>
    sendCreated(request, reply, await request.env.createWebhookEndpoint(request.body)),
  );

  api.get<{ Params: { id: string } }>('/webhook_endpoints/:id', { schema: { params: endpointParams } }, async (request) =>
    request.env.getWebhookEndpoint(request.params.id),
  );

  api.delete<{ Params: { id: string } }>('/webhook_endpoints/:id', { schema: { params: endpointParams } }, async (request, reply) => {
    await request.env.deleteWebhookEndpoint(request.params.id);
    return reply.code(204).send();
  });

  // The body is optional (every field has a default): no body is the same as `{}`.
  api.post<{ Params: { id: string }; Body: RotateWebhookSecretInput | undefined }>(
    '/webhook_endpoints/:id/rotate_secret',
    {
      schema: { params: endpointParams, body: rotateBody },
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request) => request.env.rotateWebhookSecret(request.params.id, request.body),
  );

  // A page at a time, by cursor, newest first: the rule of every cursor-paged list (list-page.ts, page-query.ts).
  api.get<{ Querystring: WebhookDeliveryQuery }>(
    '/webhook_deliveries',
    { schema: { querystring: deliveriesQuery }, preValidation: numericLimit },
    async (request) => request.env.listWebhookDeliveries(request.query),
  );

  api.get<{ Params: { id: string } }>('/webhook_deliveries/:id', { schema: { params: deliveryParams } }, async (request) =>
    request.env.getWebhookDelivery(request.params.id),
  );

  // Send again at the next poll, once the receiver is fixed: the rule is the scope's (webhook-api.ts), the dashboard's
  // "Send again now" too. No body.
  api.post<{ Params: { id: string } }>('/webhook_deliveries/:id/retry', { schema: { params: deliveryParams } }, async (request) =>
    request.env.retryWebhookDelivery(request.params.id),
  );
}
