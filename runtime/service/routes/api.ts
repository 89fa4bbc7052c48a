/** Every `/api/v1/*` route; the bearer check and rate limit run before these (see build-service). */
import type { FastifyInstance } from 'fastify';
import type { Connector } from '../../api.js';
import { registerAccountRoutes } from './accounts.js';
import { registerConnectionRoutes } from './connections.js';
import { registerExecutionRoutes } from './executions.js';
import { registerMcpSessionRoutes } from './mcp-sessions.js';
import { registerProxyRoute } from './proxy.js';
import { registerToolRoutes } from './tools.js';
import { registerWebhookRoutes } from './webhooks.js';

/** The query schema of a route the document gives no query parameters: any parameter is unknown. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

export function registerApiRoutes(api: FastifyInstance, deps: { connector: Connector; now?: () => number }): void {
  // A query parameter the document does not give the operation is refused (400 invalid_request, pointer /<name>) on
  // every route, as on the routes with query parameters of their own: GET /api/v1/connections?limit=5 answered every
  // connection, as if the parameter meant something.
  api.addHook('onRoute', (route) => {
    if (route.schema?.querystring !== undefined) return;
    route.schema = { ...route.schema, querystring: NO_QUERY };
  });
  registerConnectionRoutes(api);
  registerAccountRoutes(api);
  registerToolRoutes(api, deps);
  registerProxyRoute(api);
  registerExecutionRoutes(api);
  registerWebhookRoutes(api);
  registerMcpSessionRoutes(api, { connector: deps.connector, now: deps.now ?? Date.now });
}
