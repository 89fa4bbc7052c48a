/** The unknown_tool error: names the field and, for a near miss (a typo, a missing plural), the tool that was meant. */
import { ConnectorError } from '../errors.js';
import type { ToolDefinition } from '../types.js';
import type { ToolRegistry } from './tool-registry.js';

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
  const suggestion = typeof given === 'string' ? closestTool(tools, given) : undefined;
  return suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
}

/** The tool name (not alias: the catalog lists names) nearest to `given`, if one is within {@link MAX_DISTANCE}. */
function closestTool(tools: Iterable<Pick<ToolDefinition, 'name' | 'aliases'>>, given: string): string | undefined {
  if (given.length === 0 || given.length > 100) return undefined;
  const lower = given.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const tool of tools) {
    for (const key of [tool.name, ...tool.aliases]) {
      const distance = editDistance(lower, key, MAX_DISTANCE);
      if (distance <= MAX_DISTANCE && (best === undefined || distance < best.distance)) best = { name: tool.name, distance };
    }
  }
  return best?.name;
}

/** Levenshtein distance, giving up (returning limit + 1) once every path exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
