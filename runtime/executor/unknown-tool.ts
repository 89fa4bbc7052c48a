/** The unknown_tool error: names the field and, for a near miss (a typo, a missing plural), the tool that was meant. */
import { ConnectorError } from '../errors.js';
import type { ToolDefinition } from '../types.js';
import type { ToolRegistry } from './tool-registry.js';
import { closestMatch } from '../validation/closest-match.js';

/** Edits (insert, delete, substitute) allowed between a given name and a suggestion: beyond that it is a guess. */
const MAX_DISTANCE = 3;

/**
 * Builds the `unknown_tool` error for `name`. `pointer` is the body field that held it (`/tool_name` on
 * `execute_tool`); a name from the URL path has none. The name is cut to 100 characters so the message stays short.
 */
export function unknownToolError(tools: ToolRegistry, name: unknown, pointer?: string): ConnectorError {
  const given = typeof name === 'string' ? name : '';
  const shown = JSON.stringify(given.slice(0, 100));
  const hint = didYouMean(tools.list(), given);
  const message = `No tool or alias named ${shown}.${hint}`;
  if (pointer === undefined) return new ConnectorError('unknown_tool', message);
  return new ConnectorError('unknown_tool', message, {
    details: { violations: [{ pointer, message: `tool_name ${shown} is not a tool or alias.${hint}`, keyword: 'not_found' }] },
  });
}

/**
 * ` Did you mean "calendar_list_events"?` when one of `tools` is a near miss of `given`, else the empty string. The
 * MCP server passes the session's own tools, so it never suggests one the session cannot call.
 */
export function didYouMean(tools: Iterable<Pick<ToolDefinition, 'name' | 'aliases'>>, given: unknown): string {
  if (typeof given !== 'string' || given.length === 0 || given.length > 100) return '';
  // Aliases are matched too, and the catalog's name is suggested for them (the catalog lists names).
  const nameOf = new Map<string, string>();
  for (const tool of tools) for (const key of [tool.name, ...tool.aliases]) nameOf.set(key, tool.name);
  const key = closestMatch(given, nameOf.keys(), MAX_DISTANCE);
  return key === undefined ? '' : ` Did you mean "${nameOf.get(key)}"?`;
}
