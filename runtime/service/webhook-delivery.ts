/**
 * Runs this service instance's webhook dispatcher for as long as the fastify instance lives: started once it is
 * ready, stopped (its round in progress finished and recorded) when it closes. Every instance runs one; the store's
 * delivery claims keep them from sending the same attempt twice.
 */
import type { FastifyInstance } from 'fastify';
import type { Connector } from '../api.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../webhooks/dispatcher.js';

export type WebhookDeliveryOptions = Omit<WebhookDispatcherOptions, 'store' | 'urlRefusal' | 'addressRefusal' | 'logger'>;

export function startWebhookDelivery(app: FastifyInstance, connector: Connector, options: WebhookDeliveryOptions): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher({
    ...options,
    store: connector.store,
    urlRefusal: (url) => connector.webhookUrlRefusal(url),
    addressRefusal: (hostname, address) => connector.webhookAddressRefusal(hostname, address),
    logger: app.log,
  });
  app.decorate('webhookDispatcher', dispatcher);
  app.addHook('onReady', async () => dispatcher.start());
  app.addHook('onClose', async () => dispatcher.stop());
  return dispatcher;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's webhook dispatcher (absent when built with `webhooks: false`). */
    webhookDispatcher?: WebhookDispatcher;
  }
}
