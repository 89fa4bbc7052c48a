/**
 * Request schemas fastify checks before a route runs, read from `generated/openapi.json` at start-up: the generator
 * (codegen/emit/openapi-components.ts, emit-openapi.ts) owns every request schema, so the served validation is the
 * document's and cannot drift from it. `$ref`s are inlined because fastify's ajv does not know the document.
 *
 * Responses are checked against the document in tests rather than serialized through a schema, so a field the
 * runtime adds is never silently dropped.
 */
import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../../types.js';
import { OPENAPI_URL } from './meta.js';

type Json = Record<string, any>;

const REF_PREFIX = '#/components/schemas/';

/** The emitted document, read when this module loads (it is committed, and regenerated only by `npm run generate`). */
const DOCUMENT: Json = JSON.parse(readFileSync(OPENAPI_URL, 'utf8')) as Json;

export function openApiDocument(): Json {
  return DOCUMENT;
}

/** `schema` with every `#/components/schemas/X` reference replaced by a copy of X (siblings of `$ref` are kept). */
export function inlineRefs(schema: unknown, doc: Json = openApiDocument(), seen: readonly string[] = []): any {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, doc, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Json;
  let out: Json = {};
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (!ref.startsWith(REF_PREFIX)) throw new Error(`openapi.json: unsupported reference ${ref}`);
    const name = ref.slice(REF_PREFIX.length);
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`openapi.json: no schema ${name}`);
    if (seen.includes(name)) throw new Error(`openapi.json: ${name} refers to itself; request schemas must not`);
    out = inlineRefs(target, doc, [...seen, name]);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref') continue;
    // Data keywords hold values, not schemas.
    out[key] = key === 'enum' || key === 'const' || key === 'examples' || key === 'default' ? value : inlineRefs(value, doc, seen);
  }
  return out;
}

function operation(path: string, method: string): Json {
  const op = openApiDocument().paths?.[path]?.[method];
  if (!op) throw new Error(`openapi.json documents no ${method.toUpperCase()} ${path}; run npm run generate`);
  return op;
}

/** The JSON request body schema of a documented operation. */
export function requestBodySchema(path: string, method: string): JsonSchema {
  const schema = operation(path, method).requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`openapi.json: ${method.toUpperCase()} ${path} has no JSON request body`);
  return inlineRefs(schema);
}

/** A component schema, with its references inlined. */
export function componentSchema(name: string): JsonSchema {
  return inlineRefs({ $ref: `${REF_PREFIX}${name}` });
}

/** The parameters of a documented operation found `in` query or path, as one object schema. */
export function parametersSchema(path: string, method: string, location: 'query' | 'path'): JsonSchema {
  const op = operation(path, method);
  const all = [...(openApiDocument().paths[path].parameters ?? []), ...(op.parameters ?? [])] as Json[];
  const params = all.filter((p) => p.in === location);
  const schema: Json = { type: 'object', properties: Object.fromEntries(params.map((p) => [p.name, inlineRefs(p.schema)])) };
  const required = params.filter((p) => p.required).map((p) => p.name as string);
  if (required.length > 0) schema.required = required;
  // An unknown query parameter is a mistake worth naming; path parameters are fixed by the route itself.
  if (location === 'query') schema.additionalProperties = false;
  return schema;
}

export type ApiSchemas = ReturnType<typeof buildApiSchemas>;

/** Every request schema of the `/api/v1` routes, built from the document when this module loads. */
const API_SCHEMAS = buildApiSchemas();

export function apiSchemas(): ApiSchemas {
  return API_SCHEMAS;
}

function buildApiSchemas() {
  return {
    createConnectionBody: requestBodySchema('/api/v1/connections', 'post'),
    updateConnectionBody: requestBodySchema('/api/v1/connections/{id_or_name}', 'patch'),
    connectionParams: parametersSchema('/api/v1/connections/{id_or_name}', 'get', 'path'),
    magicLinkBody: requestBodySchema('/api/v1/connected_accounts/magic_link', 'post'),
    accountsQuery: parametersSchema('/api/v1/connected_accounts', 'get', 'query'),
    accountParams: parametersSchema('/api/v1/connected_accounts/{id}', 'get', 'path'),
    executeToolBody: requestBodySchema('/api/v1/execute_tool', 'post'),
    // The document has one execute path per tool; the generic route takes any object as tool_input and checks it
    // against the named tool afterwards (each `<Tool>Request` is this schema with the tool's input).
    executeNamedToolBody: componentSchema('ExecuteNamedToolRequest'),
    toolsQuery: parametersSchema('/api/v1/tools', 'get', 'query'),
    toolQuery: parametersSchema('/api/v1/tools/{tool_name}', 'get', 'query'),
    toolParams: parametersSchema('/api/v1/tools/{tool_name}', 'get', 'path'),
    proxyBody: requestBodySchema('/api/v1/proxy', 'post'),
    executionsQuery: parametersSchema('/api/v1/executions', 'get', 'query'),
    executionParams: parametersSchema('/api/v1/executions/{execution_id}', 'get', 'path'),
  };
}
