/** `/healthz` and `/openapi.json`: unauthenticated, no tenant data. */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ConnectorError } from '../../errors.js';

/** The emitted document; the service serves exactly this file. */
export const OPENAPI_URL = new URL('../../../generated/openapi.json', import.meta.url);

let openapiText: Promise<string> | undefined;

function loadOpenApi(): Promise<string> {
  openapiText ??= readFile(OPENAPI_URL, 'utf8').catch((error: unknown) => {
    openapiText = undefined;
    throw error;
  });
  return openapiText;
}

export function registerMetaRoutes(app: FastifyInstance): void {
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
