/**
 * What one MCP session may reach: one environment, one end user (`identifier`), and a tool set narrowed by
 * connection names, tool names and read-only. The same scope serves a minted session (`/mcp`) and the local stdio
 * server (which has no token: it runs with the store's own access), so both decide "which tools" one way.
 *
 * Tools are offered only where the session has a connection of their connector: without one a call could never run.
 * Whether the user has an ACTIVE account there is decided at call time, where a missing one becomes a link.
 */
import type { ConnectionView, Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { McpSessionMode } from '../store/types.js';
import type { ToolDefinition, Violation } from '../types.js';

export interface SessionScope {
  environmentId: string;
  identifier: string;
  /** Connection names; null: every connection of the environment. */
  connections: readonly string[] | null;
  /** Canonical tool names; null: every tool of those connections. */
  tools: readonly string[] | null;
  readOnly: boolean;
  mode: McpSessionMode;
}

/** A tool the session may call, with the session's connections of its connector (name order). */
export interface AllowedTool {
  tool: ToolDefinition;
  connections: readonly ConnectionView[];
}

/** What the caller asks for; checked by {@link checkSessionScope}. */
export interface SessionScopeInput {
  identifier: string;
  connections?: readonly string[] | null;
  tools?: readonly string[] | null;
  read_only?: boolean | null;
  mode?: McpSessionMode | null;
}

export function isReadOnlyTool(tool: ToolDefinition): boolean {
  return tool.annotations.readOnly;
}

function select(tools: readonly ToolDefinition[], connections: readonly ConnectionView[], scope: Omit<SessionScope, 'environmentId' | 'identifier' | 'mode'>): Map<string, AllowedTool> {
  const named = scope.connections === null ? connections : connections.filter((c) => scope.connections!.includes(c.name));
  const byConnector = new Map<string, ConnectionView[]>();
  for (const c of [...named].sort((x, y) => x.name.localeCompare(y.name))) byConnector.set(c.connector, [...(byConnector.get(c.connector) ?? []), c]);
  const allowed = new Map<string, AllowedTool>();
  for (const tool of tools) {
    if (scope.tools !== null && !scope.tools.includes(tool.name)) continue;
    if (scope.readOnly && !isReadOnlyTool(tool)) continue;
    const candidates = byConnector.get(tool.connector);
    if (candidates !== undefined) allowed.set(tool.name, { tool, connections: candidates });
  }
  return allowed;
}

/** Every tool the scope allows, by canonical name, against the environment's connections as they are now. */
export async function allowedTools(connector: Connector, scope: SessionScope): Promise<Map<string, AllowedTool>> {
  const connections = await connector.environment(scope.environmentId).listConnections();
  return select(connector.tools.list(), connections, scope);
}

/**
 * Checks a requested scope against the environment: every connection and tool name must exist, a named tool needs a
 * connection of its connector in the session, and with `read_only` a named tool must be read-only. Tool aliases
 * become canonical names. Throws `invalid_input` listing every violation with its JSON pointer; a scope that would
 * allow no tool at all is refused too (a session that can do nothing is a mistake worth naming).
 */
export async function checkSessionScope(connector: Connector, environmentId: string, input: SessionScopeInput): Promise<SessionScope> {
  const violations: Violation[] = [];
  const identifier = input.identifier;
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > 256) {
    violations.push({ pointer: '/identifier', message: 'identifier must be a string of 1 to 256 characters', keyword: 'type' });
  }
  const envConnections = await connector.environment(environmentId).listConnections();
  const connections = input.connections == null ? null : [...new Set(input.connections)];
  connections?.forEach((name) => {
    if (!envConnections.some((c) => c.name === name)) {
      const index = input.connections!.indexOf(name);
      violations.push({ pointer: `/connections/${index}`, message: `connection ${JSON.stringify(name)} does not exist in this environment`, keyword: 'not_found' });
    }
  });
  const sessionConnectors = new Set(envConnections.filter((c) => connections === null || connections.includes(c.name)).map((c) => c.connector));
  const readOnly = input.read_only === true;
  let tools: string[] | null = null;
  if (input.tools != null) {
    tools = [];
    input.tools.forEach((name, index) => {
      const tool = connector.tools.resolve(name);
      const pointer = `/tools/${index}`;
      if (tool === undefined) violations.push({ pointer, message: `${JSON.stringify(name)} names no tool`, keyword: 'not_found' });
      else if (!sessionConnectors.has(tool.connector)) violations.push({ pointer, message: `${tool.name} needs a ${tool.connector} connection, and the session has none`, keyword: 'not_found' });
      else if (readOnly && !isReadOnlyTool(tool)) violations.push({ pointer, message: `${tool.name} is not read-only, and read_only is true`, keyword: 'read_only' });
      else if (!tools!.includes(tool.name)) tools!.push(tool.name);
    });
  }
  const mode = input.mode ?? 'tools';
  if (mode !== 'tools' && mode !== 'search') violations.push({ pointer: '/mode', message: 'mode must be "tools" or "search"', keyword: 'enum' });
  if (violations.length === 0 && select(connector.tools.list(), envConnections, { connections, tools, readOnly }).size === 0) {
    violations.push({ pointer: '', message: 'the session would allow no tool: create a connection first, or widen connections/tools/read_only', keyword: 'empty' });
  }
  if (violations.length > 0) {
    throw new ConnectorError('invalid_input', `Invalid MCP session: ${violations.map((v) => v.message).join('; ')}`, { details: { violations } });
  }
  return { environmentId, identifier, connections, tools, readOnly, mode };
}
