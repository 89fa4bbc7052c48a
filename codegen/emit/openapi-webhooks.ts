/**
 * The webhook part of the OpenAPI document: endpoints (`/api/v1/webhook_endpoints`), the delivery log
 * (`/api/v1/webhook_deliveries`), their schemas, and the account events themselves under `webhooks` (OpenAPI 3.1's
 * field for requests the service sends). Mirrors runtime/webhooks/webhook-api.ts; the service validates requests
 * against these schemas.
 */
import { ACCOUNT_EVENT_TYPES } from '../../runtime/webhooks/event-types.js';
import type { JsonSchema } from '../../runtime/types.js';
import { listPage, schemaRef, type OpenApiHelpers } from './openapi-components.js';

type Obj = Record<string, unknown>;

const time: JsonSchema = { type: 'string', format: 'date-time' };

export function webhookSchemas(): Record<string, JsonSchema> {
  const endpointProperties: Record<string, JsonSchema> = {
    id: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: schemaRef('AccountEventType'), description: 'The event types sent to this endpoint.' },
    previous_secret_expires_at: { type: ['string', 'null'], format: 'date-time', description: 'Until when the secret replaced by the last rotation still signs beside the current one.' },
    created_at: time,
    updated_at: time,
  };
  const endpointRequired = ['id', 'url', 'events', 'previous_secret_expires_at', 'created_at', 'updated_at'];
  const deliveryProperties: Record<string, JsonSchema> = {
    id: { type: 'string' },
    endpoint_id: { type: 'string' },
    event_id: { type: 'string', description: 'The webhook-id header of every attempt of this delivery.' },
    event_type: schemaRef('AccountEventType'),
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer', minimum: 0 },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    created_at: time,
    updated_at: time,
  };
  const deliveryRequired = Object.keys(deliveryProperties);
  return {
    AccountEventType: { type: 'string', enum: [...ACCOUNT_EVENT_TYPES] },
    CreateWebhookEndpoint: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where deliveries are POSTed: https (http only to a loopback host in development).' },
        events: { type: 'array', minItems: 1, items: schemaRef('AccountEventType'), description: 'Event types to send; omit for every type, including types added later.' },
      },
    },
    RotateWebhookSecret: {
      type: 'object',
      additionalProperties: false,
      properties: {
        overlap_seconds: { type: 'integer', minimum: 0, maximum: 604800, description: 'How long the replaced secret keeps signing beside the new one (default 86400: a day).' },
      },
    },
    WebhookEndpoint: { type: 'object', required: endpointRequired, properties: endpointProperties },
    WebhookEndpointWithSecret: {
      type: 'object',
      required: [...endpointRequired, 'secret'],
      properties: { ...endpointProperties, secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret (Standard Webhooks). Shown only in this answer.' } },
    },
    WebhookDelivery: { type: 'object', required: deliveryRequired, properties: deliveryProperties },
    WebhookDeliveryList: listPage('webhook_deliveries', 'WebhookDelivery', 'Newest first (created_at, then id).', true),
    WebhookDeliveryDetail: {
      type: 'object',
      required: [...deliveryRequired, 'payload', 'attempt_log'],
      properties: {
        ...deliveryProperties,
        payload: schemaRef('AccountEvent'),
        attempt_log: {
          type: 'array',
          items: {
            type: 'object',
            required: ['attempted_at', 'status_code', 'duration_ms', 'error'],
            properties: { attempted_at: time, status_code: { type: ['integer', 'null'] }, duration_ms: { type: 'integer', minimum: 0 }, error: { type: ['string', 'null'] } },
          },
        },
      },
    },
    AccountEvent: {
      type: 'object',
      description: 'The body of every delivery (Standard Webhooks payload shape); signed in the webhook-signature header.',
      required: ['type', 'timestamp', 'data'],
      properties: {
        type: schemaRef('AccountEventType'),
        timestamp: time,
        data: {
          type: 'object',
          required: ['account_id', 'environment_id', 'identifier', 'connection_id', 'connection_name', 'connector', 'status', 'status_reason'],
          properties: {
            account_id: { type: 'string' },
            environment_id: { type: 'string' },
            identifier: { type: 'string' },
            connection_id: { type: 'string' },
            connection_name: { type: ['string', 'null'] },
            connector: { type: ['string', 'null'] },
            status: { type: 'string', enum: ['PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'], description: 'The account\'s status as of this event.' },
            status_reason: { type: ['string', 'null'], description: 'Why: e.g. invalid_grant (expired), access_denied (authorization_failed), connection_deleted (disconnected).' },
            scopes: { type: 'array', items: { type: 'string' }, description: 'connected, reauthorized: the scopes granted.' },
            reason: { type: 'string', description: 'authorization_failed: access_denied, code_exchange_failed, issuer_mismatch, missing_code, account_mismatch or the provider\'s error code.' },
            error: { type: 'string', description: 'expired, authorization_failed: the OAuth error the provider answered.' },
            tool: { type: 'string', description: 'scope_insufficient: the tool whose call was refused (proxy requests do not produce the event).' },
            required_scopes: { type: 'array', items: { type: 'string' }, description: 'scope_insufficient: the scopes the provider says would allow the call (empty when it names none).' },
            required_scopes_all: { type: 'boolean', description: 'scope_insufficient: true when the provider says the call needs all of required_scopes (HubSpot\'s "All of the following scopes are required."), false when any one would do.' },
            resource: { type: ['string', 'null'], description: 'scope_insufficient: the refused request, `METHOD /path`.' },
          },
        },
      },
    },
  };
}

