/**
 * `mode: "search"`: for large catalogs, the session shows three tools instead of every tool it allows:
 * `search_tools` (ranked search, runtime/agent/search.ts), `describe_tool` (one tool's full definition) and
 * `call_tool` (run one by name). All three see only the session's tools.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { AllowedTool, SessionScope } from './session-scope.js';
import { callTool } from './tool-call.js';
import { errorResult, successResult } from './tool-result.js';
import { mcpToolView } from './tool-view.js';
import { violationError } from '../validation/violation-error.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const META_TOOLS: readonly Tool[] = [
  {
    name: 'search_tools',
    title: 'Search tools',
    description:
      'Find the tools for a task, best match first. Describe the task in plain words (e.g. "schedule a meeting tomorrow"). ' +
      'Returns [{name, title, description}]; then call describe_tool for the parameters, and call_tool to run it.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200, description: 'What you want to do, in plain words.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many tools (default 5).' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: READ,
  },
  {
    name: 'describe_tool',
    title: 'Describe a tool',
    description: 'The full definition of one tool found with search_tools: its description and the JSON Schema of its arguments (inputSchema).',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, description: 'The tool name from search_tools.' } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: READ,
  },
  {
    name: 'call_tool',
    title: 'Call a tool',
    description: 'Run one tool by name with its arguments (an object matching the inputSchema from describe_tool). Returns the tool\'s result or an error to correct.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'The tool name.' },
        arguments: { type: 'object', description: 'The tool\'s arguments.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
];

function unknownTool(name: unknown): CallToolResult {
  return errorResult(new ConnectorError('unknown_tool', `No tool ${JSON.stringify(String(name).slice(0, 100))} in this session; use search_tools to find one.`));
}

function lookup(connector: Connector, allowed: ReadonlyMap<string, AllowedTool>, name: unknown): AllowedTool | undefined {
  if (typeof name !== 'string') return undefined;
  const tool = connector.tools.resolve(name);
  return tool === undefined ? undefined : allowed.get(tool.name);
}

export async function callMetaTool(
  connector: Connector,
  scope: SessionScope,
  allowed: ReadonlyMap<string, AllowedTool>,
  name: string,
  args: Record<string, unknown>,
  options?: CallOptions,
): Promise<CallToolResult | undefined> {
  if (name === 'search_tools') {
    const query = args.query;
    const limit = args.limit ?? 5;
    if (typeof query !== 'string' || query.trim() === '' || query.length > 200) {
      return errorResult(violationError('invalid_input', 'query must be a non-empty string of at most 200 characters', { pointer: '/query', message: 'query must be a non-empty string of at most 200 characters', keyword: 'type' }));
    }
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 50) {
      return errorResult(violationError('invalid_input', 'limit must be an integer from 1 to 50', { pointer: '/limit', message: 'limit must be an integer from 1 to 50', keyword: 'range' }));
    }
    const hits = connector.tools.search(query, { limit, among: new Set(allowed.keys()) });
    const tools = hits.map((hit) => {
      const view = mcpToolView(allowed.get(hit.name)!.tool);
      return { name: view.name, ...(view.title === undefined ? {} : { title: view.title }), description: view.description };
    });
    return successResult({ tools });
  }
  if (name === 'describe_tool') {
    const found = lookup(connector, allowed, args.name);
    return found === undefined ? unknownTool(args.name) : successResult(mcpToolView(found.tool));
  }
  if (name === 'call_tool') {
    const found = lookup(connector, allowed, args.name);
    if (found === undefined) return unknownTool(args.name);
    const inner = args.arguments ?? {};
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
      return errorResult(violationError('invalid_input', 'arguments must be an object', { pointer: '/arguments', message: 'arguments must be an object', keyword: 'type' }));
    }
    return callTool(connector, scope, found, inner as Record<string, unknown>, options);
  }
  return undefined;
}
