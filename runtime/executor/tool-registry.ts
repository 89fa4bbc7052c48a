/** Tools by name and alias, built once from the generated catalog, with their ranked search. */
import { ToolSearch, type ToolSearchHit, type ToolSearchOptions } from '../agent/search.js';
import type { ToolDefinition } from '../types.js';

export interface ToolRegistry {
  list(): readonly ToolDefinition[];
  resolve(nameOrAlias: string): ToolDefinition | undefined;
  /** Ranked search over the tools' names, titles, descriptions and parameters (agent/search.ts). */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[];
}

/** A name or alias used twice is a generator bug, so it fails loudly at start rather than picking one. */
export function createToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    for (const key of [tool.name, ...tool.aliases]) {
      const existing = byName.get(key);
      if (existing !== undefined && existing !== tool) throw new Error(`Tool name or alias ${key} is used by ${existing.name} and ${tool.name}.`);
      byName.set(key, tool);
    }
  }
  const list = Object.freeze([...tools]);
  // Built on the first search: most processes (a CLI command, a test) never search.
  let index: ToolSearch | undefined;
  return {
    list: () => list,
    resolve: (nameOrAlias) => (typeof nameOrAlias === 'string' ? byName.get(nameOrAlias) : undefined),
    search: (query, options) => (index ??= new ToolSearch(list)).search(query, options),
  };
}