export function webhookPaths(h: OpenApiHelpers): Record<string, Obj> {
  const { op, ok, errors, idParam, queryParam, pageParams, json, AUTHED, JSON_BODY } = h;
  return {
    '/api/v1/webhook_endpoints': {
      get: op('webhooks', 'listWebhookEndpoints', 'List webhook endpoints', {
        ...ok('Every endpoint of the environment (without secrets).', { type: 'object', required: ['webhook_endpoints'], properties: { webhook_endpoints: { type: 'array', items: schemaRef('WebhookEndpoint') } } }),
        ...errors(...AUTHED),
      }),
      post: op('webhooks', 'createWebhookEndpoint', 'Create a webhook endpoint', { ...ok('The endpoint, with its signing secret (shown only here).', schemaRef('WebhookEndpointWithSecret'), '201'), ...errors('400', '409', ...JSON_BODY, ...AUTHED) }, {
        description: 'Account events of this environment are POSTed to the URL, signed as Standard Webhooks specifies. The URL goes through the same policy as connection overrides.',
        requestBody: { required: true, content: json(schemaRef('CreateWebhookEndpoint')) },
      }),
    },
    '/api/v1/webhook_endpoints/{id}': {
      parameters: [idParam('id', 'Webhook endpoint id.')],
      get: op('webhooks', 'getWebhookEndpoint', 'Get a webhook endpoint', { ...ok('The endpoint (without its secret).', schemaRef('WebhookEndpoint')), ...errors('404', ...AUTHED) }),
      delete: op('webhooks', 'deleteWebhookEndpoint', 'Delete a webhook endpoint and its pending deliveries', { '204': { description: 'Deleted.', headers: h.requestIdHeader }, ...errors('404', ...AUTHED) }),
    },
    '/api/v1/webhook_endpoints/{id}/rotate_secret': {
      parameters: [idParam('id', 'Webhook endpoint id.')],
      post: op('webhooks', 'rotateWebhookSecret', 'Rotate an endpoint\'s signing secret', { ...ok('The endpoint with its new secret (shown only here).', schemaRef('WebhookEndpointWithSecret')), ...errors('400', '404', ...JSON_BODY, ...AUTHED) }, {
        description: 'Deliveries are signed with both the new and the replaced secret until previous_secret_expires_at, so receivers can switch without missing one.',
        requestBody: { required: false, content: json(schemaRef('RotateWebhookSecret')) },
      }),
    },
    '/api/v1/webhook_deliveries': {
      get: op('webhooks', 'listWebhookDeliveries', 'List webhook deliveries, newest first, a page at a time', {
        ...ok('A page of matching deliveries.', schemaRef('WebhookDeliveryList')),
        ...errors('400', ...AUTHED),
      }, {
        description: 'Keyset paging: pass each page\'s `next_cursor` back as `cursor` (with the same filters) until it is null. A delivery written meanwhile is newer than the pages already read; none shifts a page.',
        parameters: [
          queryParam('endpoint_id', { type: 'string', minLength: 1, maxLength: 200 }, 'Only this endpoint\'s deliveries.'),
          queryParam('status', { type: 'string', enum: ['pending', 'delivered', 'failed'] }, 'Only deliveries in this state.'),
          ...pageParams(),
        ],
      }),
    },
    '/api/v1/webhook_deliveries/{id}': {
      parameters: [idParam('id', 'Webhook delivery id.')],
      get: op('webhooks', 'getWebhookDelivery', 'Get a delivery with its payload and every attempt', { ...ok('The delivery.', schemaRef('WebhookDeliveryDetail')), ...errors('404', ...AUTHED) }),
    },
    '/api/v1/webhook_deliveries/{id}/retry': {
      parameters: [idParam('id', 'Webhook delivery id.')],
      post: op('webhooks', 'retryWebhookDelivery', 'Send a delivery again at the next poll', {
        ...ok('The delivery, now pending and due (next_attempt_at is now), with its payload and every attempt so far.', schemaRef('WebhookDeliveryDetail')),
        ...errors('404', '409', ...AUTHED),
      }, {
        description: 'For a receiver that is fixed: a delivery that is not delivered (pending, or failed after its 24 hours) is sent again at the dispatcher\'s next poll (about a second) with the same webhook-id, rather than at its next retry or never. Its attempts so far stay in its log and count: when this attempt fails, the next is scheduled as the count says (a failed delivery is failed again). 409 conflict for a delivered one or one being attempted right now; 404 for an id that is no delivery of this environment. No body.',
      }),
    },
  };
}

/** OpenAPI 3.1 `webhooks`: one entry per event type, the request the service sends to endpoints. */
export function webhookEvents(h: Pick<OpenApiHelpers, 'json'>): Record<string, Obj> {
  const signature = (name: string, description: string): Obj => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return Object.fromEntries(
    ACCOUNT_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replace('.', '_')}`,
          summary: `The ${type} event`,
          security: [],
          parameters: [
            signature('webhook-id', 'The event id: the same on every retry; drop a delivery whose id you have seen.'),
            signature('webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'),
            signature('webhook-signature', 'Space-separated v1,<base64 HMAC-SHA256> signatures (two during a secret rotation).'),
          ],
          requestBody: { required: true, content: h.json(schemaRef('AccountEvent')) },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried.' } },
        },
      },
    ]),
  );
}
