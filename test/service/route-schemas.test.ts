import fastify, { type RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '../../runtime/api.js';
import { registerApiRoutes } from '../../runtime/service/routes/api.js';
import { OPENAPI } from './openapi-conformance.js';
import { tools as generatedTools } from '../../generated/tools.gen.js';

type Json = Record<string, any>;

/** The document's schema with its `$ref`s replaced by the components they name (written apart from the service's). */
function deref(node: unknown): any {
  if (Array.isArray(node)) return node.map(deref);
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Json;
  const base = typeof $ref === 'string' ? deref(OPENAPI.components.schemas[$ref.split('/').pop()!]) : {};
  return { ...base, ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'enum' ? v : deref(v)])) };
}

const routes: RouteOptions[] = [];
beforeAll(async () => {
  const app = fastify();
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  await app.register(async (api) => registerApiRoutes(api, { connector: { tools: {} } as unknown as Connector }), { prefix: '/api/v1' });
  await app.ready();
});

function served(method: string, template: string): RouteOptions {
  const url = template.replace(/\{(\w+)\}/g, ':$1');
  const route = routes.find((r) => r.url === url && [r.method].flat().includes(method.toUpperCase()));
  if (!route) throw new Error(`no served route ${method.toUpperCase()} ${url}`);
  return route;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const documented = Object.entries(OPENAPI.paths as Record<string, Json>)
  .filter(([path]) => path.startsWith('/api/v1/') && !/^\/api\/v1\/tools\/[a-z0-9_]+\/execute$/.test(path))
  .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ path, method, item, op: item[method] as Json })));

describe('served request schemas are the document\'s', () => {
  it('covers every documented /api/v1 operation', () => {
    expect(documented.length).toBeGreaterThanOrEqual(12);
    for (const { path, method } of documented) served(method, path);
  });

  it.each(documented.map((d) => [`${d.method.toUpperCase()} ${d.path}`, d] as const))('%s', (_name, { path, method, item, op }) => {
    const route = served(method, path);
    const schema = (route.schema ?? {}) as Json;
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body) expect(schema.body).toEqual(deref(body));
    else expect(schema.body).toBeUndefined();
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])] as Json[];
    for (const [location, key] of [['path', 'params'], ['query', 'querystring']] as const) {
      const list = params.filter((p) => p.in === location);
      if (list.length === 0 && location === 'query') {
        // No query parameters documented: any is unknown, the tool call and proxy routes' included.
        expect(schema[key], `${key} of ${path}`).toEqual({ type: 'object', properties: {}, additionalProperties: false });
        continue;
      }
      if (list.length === 0) {
        expect(schema[key], `${key} of ${path}`).toBeUndefined();
        continue;
      }
      expect(schema[key].properties).toEqual(Object.fromEntries(list.map((p) => [p.name, deref(p.schema)])));
      expect(schema[key].required ?? []).toEqual(list.filter((p) => p.required).map((p) => p.name));
    }
  });

  it('serves ExecuteNamedToolRequest on the generic execute route, the shape of every tool\'s own request', () => {
    const named = OPENAPI.components.schemas.ExecuteNamedToolRequest;
    expect(served('post', '/api/v1/tools/{tool_name}/execute').schema?.body).toEqual(deref(named));
    const requests = Object.entries(OPENAPI.components.schemas as Record<string, Json>).filter(([name]) => name.endsWith('Request') && name !== 'ExecuteNamedToolRequest' && name !== 'ExecuteToolRequest' && name !== 'MagicLinkRequest' && name !== 'ProxyRequest' && name !== 'TokenRequest');
    expect(requests.length).toBe(generatedTools.length);
    for (const [name, request] of requests) {
      expect({ ...request, required: named.required, properties: { ...request.properties, tool_input: { type: 'object' } } }).toEqual(named);
      // tool_input is required exactly when the tool has a required parameter (omitted, it is {}).
      const input = OPENAPI.components.schemas[name.replace(/Request$/, 'Input')] as Json;
      expect(request.required).toEqual((input.required ?? []).length > 0 ? ['identifier', 'tool_input'] : ['identifier']);
    }
  });

  it('documents the checks the service applies', () => {
    const connection = served('get', '/api/v1/connections/{id_or_name}').schema as Json;
    expect(connection.params.properties.id_or_name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect((served('get', '/api/v1/connected_accounts').schema as Json).querystring.properties.identifier).toMatchObject({ minLength: 1 });
  });
});
