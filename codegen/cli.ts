/**
 * `npm run generate`: specs/ -> generated/. `npm run generate -- --check`: regenerate in memory and fail, naming each
 * file, when generated/ differs. Spec errors print as `file:line:column message` (exit 1); anything else is a crash
 * in the generator and prints its stack (exit 2).
 */
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { generate } from './generate.js';
import { formatSpecError, SpecErrors } from './load/spec-error.js';
import { hasDrift } from './write/out-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function main(argv: string[]): Promise<number> {
  const program = new Command('generate')
    .description('Generate generated/ from specs/')
    .option('--check', 'compare with generated/ instead of writing it; exit 1 on any difference')
    .option('--specs <dir>', 'specs directory', `${ROOT}specs`)
    .option('--out <dir>', 'output directory', `${ROOT}generated`)
    .parse(argv);
  const opts = program.opts<{ check?: boolean; specs: string; out: string }>();
  const started = performance.now();
  try {
    const result = await generate({ specsDir: opts.specs, outDir: opts.out, check: opts.check === true });
    const ms = Math.round(performance.now() - started);
    if (result.drift) {
      if (!hasDrift(result.drift)) {
        console.log(`generated/ is up to date (${result.model.tools.length} tools, ${ms} ms)`);
        return 0;
      }
      for (const f of result.drift.changed) console.error(`differs: ${f}`);
      for (const f of result.drift.missing) console.error(`missing: ${f}`);
      for (const f of result.drift.extra) console.error(`extra:   ${f}`);
      console.error('generated/ is out of date: run `npm run generate` and commit the result.');
      return 1;
    }
    console.log(`wrote ${result.files.length} files for ${result.model.tools.length} tools to ${opts.out} (${ms} ms)`);
    return 0;
  } catch (e) {
    if (e instanceof SpecErrors) {
      for (const err of e.errors) console.error(formatSpecError(err));
      console.error(`${e.errors.length} spec error(s); nothing written.`);
      return 1;
    }
    console.error('codegen crashed (a bug in the generator, not in the specs):');
    console.error(e);
    return 2;
  }
}

process.exitCode = await main(process.argv);
