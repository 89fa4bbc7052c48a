/** Tools by name and alias, built once from the generated catalog. */
import type { ToolDefinition } from '../types.js';

export interface ToolRegistry {
  list(): readonly ToolDefinition[];
  resolve(nameOrAlias: string): ToolDefinition | undefined;
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
  return {
    list: () => list,
    resolve: (nameOrAlias) => (typeof nameOrAlias === 'string' ? byName.get(nameOrAlias) : undefined),
  };
}
