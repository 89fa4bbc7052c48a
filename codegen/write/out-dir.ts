import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EmittedFile } from '../emit/emitted-file.js';

export interface Drift {
  /** Emitted but not on disk. */
  missing: string[];
  /** On disk but no longer emitted. */
  extra: string[];
  /** On disk with other content. */
  changed: string[];
}

export function hasDrift(d: Drift): boolean {
  return d.missing.length + d.extra.length + d.changed.length > 0;
}

/** Every file under `dir`, as forward-slash paths relative to it, sorted. */
export function listFiles(dir: string, prefix = ''): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(dir, prefix));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries.sort()) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

export function compareOutDir(outDir: string, files: readonly EmittedFile[]): Drift {
  const onDisk = new Set(listFiles(outDir));
  const drift: Drift = { missing: [], extra: [], changed: [] };
  for (const f of files) {
    if (!onDisk.has(f.path)) drift.missing.push(f.path);
    else if (readFileSync(join(outDir, f.path), 'utf8') !== f.content) drift.changed.push(f.path);
    onDisk.delete(f.path);
  }
  drift.extra = [...onDisk].sort();
  return drift;
}

/**
 * Replaces `outDir` with exactly `files`: written to a sibling temp directory first, then swapped in with renames,
 * so a failed run never leaves a half-written `generated/` and stale files disappear.
 */
export function writeOutDir(outDir: string, files: readonly EmittedFile[]): void {
  const target = resolve(outDir);
  const tmp = `${target}.tmp-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const f of files) {
    const path = join(tmp, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.content);
  }
  mkdirSync(tmp, { recursive: true });
  let hadOld = false;
  try {
    renameSync(target, old);
    hadOld = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  try {
    renameSync(tmp, target);
  } catch (e) {
    if (hadOld) renameSync(old, target);
    throw e;
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}
