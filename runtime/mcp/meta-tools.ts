/**
 * `mode: "search"`: for large catalogs, the session shows three tools instead of every tool it allows:
 * `search_tools` (ranked search, runtime/agent/search.ts), `describe_tool` (one tool's full definition) and
 * `call_tool` (run one by name). All three see only the session's tools.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../agent/formats/open-shapes.js';
import type { CallOptions, Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import { didYouMean } from '../executor/unknown-tool.js';
import { describeJson, readJsonObjectText } from '../json/json-text-problem.js';
import type { Violation } from '../types.js';
import { pointerToken, unknownKeyHint } from '../validation/violations.js';
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

function unknownTool(connector: Connector, allowed: ReadonlyMap<string, AllowedTool>, name: string): CallToolResult {
  const hint = didYouMean(connector.tools, name, new Set(allowed.keys()));
  return errorResult(new ConnectorError('unknown_tool', `No tool ${JSON.stringify(name.slice(0, 100))} in this session.${hint} Use search_tools to find one.`));
}

/**
 * The meta-tool's declared `inputSchema`, enforced: the SDK's low-level `Server` does not check arguments. A missing
 * required argument, a `name` that is not a string, or an argument the schema does not declare (`args` for
 * `arguments`) is refused with its pointer, so a misnamed argument is never silently dropped and the call never runs
 * without what the model meant to send. The ranges of `query` and `limit` are checked where they are read.
 */
function argumentViolations(tool: Tool, args: Record<string, unknown>): Violation[] {
  const declared = tool.inputSchema.properties ?? {};
  const violations: Violation[] = [];
  for (const key of tool.inputSchema.required ?? []) {
    if (args[key] == null) violations.push({ pointer: `/${pointerToken(key)}`, message: `${key} is required`, keyword: 'required' });
  }
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(declared, key)) {
      violations.push({ pointer: `/${pointerToken(key)}`, message: `unknown parameter '${key}'${unknownKeyHint(key, Object.keys(declared), true)}`, keyword: 'additionalProperties' });
    }
  }
  if (args.name != null && typeof args.name !== 'string') violations.push({ pointer: '/name', message: 'name must be a string', keyword: 'type' });
  return violations;
}

/**
 * `call_tool`'s `arguments` as the object to run the tool with, or the message refusing it. Models often write the
 * arguments as the JSON text of an object (`"{\"max_results\": 5}"`), the way function-calling APIs hand arguments
 * to them; such a text is read as the service reads any caller JSON (depth limit, no prototype-poisoning keys,
 * runtime/json/) and taken when it is an object, or refused saying why, as a free-form tool parameter's is. Absent
 * (or null) is no arguments.
 */
function toolArguments(value: unknown): Record<string, unknown> | string {
  if (value == null) return {};
  if (typeof value !== 'string') return isPlainObject(value) ? value : `arguments must be an object, not ${describeJson(value)}`;
  const read = readJsonObjectText(value);
  return 'object' in read ? read.object : `arguments must be an object: ${read.problem}`;
}

function lookup(connector: Connector, allowed: ReadonlyMap<string, AllowedTool>, name: string): AllowedTool | undefined {
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
  const meta = META_TOOLS.find((t) => t.name === name);
  if (meta === undefined) return undefined;
  const violations = argumentViolations(meta, args);
  if (violations.length > 0) {
    return errorResult(new ConnectorError('invalid_input', `Invalid input for ${name}: ${violations.map((v) => v.message).join('; ')}`, { details: { violations } }));
  }
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
    const found = lookup(connector, allowed, args.name as string);
    return found === undefined ? unknownTool(connector, allowed, args.name as string) : successResult(mcpToolView(found.tool));
  }
  if (name === 'call_tool') {
    const found = lookup(connector, allowed, args.name as string);
    if (found === undefined) return unknownTool(connector, allowed, args.name as string);
    const inner = toolArguments(args.arguments);
    if (typeof inner === 'string') return errorResult(violationError('invalid_input', inner, { pointer: '/arguments', message: inner, keyword: 'type' }));
    return callTool(connector, scope, found, inner, options);
  }
  return undefined;
}
