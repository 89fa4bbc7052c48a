/** The webhook methods of the HTTP client (`/api/v1/webhook_endpoints`, `/api/v1/webhook_deliveries`). */
import type { components } from '../../generated/openapi-types.gen.js';
import type { CreateWebhookEndpointInput, RotateWebhookSecretInput, WebhookApi, WebhookDeliveryQuery } from '../webhooks/webhook-api.js';
import { queryString, seg } from './query-string.js';

type Schemas = components['schemas'];
type Request = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export function webhookClient(request: Request): WebhookApi {
  return {
    createWebhookEndpoint: (input: CreateWebhookEndpointInput) =>
      request<Schemas['WebhookEndpointWithSecret']>('POST', '/api/v1/webhook_endpoints', input satisfies Schemas['CreateWebhookEndpoint']),
    listWebhookEndpoints: async () => (await request<{ webhook_endpoints: Schemas['WebhookEndpoint'][] }>('GET', '/api/v1/webhook_endpoints')).webhook_endpoints,
    getWebhookEndpoint: (id: string) => request<Schemas['WebhookEndpoint']>('GET', `/api/v1/webhook_endpoints/${seg(id)}`),
    rotateWebhookSecret: (id: string, input: RotateWebhookSecretInput = {}) =>
      request<Schemas['WebhookEndpointWithSecret']>('POST', `/api/v1/webhook_endpoints/${seg(id)}/rotate_secret`, input satisfies Schemas['RotateWebhookSecret']),
    deleteWebhookEndpoint: async (id: string) => {
      await request<void>('DELETE', `/api/v1/webhook_endpoints/${seg(id)}`);
    },
    // One page (limit 1 to 200, default 50), as the route answers; pass next_cursor back as cursor for the next.
    listWebhookDeliveries: (query: WebhookDeliveryQuery = {}) => request<Schemas['WebhookDeliveryList']>('GET', `/api/v1/webhook_deliveries${queryString(query)}`),
    getWebhookDelivery: (id: string) => request('GET', `/api/v1/webhook_deliveries/${seg(id)}`),
    retryWebhookDelivery: (id: string) => request<Schemas['WebhookDeliveryDetail']>('POST', `/api/v1/webhook_deliveries/${seg(id)}/retry`),
  } as WebhookApi;
}
