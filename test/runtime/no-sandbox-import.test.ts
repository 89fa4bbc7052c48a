/**
 * The production runtime never imports the sandbox (a development and test aid): not a value, not a type, not a
 * dynamic import. Every module specifier under runtime/ is read with TypeScript's own pre-processor and resolved.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

describe('runtime/ and the sandbox', () => {
  it('no module under runtime/ imports from sandbox/ (or the package\'s sandbox entry)', () => {
    const files = sourceFiles(join(ROOT, 'runtime'));
    expect(files.length).toBeGreaterThan(50);
    const offending: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(file)) {
        const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : spec;
        if (target === 'sandbox' || target.startsWith(`sandbox${sep}`) || target.startsWith('agent-connector/sandbox')) offending.push(`${relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('the scan sees every kind of import (it would catch one)', () => {
    const sample = `import type { A } from '../sandbox/types.js';\nexport { b } from '../../sandbox/x.js';\nconst c = await import('../sandbox/y.js');`;
    expect(ts.preProcessFile(sample, true, true).importedFiles.map((f) => f.fileName)).toEqual(['../sandbox/types.js', '../../sandbox/x.js', '../sandbox/y.js']);
  });
});
