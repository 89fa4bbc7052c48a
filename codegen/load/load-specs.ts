import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { metaValidator, type MetaValidate } from './meta-validate.js';
import type { SpecError } from './spec-error.js';
import type { ConnectorSpec, ToolSpec } from './spec-types.js';
import { resolveSharedParameters } from './shared-parameters.js';
import { parseSpecSource, type SpecSource } from './yaml-source.js';

export interface Loaded<T> {
  spec: T;
  source: SpecSource;
  /** The directory name the file sits in (tools: the connector folder). */
  folder: string;
  /** The file name without `.yaml`. */
  basename: string;
}

export interface LoadedSpecs {
  connectors: Loaded<ConnectorSpec>[];
  tools: Loaded<ToolSpec>[];
  errors: SpecError[];
}

/**
 * Reads `<specsDir>/connectors/*.yaml` and `<specsDir>/tools/<connector>/*.yaml` in sorted order, parses each with
 * positions and checks it against its meta-schema, then writes out every tool parameter that uses a shared
 * parameter of its connector (`{ use: name }`), so that what follows sees each parameter in full. Specs with errors
 * are left out of the result; their errors are collected so one run reports every problem.
 */
export function loadSpecs(specsDir: string): LoadedSpecs {
  const out: LoadedSpecs = { connectors: [], tools: [], errors: [] };
  const metaValidate = metaValidator();
  for (const file of yamlFiles(join(specsDir, 'connectors'))) {
    const loaded = loadOne<ConnectorSpec>('connector', file, metaValidate, out.errors);
    if (loaded) out.connectors.push(loaded);
  }
  const toolsDir = join(specsDir, 'tools');
  const tools: Loaded<ToolSpec>[] = [];
  // A connector's unused shared parameters are not reported while one of its tools failed to load.
  const connectorsWithFailedTools = new Set<string>();
  for (const folder of subdirs(toolsDir)) {
    for (const file of yamlFiles(join(toolsDir, folder))) {
      const loaded = loadOne<ToolSpec>('tool', file, metaValidate, out.errors);
      if (loaded) tools.push(loaded);
      else connectorsWithFailedTools.add(folder);
    }
  }
  out.tools = resolveSharedParameters(out.connectors, tools, connectorsWithFailedTools, out.errors);
  return out;
}

function loadOne<T>(kind: 'connector' | 'tool', path: string, metaValidate: MetaValidate, errors: SpecError[]): Loaded<T> | undefined {
  const file = displayPath(path);
  const { source, errors: parseErrors } = parseSpecSource(file, readFileSync(path, 'utf8'));
  errors.push(...parseErrors);
  if (!source || parseErrors.length > 0) return undefined;
  const metaErrors = metaValidate(kind, source);
  if (metaErrors.length > 0) {
    errors.push(...metaErrors);
    return undefined;
  }
  const parts = path.split(/[\\/]/);
  return { spec: source.data as T, source, folder: parts[parts.length - 2] ?? '', basename: (parts[parts.length - 1] ?? '').replace(/\.ya?ml$/, '') };
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel.split('\\').join('/');
}

function yamlFiles(dir: string): string[] {
  if (!exists(dir)) return [];
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
}

function subdirs(dir: string): string[] {
  if (!exists(dir)) return [];
  return readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory()).sort();
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
