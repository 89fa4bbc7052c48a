import { tools } from '../../generated/tools.gen.js';
import { calendarBuild } from '../../test/specs/cases/calendar.js';
import { crmBuild } from '../../test/specs/cases/crm.js';
import { docsBuild } from '../../test/specs/cases/docs.js';
import { sheetsBuild } from '../../test/specs/cases/sheets.js';
import { workspaceBuild } from '../../test/specs/cases/workspace.js';
import { figure, type Figure } from '../lib/report.js';
import { syncOpsPerSec } from '../lib/stats.js';

/** Figure 5: calls per second of each compiled validator on a typical valid input (the spec tests' first case). */
export async function validationFigures(quick: boolean): Promise<Figure[]> {
  const cases = [...workspaceBuild, ...calendarBuild, ...crmBuild, ...sheetsBuild, ...docsBuild];
  let slowest = { tool: '', ops: Number.POSITIVE_INFINITY };
  let measured = 0;
  for (const tool of tools) {
    const c = cases.find((x) => x.tool === tool.name);
    if (!c) continue;
    const result = tool.validate(c.input);
    if (!result.ok) throw new Error(`the typical input of ${tool.name} does not validate`);
    const ops = syncOpsPerSec(() => tool.validate(c.input), quick ? 20 : 100);
    measured++;
    if (ops < slowest.ops) slowest = { tool: tool.name, ops };
  }
  return [figure('validation_ops_per_sec_min', Math.round(slowest.ops), { op: '>=', target: 1_000_000 }, `slowest: ${slowest.tool}; ${measured} of ${tools.length} tools measured`)];
}
