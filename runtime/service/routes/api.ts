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

export function registerApiRoutes(api: FastifyInstance, deps: { connector: Connector; now?: () => number }): void {
  registerConnectionRoutes(api);
  registerAccountRoutes(api);
  registerToolRoutes(api, deps);
  registerProxyRoute(api);
  registerExecutionRoutes(api);
  registerWebhookRoutes(api);
  registerMcpSessionRoutes(api, { connector: deps.connector, now: deps.now ?? Date.now });
}
