/**
 * The tools' worked examples, read from their specs (`examples:` in specs/tools/**): every build and refusal case
 * the tests run (and the validation benchmark's inputs). A new tool brings its own cases; nothing here lists tools.
 * A request's `{ $any: string }` (a generated id) is turned into a matcher by the harness.
 */
import { fileURLToPath } from 'node:url';
import { loadSpecs } from '../../codegen/load/load-specs.js';
import type { ConnectorName, UpstreamRequest } from '../../runtime/types.js';
import type { BuildCase, RefuseCase } from './harness.js';

const loaded = loadSpecs(fileURLToPath(new URL('../../specs', import.meta.url)));
if (loaded.errors.length > 0) throw new Error(`specs with errors:\n${loaded.errors.map((e) => e.toString()).join('\n')}`);

/** The tool specs as written (name, connector, examples, sandbox mark). */
export const toolSpecs = loaded.tools.map((t) => t.spec);

/** Where an example is written, for a failure to name: `specs/tools/crm/crm_deal_get.yaml:41 examples.0 (its name)`. */
function exampleAt(t: (typeof loaded.tools)[number], i: number): string {
  return `specs/tools/${t.folder}/${t.basename}.yaml:${t.source.error(['examples', i], '').line} examples.${i} (${t.spec.examples[i]!.name})`;
}

export const buildCases: BuildCase[] = loaded.tools.flatMap((t) =>
  t.spec.examples.flatMap((e, i) => ('request' in e ? [{ name: e.name, tool: t.spec.name, at: exampleAt(t, i), input: e.input, want: e.request as UpstreamRequest }] : [])),
);

export const refuseCases: RefuseCase[] = loaded.tools.flatMap((t) =>
  t.spec.examples.flatMap((e, i) => ('refused' in e ? [{ name: e.name, tool: t.spec.name, at: exampleAt(t, i), input: e.input, pointer: e.refused.pointer, names: e.refused.names }] : [])),
);

const connectorOf = new Map(toolSpecs.map((t) => [t.name, t.connector]));
export const buildCasesOf = (connector: ConnectorName): BuildCase[] => buildCases.filter((c) => connectorOf.get(c.tool) === connector);
export const refuseCasesOf = (connector: ConnectorName): RefuseCase[] => refuseCases.filter((c) => connectorOf.get(c.tool) === connector);
