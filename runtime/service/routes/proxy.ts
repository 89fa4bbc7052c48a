/**
 * `POST /api/v1/proxy`: whatever the upstream answered comes back as `200 {status, headers, body}`; only the service's
 * own refusals (unsafe path, unknown connection, no account, ...) use the error body and status.
 */
import type { FastifyInstance } from 'fastify';
import type { ProxyInput } from '../../api.js';
import { JsonText, memberText } from '../../proxy/json-text.js';
import { callOptions } from '../request-observability.js';
import { apiSchemas } from './schemas.js';

export function registerProxyRoute(api: FastifyInstance): void {
  const { proxyBody } = apiSchemas();
  api.post<{ Body: ProxyInput }>('/proxy', { schema: { body: proxyBody } }, async (request) => {
    const { body } = request.body;
    // A JSON body goes upstream as the caller wrote it (see proxy/json-text.ts); a string is the caller's raw text.
    const raw = body !== undefined && body !== null && typeof body !== 'string' ? memberText(request.jsonText, 'body') : undefined;
    return request.env.proxy({ ...request.body, method: request.body.method.toUpperCase(), ...(raw === undefined ? {} : { body: new JsonText(raw) }) }, callOptions(request));
  });
}
