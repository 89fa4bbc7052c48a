/** `/healthz` and `/openapi.json`: unauthenticated, no tenant data. */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ConnectorError } from '../../errors.js';

/** The emitted document; the service serves this file with its own base URL as the one server. */
export const OPENAPI_URL = new URL('../../../generated/openapi.json', import.meta.url);

/**
 * The emitted document with `servers` set to the service's configured base URL, so a client generated from or
 * pointed at a deployed service's document calls that service rather than the emitted `http://localhost:3000`.
 */
export function openApiForBaseUrl(text: string, baseUrl: string): string {
  const doc = JSON.parse(text) as { servers?: unknown };
  doc.servers = [{ url: baseUrl, description: 'This service.' }];
  return JSON.stringify(doc, null, 2);
}

export function registerMetaRoutes(app: FastifyInstance, options: { baseUrl: string }): void {
  app.get('/healthz', async () => ({ ok: true }));

  // Read once per service instance (the file does not change while it runs); a failed read is tried again.
  let openapiText: Promise<string> | undefined;
  const load = (): Promise<string> => {
    openapiText ??= readFile(OPENAPI_URL, 'utf8')
      .then((text) => openApiForBaseUrl(text, options.baseUrl))
      .catch((error: unknown) => {
        openapiText = undefined;
        throw error;
      });
    return openapiText;
  };

  app.get('/openapi.json', async (_request, reply) => {
    let text: string;
    try {
      text = await load();
    } catch {
      throw new ConnectorError('not_found', 'The OpenAPI document has not been generated; run npm run generate');
    }
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(text);
  });
}
