/**
 * `/mcp`: the MCP server over Streamable HTTP, authenticated by an MCP session token (never an application token).
 *
 * Stateless transport (no `Mcp-Session-Id`): each POST gets a fresh server and transport, built from the session the
 * bearer token names, and answers with plain JSON. Several service instances share one database and no sticky
 * routing: every request carries the token, the token names a session row, and the row holds all the state there
 * is (identifier, tool set, environment, expiry, revocation). Nothing is kept in one instance's memory, so any
 * instance answers any request, and a revocation holds everywhere at the next request. The cost is one indexed
 * read per request, small beside a tool call's upstream round trip. Server-initiated streams (GET) and transport
 * session deletion (DELETE) do not exist in this mode: 405, as the transport specification allows.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#streamable-http
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import { bearerToken } from '../service/bearer.js';
import { callOptions } from '../service/request-observability.js';
import type { McpSessionRecord } from '../store/types.js';
import { createMcpServer } from './server.js';
import { authenticateSession, scopeOf } from './sessions.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointDeps {
  connector: Connector;
  now: () => number;
  /** The per-environment budget the API routes use; rejects (`rate_limited`) when the environment is over it. */
  admitEnvironment?: (request: FastifyRequest, environmentId: string) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The MCP session the bearer token names (set on `/mcp` only). */
    mcpSession: McpSessionRecord | null;
  }
}

export async function registerMcpEndpoint(app: FastifyInstance, deps: McpEndpointDeps): Promise<void> {
  await app.register(async (mcp) => {
    mcp.decorateRequest('mcpSession', null);
    mcp.addHook('onRequest', async (request) => {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) throw new ConnectorError('unauthorized', 'Send an MCP session token from POST /api/v1/mcp_sessions as Authorization: Bearer <token>');
      const checked = await authenticateSession(deps.connector, token, deps.now());
      if (!checked.ok) throw new ConnectorError('unauthorized', checked.message);
      await deps.admitEnvironment?.(request, checked.session.environmentId);
      request.mcpSession = checked.session;
    });

    mcp.post(MCP_PATH, async (request, reply) => {
      const session = request.mcpSession!;
      const server = createMcpServer({
        connector: deps.connector,
        scope: scopeOf(session),
        callOptions: callOptions(request),
        onInternalError: (error) => request.log.error({ err: error, mcp_session: session.id }, 'MCP tool call failed'),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.setHeader('x-request-id', request.id);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });

    const notInStatelessMode = async (): Promise<never> => {
      throw new ConnectorError('method_not_allowed', 'This MCP endpoint is stateless: it takes POST only (no server-initiated stream, no transport session to delete)', {
        details: { allow: ['POST'] },
      });
    };
    mcp.get(MCP_PATH, async (_request, reply) => {
      reply.header('allow', 'POST');
      return notInStatelessMode();
    });
    mcp.delete(MCP_PATH, async (_request, reply) => {
      reply.header('allow', 'POST');
      return notInStatelessMode();
    });
  });
}
