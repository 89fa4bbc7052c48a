/**
 * Request schemas fastify checks before a route runs. They mirror the request bodies of `generated/openapi.json`
 * (a test sends each route an invalid request and checks the refusal); the responses are checked against the
 * document in tests rather than serialized through a schema, so a field the runtime adds is never silently dropped.
 */
import { CONNECTOR_NAMES } from '../../types.js';

const str = { type: 'string', minLength: 1 } as const;
const stringList = { type: 'array', items: { type: 'string' } } as const;
const overrides = {
  type: 'object',
  additionalProperties: false,
  properties: {
    authorizationUrl: { type: 'string', format: 'uri' },
    tokenUrl: { type: 'string', format: 'uri' },
    revocationUrl: { type: 'string', format: 'uri' },
    apiBaseUrl: { type: 'string', format: 'uri' },
  },
} as const;

export const createConnectionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'connector', 'client_id', 'client_secret'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
    connector: { type: 'string', enum: [...CONNECTOR_NAMES] },
    client_id: str,
    client_secret: str,
    scopes: stringList,
    overrides,
    allowed_redirect_urls: { type: 'array', items: { type: 'string', format: 'uri' } },
  },
} as const;

export const updateConnectionBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: createConnectionBody.properties.name,
    client_id: str,
    client_secret: str,
    scopes: stringList,
    overrides,
    allowed_redirect_urls: createConnectionBody.properties.allowed_redirect_urls,
  },
} as const;

export const magicLinkBody = {
  type: 'object',
  additionalProperties: false,
  required: ['connection_name', 'identifier'],
  properties: {
    connection_name: str,
    identifier: { type: 'string', minLength: 1, maxLength: 256 },
    redirect_url: { type: 'string', format: 'uri' },
  },
} as const;

export const accountsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    identifier: str,
    connection_name: str,
    status: { type: 'string', enum: ['PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'] },
  },
} as const;

export const executeToolBody = {
  type: 'object',
  additionalProperties: false,
  required: ['tool_name', 'identifier', 'tool_input'],
  properties: {
    tool_name: str,
    connection_name: str,
    identifier: str,
    tool_input: { type: 'object' },
  },
} as const;

export const executeNamedToolBody = {
  type: 'object',
  additionalProperties: false,
  required: ['identifier', 'tool_input'],
  properties: {
    connection_name: str,
    identifier: str,
    tool_input: { type: 'object' },
  },
} as const;

const toolFormat = { type: 'string', enum: ['catalog', 'openai', 'anthropic'] } as const;

export const toolsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    connector: { type: 'string', enum: [...CONNECTOR_NAMES] },
    query: { type: 'string', maxLength: 200 },
    format: toolFormat,
  },
} as const;

export const toolQuery = { type: 'object', additionalProperties: false, properties: { format: toolFormat } } as const;

export const proxyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['connection_name', 'identifier', 'path', 'method'],
  properties: {
    connection_name: str,
    identifier: str,
    path: str,
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'] },
    query: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, stringList] } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: {},
  },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
