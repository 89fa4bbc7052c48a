/**
 * Helpers for codegen tests: copies of the fixture specs that a test may break, and output directories placed where
 * the generated code's `../runtime/...` imports resolve (a direct child of the repository root).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** `<root>/.codegen-test-<name>-<pid>`: a sibling of `generated/`, so the emitted `../runtime/...` imports resolve. */
export function rootOutDir(name: string): { outDir: string; cleanup(): void } {
  const outDir = join(ROOT, `.codegen-test-${name}-${process.pid}`);
  return { outDir, cleanup: () => rmSync(outDir, { recursive: true, force: true }) };
}
