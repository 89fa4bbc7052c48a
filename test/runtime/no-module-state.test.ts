/**
 * No module-level mutable bindings in runtime/, codegen/ or sandbox/: state (policies, caches, counters, projects)
 * belongs to an instance or a run, so two connectors, two fake providers or two generate runs in one process share
 * none of it. A top-level `let` or `var` is the tell-tale, and so is a top-level
 * `new Map()` (a cache or an interning table) unless it is typed read-only; read with TypeScript's parser, not a
 * regular expression.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The one module-level Map allowed, with why: the sandbox calendar's memo of `Intl.DateTimeFormat` per IANA zone.
 * It holds immutable formatters keyed by a finite set of names (an unknown zone throws before anything is kept), so
 * nothing behaves differently for what it holds; building one (ICU loads the zone's rules) costs far more than
 * using one, and a recurring event's expansion asks for one per occurrence.
 */
const ALLOWED = new Set(['sandbox/apis/calendar/time.ts: formatters']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function topLevelMutable(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const flags = statement.declarationList.flags;
    if (flags & (ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)) {
      // A `const` Map is state all the same (a cache, an interning table): only a read-only one is a constant.
      for (const d of statement.declarationList.declarations) {
        const made = d.initializer !== undefined && ts.isNewExpression(d.initializer) ? d.initializer.expression.getText(source) : '';
        const readOnly = d.type !== undefined && /^Readonly(Map|Set)\b/.test(d.type.getText(source));
        if ((made === 'Map' || made === 'WeakMap') && !readOnly) found.push(d.name.getText(source));
      }
      continue;
    }
    for (const d of statement.declarationList.declarations) found.push(d.name.getText(source));
  }
  return found;
}

describe('module state', () => {
  it.each(['runtime', 'codegen', 'sandbox'])('%s/ has no top-level let or var, nor an unguarded Map', (dir) => {
    const offending = sourceFiles(join(ROOT, dir)).flatMap((file) =>
      topLevelMutable(file, readFileSync(file, 'utf8'))
        .map((name) => `${relative(ROOT, file)}: ${name}`)
        .filter((found) => !ALLOWED.has(found)),
    );
    expect(offending).toEqual([]);
  });

  it('the check finds one (it would catch a regression)', () => {
    expect(topLevelMutable('x.ts', 'let cache;\nconst fixed = 1;\nfunction f() { let inner = 2; }\nvar old = 3;')).toEqual(['cache', 'old']);
    const maps = 'const seen = new Map<string, number>();\nconst weak = new WeakMap();\nconst TABLE: ReadonlyMap<string, number> = new Map([["a", 1]]);\nfunction g() { const local = new Map(); }';
    expect(topLevelMutable('y.ts', maps)).toEqual(['seen', 'weak']);
  });
});
