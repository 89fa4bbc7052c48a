import { helperRegistry } from '../runtime/helpers/index.js';
import { checkSpecs } from './check/check-specs.js';
import { emitAll } from './emit/emit-all.js';
import type { EmittedFile } from './emit/emitted-file.js';
import { loadSpecs } from './load/load-specs.js';
import { SpecErrors } from './load/spec-error.js';
import { buildModel } from './model/build-model.js';
import { readHelperSignatures } from './model/helper-signatures.js';
import type { Model } from './model/types.js';
import { compareOutDir, writeOutDir, type Drift } from './write/out-dir.js';
import { newHelpersProject } from './project.js';

export interface GenerateOptions {
  /** Directory holding `connectors/` and `tools/`. */
  specsDir: string;
  /** Where files go (or are compared with, for `check`). Nothing is written when absent. */
  outDir?: string;
  /** Compare with `outDir` instead of writing it. */
  check?: boolean;
}

export interface GenerateResult {
  model: Model;
  files: EmittedFile[];
  /** With `check`: what differs from `outDir` (empty lists when up to date). */
  drift?: Drift;
}

/**
 * The whole pipeline: load (YAML + meta-schema) -> semantic checks -> model -> emit -> write or compare.
 * Throws {@link SpecErrors} (every error, with file:line:column) before anything is written when a spec is bad.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const model = loadModel(options.specsDir);
  const files = await emitAll(model);
  if (!options.outDir) return { model, files };
  if (options.check) return { model, files, drift: compareOutDir(options.outDir, files) };
  writeOutDir(options.outDir, files);
  return { model, files };
}

/** Load, check and model the specs; throws {@link SpecErrors} listing every problem. */
export function loadModel(specsDir: string): Model {
  const loaded = loadSpecs(specsDir);
  const errors = [...loaded.errors, ...checkSpecs(loaded, helperRegistry)];
  if (errors.length > 0) throw new SpecErrors(errors);
  return buildModel(loaded, readHelperSignatures(newHelpersProject()));
}
