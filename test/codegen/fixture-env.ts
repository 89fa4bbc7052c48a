/**
 * Helpers for codegen tests: copies of the fixture specs that a test may break, and output directories placed where
 * the generated code's `../runtime/...` imports resolve (beside a symlink to the repository's `runtime/`).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE_SPECS = fileURLToPath(new URL('./fixtures/specs', import.meta.url));

/** A private copy of the fixture specs, with `edit(relativePath, text => text)` to break one file. */
export function specsCopy(): { dir: string; edit(path: string, change: (text: string) => string): void; write(path: string, text: string): void; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'codegen-specs-'));
  cpSync(FIXTURE_SPECS, dir, { recursive: true });
  return {
    dir,
    edit(path, change) {
      const file = join(dir, path);
      writeFileSync(file, change(readFileSync(file, 'utf8')));
    },
    write(path, text) {
      writeFileSync(join(dir, path), text);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `<tmp>/codegen-<name>-XXXX/generated`, next to a `runtime` and a `node_modules` symlink to this repository's, so the emitted
 * `../runtime/...` imports resolve while nothing is written inside the checkout (an interrupted run leaves its
 * directory under the OS temp dir, not an untracked sibling of `generated/`).
 */
export function linkedOutDir(name: string): { outDir: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), `codegen-${name}-`));
  symlinkSync(join(ROOT, 'runtime'), join(base, 'runtime'), 'dir');
  symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
  return { outDir: join(base, 'generated'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
