/**
 * `npm run bench [-- --quick] [-- --only name,name]` (or `--only=name,name`): what the product costs on top of the
 * work it wraps, as ratios against baselines measured in the same run. Prints a table and writes `bench/results/latest.json`.
 * Benchmarks never fail on speed; they exit non-zero only when a figure could not be measured.
 */
import { codegenFigures } from './figures/codegen.js';
import { executorFigures } from './figures/executor.js';
import { refreshStormFigures } from './figures/refresh-storm.js';
import { serviceFigures } from './figures/service.js';
import { storeFigures } from './figures/store.js';
import { validationFigures } from './figures/validation.js';
import { userFeelFigures, userFeelLayerFigures } from './figures/user-feel.js';
import { workspaceColumnsFigures } from './figures/workspace-columns.js';
import { printTable, writeResults, type Figure } from './lib/report.js';

const SUITES: Record<string, (quick: boolean) => Promise<Figure[]>> = {
  executor: executorFigures,
  service: serviceFigures,
  refresh: refreshStormFigures,
  codegen: codegenFigures,
  validation: validationFigures,
  store: storeFigures,
  'workspace-columns': workspaceColumnsFigures,
  'user-feel': userFeelFigures,
  'user-feel-layers': userFeelLayerFigures,
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** `--only=a,b` or `--only a,b`. */
function optionValue(name: string): string | undefined {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  const arg = args[i]!;
  if (arg !== name) return arg.slice(name.length + 1);
  const next = args[i + 1];
  if (next === undefined || next.startsWith('--')) {
    console.error(`${name} needs a value: ${name}=${Object.keys(SUITES).join(',')}`);
    process.exit(2);
  }
  return next;
}
const onlyArg = optionValue('--only');
const only = onlyArg ? onlyArg.split(',').map((s) => s.trim()).filter((s) => s.length > 0) : Object.keys(SUITES);

const figures: Figure[] = [];
let failed = false;
for (const name of only) {
  const suite = SUITES[name];
  if (!suite) {
    console.error(`unknown suite '${name}'; suites: ${Object.keys(SUITES).join(', ')}`);
    process.exit(2);
  }
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}${quick ? ' (quick)' : ''} ...`);
  try {
    figures.push(...(await suite(quick)));
    process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    failed = true;
    process.stderr.write(` failed: ${(error as Error).stack ?? String(error)}\n`);
  }
}
printTable(figures);
writeResults(figures, quick ? 'quick' : 'full');
process.exit(failed ? 1 : 0);
