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

export const buildCases: BuildCase[] = toolSpecs.flatMap((t) =>
  t.examples.flatMap((e) => ('request' in e ? [{ name: e.name, tool: t.name, input: e.input, want: e.request as UpstreamRequest }] : [])),
);

export const refuseCases: RefuseCase[] = toolSpecs.flatMap((t) =>
  t.examples.flatMap((e) => ('refused' in e ? [{ name: e.name, tool: t.name, input: e.input, pointer: e.refused.pointer, names: e.refused.names }] : [])),
);

const connectorOf = new Map(toolSpecs.map((t) => [t.name, t.connector]));
export const buildCasesOf = (connector: ConnectorName): BuildCase[] => buildCases.filter((c) => connectorOf.get(c.tool) === connector);
export const refuseCasesOf = (connector: ConnectorName): RefuseCase[] => refuseCases.filter((c) => connectorOf.get(c.tool) === connector);
