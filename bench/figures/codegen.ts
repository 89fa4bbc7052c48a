import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { generate } from '../../codegen/generate.js';
import { figure, type Figure } from '../lib/report.js';

const SPECS = path.resolve('specs');

/** A spec set with every tool copied `factor` times under new names (aliases renamed too, so they stay unique). */
function syntheticSpecs(factor: number): { dir: string; tools: number } {
  const dir = mkdtempSync(path.join(tmpdir(), `ac-specs-x${factor}-`));
  cpSync(path.join(SPECS, 'connectors'), path.join(dir, 'connectors'), { recursive: true });
  if (readdirSync(SPECS).includes('schema')) cpSync(path.join(SPECS, 'schema'), path.join(dir, 'schema'), { recursive: true });
  let tools = 0;
  for (const connector of readdirSync(path.join(SPECS, 'tools'))) {
    const out = path.join(dir, 'tools', connector);
    mkdirSync(out, { recursive: true });
    for (const file of readdirSync(path.join(SPECS, 'tools', connector))) {
      const text = readFileSync(path.join(SPECS, 'tools', connector, file), 'utf8');
      for (let i = 0; i < factor; i++) {
        const doc = parseDocument(text);
        const suffix = i === 0 ? '' : `_x${i}`;
        doc.set('name', `${doc.get('name') as string}${suffix}`);
        const aliases = doc.toJS().aliases as string[] | undefined;
        if (aliases) doc.set('aliases', aliases.map((a) => `${a}${suffix}`));
        writeFileSync(path.join(out, file.replace(/\.yaml$/, `${suffix}.yaml`)), doc.toString());
        tools++;
      }
    }
  }
  return { dir, tools };
}

async function timeGenerate(specsDir: string): Promise<number> {
  const t0 = performance.now();
  await generate({ specsDir });
  return (performance.now() - t0) / 1000;
}

/** Figure 4: generation time for the real specs, and per-tool cost growth at 10x and 100x synthetic spec sets. */
export async function codegenFigures(quick: boolean): Promise<Figure[]> {
  await timeGenerate(SPECS); // warm module loading and JIT so the 1x figure is not the cold start
  const base = await timeGenerate(SPECS);
  const one = syntheticSpecs(1);
  const factors = quick ? [10] : [10, 100];
  const figures: Figure[] = [figure('codegen_seconds', round(base), undefined, `${one.tools} tools`)];
  const perTool1 = base / one.tools;
  rmSync(one.dir, { recursive: true, force: true });
  for (const factor of factors) {
    const s = syntheticSpecs(factor);
    try {
      const seconds = await timeGenerate(s.dir);
      const growth = seconds / s.tools / perTool1;
      if (factor === factors[factors.length - 1]) {
        figures.push(figure('codegen_per_tool_growth_ratio', round(growth), undefined, `${factor}x (${s.tools} tools) in ${round(seconds)} s${quick ? '; the full run measures 100x' : ''}`));
      } else {
        figures.push(figure(`codegen_per_tool_growth_ratio_${factor}x`, round(growth), undefined, `${s.tools} tools in ${round(seconds)} s`));
      }
    } finally {
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
  return figures;
}

const round = (v: number) => Math.round(v * 1000) / 1000;
