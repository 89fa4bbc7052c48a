/**
 * The README and the docs say what the code has: the README's tool table has a row per connector of the specs, the route
 * tables of docs/ name exactly the operations of the OpenAPI document, and every relative link in the README and
 * docs/ points at a file that exists (and a heading that exists, for `#anchors`).
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
  it('has a row per connector the specs generate tools for, linking its generated reference (no count to keep by hand)', () => {
    const rows = [...read('README.md').matchAll(/^\| `([a-z]+)` \| [^|]+ \| \[([^\]]+)\]\(([^)]+)\) \|$/gm)].map((m) => [m[1], m[3]]);
    const connectors = [...new Set((tools as readonly ToolDefinition[]).map((t) => t.connector))].sort();
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(connectors.map((c) => [c, `generated/docs/${c}.md`])));
  });
});

/**
 * The routes a Markdown table names in its first cell, as `METHOD /path`: a cell such as `` `GET`, `POST /a` `` names
 * both methods of `/a`; a query string (`?limit=&cursor=`) is not part of the path; a path without a method
 * (`/dashboard`) and any other code span are not routes.
 */
function tableRoutes(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const end = line.indexOf(' | ', 2);
    let methods: string[] = [];
    for (const m of line.slice(2, end === -1 ? undefined : end).matchAll(/`([^`]+)`/g)) {
      const span = m[1] as string;
      if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(span)) {
        methods.push(span);
        continue;
      }
      const route = /^(GET|POST|PUT|PATCH|DELETE) (\/[^\s?]*)/.exec(span);
      if (route) for (const method of [...methods, route[1] as string]) out.add(`${method} ${route[2]}`);
      methods = [];
    }
  }
  return out;
}

describe('the route tables of docs/', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const documented = new Set(docs.flatMap((file) => [...tableRoutes(read(file))]));
  /** Every operation of the OpenAPI document; the per-tool execute paths are the one route the manual names. */
  const operations = new Set(
    Object.entries(JSON.parse(read('generated/openapi.json')).paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1\/tools\/[a-z0-9_]+\/execute$/, '/api/v1/tools/{tool_name}/execute')}`),
    ),
  );
  /** Routes the docs name that the OpenAPI document does not describe, by design: the MCP endpoint speaks MCP. */
  const notOpenApi = ['POST /mcp'];

  it('name every operation of the OpenAPI document, with its parameter names', () => {
    expect([...operations].filter((op) => !documented.has(op))).toEqual([]);
  });

  it('name no route the OpenAPI document lacks (a removed or renamed route leaves no row behind)', () => {
    expect([...documented].filter((route) => !operations.has(route) && !notOpenApi.includes(route))).toEqual([]);
  });

  it('are read as a reader reads them', () => {
    const table = [
      '| Route | What |',
      '| `GET`, `POST /api/v1/a` | list, create |',
      '| `GET /api/v1/a/{id}?x=&y=`, `DELETE /api/v1/a/{id}` | read, delete; see `GET /not/a/route` |',
      '| `/dashboard` | no method, no route |',
      '| `AGENT_CONNECTOR_X` | not a route |',
    ].join('\n');
    expect([...tableRoutes(table)].sort()).toEqual(['DELETE /api/v1/a/{id}', 'GET /api/v1/a', 'GET /api/v1/a/{id}', 'POST /api/v1/a']);
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
