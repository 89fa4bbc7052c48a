/** `/healthz` and `/openapi.json`: unauthenticated, no tenant data. */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ConnectorError } from '../../errors.js';

/** The emitted document; the service serves exactly this file. */
export const OPENAPI_URL = new URL('../../../generated/openapi.json', import.meta.url);

export function registerMetaRoutes(app: FastifyInstance): void {
  // Read once per service; a failed read (not generated yet) is tried again on the next request.
  let openapiText: Promise<string> | undefined;
  const loadOpenApi = (): Promise<string> => {
    openapiText ??= readFile(OPENAPI_URL, 'utf8').catch((error: unknown) => {
      openapiText = undefined;
      throw error;
    });
    return openapiText;
  };

  app.get('/healthz', async () => ({ ok: true }));

  app.get('/openapi.json', async (_request, reply) => {
    let text: string;
    try {
      text = await loadOpenApi();
    } catch {
      throw new ConnectorError('not_found', 'The OpenAPI document has not been generated; run npm run generate');
    }
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(text);
  });
}
