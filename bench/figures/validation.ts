import { tools } from '../../generated/tools.gen.js';
import { buildCases } from '../../test/specs/examples.js';
import { figure, type Figure } from '../lib/report.js';
import { syncOpsPerSec } from '../lib/stats.js';

/**
 * Figure 5: calls per second of each compiled validator on a typical valid input (the tool's first spec example).
 * Each tool gets one window per pass over all tools and keeps its best: spread over the whole run, a few seconds of
 * a noisy neighbour cannot land on every window of one tool (five windows back to back once did, 0.9M for a
 * validator that runs at 1.6M).
 */
export async function validationFigures(quick: boolean): Promise<Figure[]> {
  const cases = buildCases;
  const measured: Array<{ tool: string; validate: () => unknown; ops: number }> = [];
  for (const tool of tools) {
    const c = cases.find((x) => x.tool === tool.name);
    if (!c) continue;
    const result = tool.validate(c.input);
    if (!result.ok) throw new Error(`the typical input of ${tool.name} does not validate`);
    measured.push({ tool: tool.name, validate: () => tool.validate(c.input), ops: 0 });
  }
  const passes = quick ? 3 : 5;
  for (let pass = 0; pass < passes; pass++) {
    for (const m of measured) m.ops = Math.max(m.ops, syncOpsPerSec(m.validate, quick ? 20 : 100, 1));
  }
  const slowest = measured.reduce((a, b) => (b.ops < a.ops ? b : a));
  return [figure('validation_ops_per_sec_min', Math.round(slowest.ops), undefined, `slowest: ${slowest.tool}; ${measured.length} of ${tools.length} tools measured`)];
}
