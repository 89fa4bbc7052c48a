/**
 * The MCP session routes of the OpenAPI document (`/api/v1/mcp_sessions`) and their schemas: an application mints a
 * per-user credential for the service's MCP endpoint (`/mcp`), lists and revokes them. `/mcp` itself speaks MCP
 * (JSON-RPC over Streamable HTTP), which OpenAPI does not describe; docs/mcp.md does.
 */
import type { JsonSchema } from '../../runtime/types.js';
import { schemaRef, type OpenApiHelpers } from './openapi-components.js';

type Obj = Record<string, unknown>;

const time: JsonSchema = { type: 'string', format: 'date-time' };
const names = (description: string): JsonSchema => ({
  type: 'array',
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 200 },
  description,
});

export function mcpSessionSchemas(): Record<string, JsonSchema> {
  const scope: Record<string, JsonSchema> = {
    identifier: { type: 'string', minLength: 1, maxLength: 256, description: 'The end user the session acts for; a call cannot choose another.' },
    connections: names('Connection names the session may use (default: every connection of the environment).'),
    tools: names('Tool names or aliases the session may use (default: every tool of those connections).'),
    read_only: { type: 'boolean', description: 'Only tools declared read-only (default false).' },
    mode: { type: 'string', enum: ['tools', 'search'], description: '`tools` lists every allowed tool; `search` offers search_tools, describe_tool and call_tool instead (for large catalogs). Default `tools`.' },
  };
  const view: Record<string, JsonSchema> = {
    id: { type: 'string' },
    identifier: { type: 'string' },
    url: { type: 'string', format: 'uri', description: 'The MCP endpoint (Streamable HTTP) to give the agent host.' },
    connections: { type: ['array', 'null'], items: { type: 'string' } },
    tools: { type: ['array', 'null'], items: { type: 'string' } },
    read_only: { type: 'boolean' },
    mode: { type: 'string', enum: ['tools', 'search'] },
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
    expires_at: time,
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: time,
  };
  const viewRequired = Object.keys(view);
  return {
    CreateMcpSession: {
      type: 'object',
      additionalProperties: false,
      required: ['identifier'],
      properties: {
        ...scope,
        expires_in: { type: 'integer', minimum: 60, maximum: 86400, description: 'Lifetime in seconds (default 3600, at most 86400).' },
      },
    },
    McpSessionView: { type: 'object', required: viewRequired, properties: view },
    CreatedMcpSession: {
      type: 'object',
      required: [...viewRequired, 'token'],
      properties: {
        ...view,
        token: { type: 'string', description: 'Send as `Authorization: Bearer <token>` to `url`. Shown only here; stored hashed.' },
      },
    },
  };
}

/** The paths, given the emitter's helpers for responses. */
export function mcpSessionPaths(h: OpenApiHelpers): Record<string, Obj> {
  return {
    '/api/v1/mcp_sessions': {
      post: h.op('mcp', 'createMcpSession', 'Mint an MCP session for one end user', { ...h.ok('The session, with its token (shown once).', schemaRef('CreatedMcpSession'), '201'), ...h.errors('400', ...h.JSON_BODY, ...h.AUTHED) }, {
        description: 'The token grants `/mcp` for this identifier, this tool set and this environment only, until it expires or is revoked. It is refused on every other route.',
        requestBody: { required: true, content: h.json(schemaRef('CreateMcpSession')) },
      }),
      get: h.op('mcp', 'listMcpSessions', 'List MCP sessions (newest first; never their tokens)', {
        ...h.ok('The sessions.', { type: 'object', required: ['mcp_sessions'], properties: { mcp_sessions: { type: 'array', items: schemaRef('McpSessionView') } } }),
        ...h.errors('400', ...h.AUTHED),
      }, { parameters: [h.queryParam('identifier', { type: 'string', minLength: 1, maxLength: 256 }, 'Only this end user\'s sessions.')] }),
    },
    '/api/v1/mcp_sessions/{id}': {
      parameters: [h.idParam('id', 'MCP session id.')],
      delete: h.op('mcp', 'revokeMcpSession', 'Revoke an MCP session (its token is refused from now on)', { ...h.ok('The session, now revoked.', schemaRef('McpSessionView')), ...h.errors('404', ...h.AUTHED) }),
    },
  };
}
