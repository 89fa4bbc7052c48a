/**
 * The unknown_tool error: names the field and, for a near miss (a typo, a missing plural), the tool that was meant;
 * for a name that is not close to any (`docs_document_get`, `hubspot_find_contact`), the tools that share its words.
 */
import { ConnectorError } from '../errors.js';
import type { ToolRegistry } from './tool-registry.js';
import { closestMatch } from '../validation/closest-match.js';

/** Edits (insert, delete, substitute) allowed between a given name and a suggestion: beyond that it is a guess. */
const MAX_DISTANCE = 3;
/** Tools named when no name is close: enough for a model to pick from, few enough to read. */
const WORD_MATCHES = 3;

/**
 * Builds the `unknown_tool` error for `name`. `pointer` is the body field that held it (`/tool_name` on
 * `execute_tool`); a name from the URL path has none. The name is cut to 100 characters so the message stays short.
 */
export function unknownToolError(tools: ToolRegistry, name: unknown, pointer?: string): ConnectorError {
  const given = typeof name === 'string' ? name : '';
  const shown = JSON.stringify(given.slice(0, 100));
  const hint = didYouMean(tools, given);
  const message = `No tool or alias named ${shown}.${hint}`;
  if (pointer === undefined) return new ConnectorError('unknown_tool', message);
  return new ConnectorError('unknown_tool', message, {
    details: { violations: [{ pointer, message: `tool_name ${shown} is not a tool or alias.${hint}`, keyword: 'not_found' }] },
  });
}

/**
 * ` Did you mean "calendar_list_events"?` when a tool's name or alias is a near miss of `given`; else
 * ` Tools with these words: "a", "b", "c".` from the ranked search over the name's words (`docs_document_get` finds
 * the docs tools that read and write documents); else the empty string. `among` limits both to a session's tools (the
 * MCP server), so a tool the session cannot call is never suggested.
 */
export function didYouMean(tools: ToolRegistry, given: unknown, among?: ReadonlySet<string>): string {
  if (typeof given !== 'string' || given.length === 0 || given.length > 100) return '';
  // Aliases are matched too, and the catalog's name is suggested for them (the catalog lists names).
  const nameOf = new Map<string, string>();
  for (const tool of tools.list()) {
    if (among !== undefined && !among.has(tool.name)) continue;
    for (const key of [tool.name, ...tool.aliases]) nameOf.set(key, tool.name);
  }
  const key = closestMatch(given, nameOf.keys(), MAX_DISTANCE);
  if (key !== undefined) return ` Did you mean "${nameOf.get(key)}"?`;
  const hits = tools.search(given, { limit: WORD_MATCHES, ...(among === undefined ? {} : { among }) });
  return hits.length === 0 ? '' : ` Tools with these words: ${hits.map((hit) => `"${hit.name}"`).join(', ')}.`;
}
