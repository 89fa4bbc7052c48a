import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Figure {
  name: string;
  value: number | null;
  /** Human goal, e.g. `>= 0.85`; null for figures reported without a goal. */
  goal: string | null;
  /** Whether the value meets the goal; null when there is no goal or no value. */
  met: boolean | null;
  note?: string;
}

export function figure(name: string, value: number | null, goal?: { op: '>=' | '<=' | '=='; target: number }, note?: string): Figure {
  if (!goal) return { name, value, goal: null, met: null, ...(note ? { note } : {}) };
  const met = value === null ? null : goal.op === '>=' ? value >= goal.target : goal.op === '<=' ? value <= goal.target : value === goal.target;
  return { name, value, goal: `${goal.op} ${goal.target}`, met, ...(note ? { note } : {}) };
}

function fmt(v: number | null): string {
  if (v === null) return 'n/a';
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 100 ? v.toLocaleString('en-US', { maximumFractionDigits: 0 }) : v.toFixed(3);
}

export function printTable(figures: readonly Figure[]): void {
  const rows = figures.map((f) => [f.name, fmt(f.value), f.goal ?? '', f.met === null ? '' : f.met ? 'met' : 'MISSED', f.note ?? '']);
  const header = ['figure', 'value', 'goal', '', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function writeResults(figures: readonly Figure[], mode: 'quick' | 'full', file = path.join('bench', 'results', 'latest.json')): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const named: Record<string, number | null> = {};
  for (const f of figures) named[f.name] = f.value;
  const doc = {
    mode,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.type()} ${os.release()}` },
    figures: named,
    details: figures,
  };
  writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
}
