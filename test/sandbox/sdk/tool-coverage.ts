import { expect } from 'vitest';

/**
 * That a table of official-SDK cases names every tool of its connectors once, and nothing else. A maintainer who
 * adds a tool meets this first: the failure says which tool needs an entry, and where.
 */
export function expectEveryToolCovered(table: string, covered: readonly string[], toolNames: readonly string[]): void {
  const known = new Set(toolNames);
  const have = new Set(covered);
  const missing = toolNames.filter((name) => !have.has(name));
  const unknown = [...have].filter((name) => !known.has(name));
  expect(missing, `add a case for ${missing.join(', ')} to ${table}: the official SDK's call for the same operation, which must send the same request`).toEqual([]);
  expect(unknown, `${table} has cases for ${unknown.join(', ')}, which no spec defines: remove them, or fix the tool name`).toEqual([]);
}
