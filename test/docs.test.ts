/**
 * The README and the docs say what the code has: the README's tool table counts what the specs generate, and every
 * relative link in the README and docs/ points at a file that exists (and a heading that exists, for `#anchors`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../generated/tools.gen.js';
import type { ToolDefinition } from '../runtime/types.js';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#+ (.*)$/gm)) out.add((m[1] as string).toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-'));
  return out;
}

describe('the README', () => {
  it("has a row per connector with the number of tools its specs generate", () => {
    const rows = [...read('README.md').matchAll(/^\| `([a-z]+)` \| [^|]+ \| (\d+) \|$/gm)].map((m) => [m[1], Number(m[2])]);
    const counts = new Map<string, number>();
    for (const t of tools as readonly ToolDefinition[]) counts.set(t.connector, (counts.get(t.connector) ?? 0) + 1);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(counts));
  });
});

describe('links in the README and docs/', () => {
  const files = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  it.each(files)('%s links only to what exists', (file) => {
    const text = read(file);
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1] as string;
      if (/^[a-z]+:/.test(link)) continue;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, target))) {
        broken.push(link);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });
});
