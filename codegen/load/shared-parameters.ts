/**
 * Shared parameters: a connector spec's `parameters:` holds parameter definitions that several of its tools take
 * word for word (Sheets' spreadsheet_id), and a tool's parameter takes one by reference, `spreadsheet_id: { use:
 * spreadsheet_id }`. The loader writes each reference out before anything else sees the spec, so the checks, the
 * model and every emitter see the parameter exactly as if the tool had written it (docs/spec-format.md, "Shared
 * parameters").
 */
import type { Loaded } from './load-specs.js';
import type { SpecError } from './spec-error.js';
import type { ConnectorSpec, ParameterSpec, ToolSpec } from './spec-types.js';

/** A tool parameter as written before references are resolved: its own definition, or `{ use: <shared name> }`. */
type ParameterUse = { use: string };

function isParameterUse(p: unknown): p is ParameterUse {
  return typeof p === 'object' && p !== null && !Array.isArray(p) && 'use' in p;
}

/**
 * Replaces every `{ use: name }` in the tools' parameters with a copy of the connector's shared parameter `name`.
 * A tool with a reference that names no shared parameter of its connector (or whose connector did not load) is
 * reported and left out, as a tool failing its meta-schema is. A shared parameter no tool uses is reported in the
 * connector's file, unless a tool of that connector failed to load (its references are unknown).
 */
export function resolveSharedParameters(
  connectors: ReadonlyArray<Loaded<ConnectorSpec>>,
  tools: ReadonlyArray<Loaded<ToolSpec>>,
  connectorsWithFailedTools: ReadonlySet<string>,
  errors: SpecError[],
): Loaded<ToolSpec>[] {
  const byName = new Map<string, Loaded<ConnectorSpec>>();
  for (const c of connectors) if (!byName.has(c.spec.name)) byName.set(c.spec.name, c);
  const used = new Map<string, Set<string>>();
  const out: Loaded<ToolSpec>[] = [];
  for (const t of tools) {
    const { spec, source } = t;
    const connector = byName.get(spec.connector);
    const shared = connector?.spec.parameters ?? {};
    const params = spec.parameters as Record<string, ParameterSpec | ParameterUse>;
    let ok = true;
    for (const [name, p] of Object.entries(params)) {
      if (!isParameterUse(p)) continue;
      const definition = Object.hasOwn(shared, p.use) ? shared[p.use] : undefined;
      if (definition === undefined) {
        ok = false;
        const where = `tool ${spec.name}: parameter '${name}' uses '${p.use}'`;
        errors.push(source.error(['parameters', name, 'use'], connector === undefined
          ? `${where}, but the ${spec.connector} connector's spec did not load, so it has no shared parameters`
          : `${where}, which is no shared parameter of the ${spec.connector} connector (${connector.source.file} parameters: ${knownNames(shared)})`));
        continue;
      }
      params[name] = structuredClone(definition);
      let names = used.get(spec.connector);
      if (!names) used.set(spec.connector, (names = new Set()));
      names.add(p.use);
    }
    if (ok) out.push(t);
  }
  for (const c of byName.values()) {
    if (connectorsWithFailedTools.has(c.spec.name)) continue;
    for (const name of Object.keys(c.spec.parameters ?? {})) {
      if (!used.get(c.spec.name)?.has(name)) {
        errors.push(c.source.error(['parameters', name], `shared parameter '${name}' is used by no ${c.spec.name} tool (a tool takes it with '${name}: { use: ${name} }'); remove it or use it`, 'key'));
      }
    }
  }
  return out;
}

function knownNames(shared: Record<string, ParameterSpec>): string {
  const names = Object.keys(shared).sort();
  return names.length === 0 ? 'none' : names.join(', ');
}
