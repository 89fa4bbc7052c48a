/**
 * Every tool's worked examples (the `examples:` of its spec): each valid input builds exactly the upstream request
 * the real API expects, and each input breaking a rule is refused by `validate` with a violation at the right JSON
 * pointer that names the parameter, so no request is ever built for it.
 */
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { buildCases, buildCasesOf, refuseCases, refuseCasesOf, toolSpecs } from './examples.js';
import { runBuildCases, runRefuseCases } from './harness.js';

const connectors = [...new Set(toolSpecs.map((t) => t.connector))];

describe('every generated tool has a spec with a request example', () => {
  it('the same tools in the registry and in specs/, each with an input and the request it builds', () => {
    expect((tools as readonly ToolDefinition[]).map((t) => t.name).sort()).toEqual(toolSpecs.map((t) => t.name).sort());
    for (const t of toolSpecs) expect(t.examples.some((e) => 'request' in e), t.name).toBe(true);
  });
});

// A failing example names where it is written, so a maintainer goes to the YAML, not to this file.
describe("every example case names its spec file, line and index", () => {
  it.each([...buildCases, ...refuseCases].map((c) => [`${c.tool}: ${c.name}`, c] as const))('%s', (_label, c) => {
    const connector = toolSpecs.find((t) => t.name === c.tool)!.connector;
    expect(c.at).toMatch(new RegExp(`^specs/tools/${connector}/${c.tool}\\.yaml:\\d+ examples\\.\\d+ \\(${c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
  });
});

for (const connector of connectors) {
  describe(`${connector} tools build the upstream request the real API expects`, () => runBuildCases(buildCasesOf(connector)));
  const refused = refuseCasesOf(connector);
  if (refused.length > 0) describe(`${connector} tools refuse inputs that break a rule, naming the parameter`, () => runRefuseCases(refused));
}
