/**
 * `POST /api/v1/proxy`: whatever the upstream answered comes back as `200 {status, headers, body}`; only the service's
 * own refusals (unsafe path, unknown connection, no account, ...) use the error body and status.
 */
import type { FastifyInstance } from 'fastify';
import type { ProxyInput } from '../../api.js';
import { apiSchemas } from './schemas.js';

export function registerProxyRoute(api: FastifyInstance): void {
  const { proxyBody } = apiSchemas();
  api.post<{ Body: ProxyInput }>('/proxy', { schema: { body: proxyBody } }, async (request) =>
    request.env.proxy({ ...request.body, method: request.body.method.toUpperCase() }),
  );
}
