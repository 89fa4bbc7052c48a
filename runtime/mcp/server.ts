/**
 * The MCP server for one session scope, on the official SDK's low-level `Server` (our tools come with JSON Schemas
 * already; `McpServer` wants zod shapes). Transport-agnostic: `/mcp` connects it to a Streamable HTTP transport per
 * request, `agent-connector mcp` to stdio.
 *
 * The allowed tool set is read when a request needs it (connections can be added or removed while a session lives),
 * never cached on the server object.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import { didYouMean } from '../executor/unknown-tool.js';
import { callMetaTool, META_TOOLS } from './meta-tools.js';
import { allowedTools, type SessionScope } from './session-scope.js';
import { callTool } from './tool-call.js';
import { ProtocolError } from './protocol-error.js';
import { errorResult } from './tool-result.js';
import { mcpToolView } from './tool-view.js';

export const MCP_SERVER_NAME = 'agent-connector';
/** The server's own version as MCP reports it: the service API's version (as in the OpenAPI document). */
export const MCP_SERVER_VERSION = '1';

export interface McpServerDeps {
  connector: Connector;
  scope: SessionScope;
  /** Where a bug inside a tool call is reported (the agent sees only `internal`). */
  onInternalError?: (error: unknown) => void;
  /** Passed to every tool call (the HTTP endpoint puts the call's fields into its request's log line). */
  callOptions?: CallOptions;
}

export function createMcpServer(deps: McpServerDeps): Server {
  const { connector, scope } = deps;
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        scope.mode === 'search'
          ? 'Tools act for one signed-in user in their connected apps. Find a tool with search_tools, read its parameters with describe_tool, run it with call_tool.'
          : 'Tools act for one signed-in user in their connected apps. When a tool answers with an authorization_url, ask the user to open it, then try again.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (scope.mode === 'search') return { tools: [...META_TOOLS] };
    const allowed = await allowedTools(connector, scope);
    return { tools: [...allowed.values()].map((a) => mcpToolView(a.tool)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const allowed = await allowedTools(connector, scope);
    try {
      if (scope.mode === 'search') {
        const result = await callMetaTool(connector, scope, allowed, name, args, deps.callOptions);
        if (result === undefined) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}: this session offers search_tools, describe_tool and call_tool`);
        return result;
      }
      const tool = connector.tools.resolve(name);
      const entry = tool === undefined ? undefined : allowed.get(tool.name);
      // Per the protocol, a tool that does not exist (for this session) is a protocol error, not a tool result.
      if (entry === undefined) {
        const hint = didYouMean(connector.tools, name, new Set(allowed.keys()));
        throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name.slice(0, 100))} in this session.${hint}`);
      }
      return await callTool(connector, scope, entry, args, deps.callOptions);
    } catch (error) {
      if (error instanceof McpError) throw error;
      deps.onInternalError?.(error);
      return errorResult(new ConnectorError('internal', 'A bug in the service stopped this call; it is logged.'));
    }
  });

  return server;
}
