/**
 * The README and the docs say what the code has: the README's tool table has a row per connector of the specs, the route
 * tables of docs/ name exactly the operations of the OpenAPI document and their query parameters, every relative link
 * in the README and docs/ points at a file that exists (and a heading that exists, for `#anchors`), every repository
 * file they name exists, every npm script they name is in package.json, every `AGENT_CONNECTOR_*` or `LOG_*`
 * variable is one the configuration module or a test reads, every tool name is a tool's or an alias, every client
 * method they name (`retryWebhookDelivery`) is one the typed client has or the package exports, no Markdown file
 * they name is outside the repository (the docs stand alone: no DESIGN.md), the manual's fields of `executions show`
 * are the API's execution fields and its log line's are the tracker's, its public surface is the package's exports,
 * the tables that
 * list what a registry holds (helpers, formats, schema keywords, event types, store tables) list exactly that, and the
 * README's code blocks are the code type tests compile.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../generated/tools.gen.js';
import * as publicSurface from '../runtime/index.js';
import { helperRegistry } from '../runtime/helpers/index.js';
import { CONFIG_VARIABLES } from '../runtime/service/config.js';
import { precheckRegistry } from '../runtime/prechecks/index.js';
import { storeMigrations } from '../runtime/store/schema-migrations.js';
import type { ToolDefinition } from '../runtime/types.js';
import { formats } from '../runtime/validation/formats.js';
import { ACCOUNT_EVENT_TYPES } from '../runtime/webhooks/event-types.js';
import { executionLogFields } from '../runtime/executions/execution-tracker.js';
import type { ExecutionRecord } from '../runtime/store/types.js';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#+ (.*)$/gm)) out.add((m[1] as string).toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-'));
  return out;
}

/** The Markdown the checks below read: the README, the store's and every document of docs/. */
const DOCUMENTS = ['README.md', 'runtime/store/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text of every TypeScript file under test/, where the variables only the tests read are read. */
function testSources(): string {
  return (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => read(`test/${f}`))
    .join('\n');
}

describe('the README', () => {
  it('has a row per connector the specs generate tools for, linking its generated reference (no count to keep by hand)', () => {
    const rows = [...read('README.md').matchAll(/^\| `([a-z]+)` \| [^|]+ \| \[([^\]]+)\]\(([^)]+)\) \|$/gm)].map((m) => [m[1], m[3]]);
    const connectors = [...new Set((tools as readonly ToolDefinition[]).map((t) => t.connector))].sort();
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(connectors.map((c) => [c, `generated/docs/${c}.md`])));
  });

  it('has every document of docs/ in its Documentation table, so "where the rest is" leaves none out', () => {
    const section = read('README.md').split('\n## Documentation\n')[1]?.split('\n## ')[0] ?? '';
    const linked = new Set([...section.matchAll(/\]\((docs\/[^)#]+\.md)\)/g)].map((m) => m[1]));
    expect(readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).filter((doc) => !linked.has(doc))).toEqual([]);
  });

  /** The first TypeScript block of the README after `marker`. */
  const readmeBlock = (marker: string) => read('README.md').split(marker)[1]?.split('```ts\n')[1]?.split('```')[0];
  /** The lines of a type test between `// <name>: from here` and `// <name>: to here`. */
  const compiledLines = (file: string, name: string) => read(file).split(`// ${name}: from here\n`)[1]?.split(`// ${name}: to here`)[0];

  it('shows the Vercel AI SDK code that test/agent/ai-sdk-readme.test-d.ts compiles against the SDK\'s types', () => {
    const compiled = compiledLines('test/agent/ai-sdk-readme.test-d.ts', 'README');
    expect(compiled).toBeDefined();
    expect(readmeBlock('\n**Vercel AI SDK**')).toBe(compiled);
  });

  it('shows the application code and the OpenAI and Anthropic SDK code that test/agent/sdk-readme.test-d.ts compiles', () => {
    const application = compiledLines('test/agent/sdk-readme.test-d.ts', 'README application');
    const models = compiledLines('test/agent/sdk-readme.test-d.ts', 'README model SDKs');
    expect(application).toBeDefined();
    expect(models).toBeDefined();
    // The type test imports from the sources, since `agent-connector` resolves to dist/ only after a build.
    expect(readmeBlock('\n## Use it from an application\n')).toBe(`import { createClient } from 'agent-connector';\n\n${application}`);
    expect(readmeBlock('\n**OpenAI SDK** and **Anthropic SDK**')).toBe(models);
  });

  it('names only npm scripts that package.json has, here and in docs/', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = DOCUMENTS.flatMap((file) => [...read(file).matchAll(/\bnpm (?:run ([\w-]+(?::[\w-]+)*)|(start|test)\b)/g)].map((m) => `${file}: ${m[1] ?? m[2]}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((entry) => !scripts.includes(entry.split(': ')[1] as string))).toEqual([]);
  });

  it('names only environment variables of the configuration module or the tests, here and in docs/', () => {
    const known = new Set(CONFIG_VARIABLES.map((v) => v.name));
    const tests = testSources();
    const named = DOCUMENTS.flatMap((file) => [...read(file).matchAll(/\b(AGENT_CONNECTOR_[A-Z0-9_]*[A-Z0-9]|LOG_[A-Z]+)\b/g)].map((m) => [file, m[1] as string] as const));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(([, name]) => !known.has(name) && !tests.includes(`process.env.${name}`) && !tests.includes(`'${name}'`)).map(([file, name]) => `${file}: ${name}`)).toEqual([]);
  });

  it('names only tools and aliases the specs generate, but for the wrong names they show on purpose', () => {
    const toolList = tools as readonly ToolDefinition[];
    const names = new Set(toolList.flatMap((t) => [t.name, ...(t.aliases ?? [])]));
    const parameters = new Set(toolList.flatMap((t) => Object.keys((t.inputSchema as { properties?: object }).properties ?? {})));
    /** Names that look like a tool's and are not one, each where a document shows it. */
    const notTools: Record<string, string> = {
      docs_document_read: "docs/errors.md: an unknown tool's name and the tools the answer suggests",
      calendar_list_event: "docs/mcp.md: a near miss and the tool it names",
      workspace_id: "docs/spec-format.md: a field of Notion's token answer",
    };
    const prefixes = [...new Set(toolList.flatMap((t) => [t.name, ...(t.aliases ?? [])].map((name) => name.split('_')[0] as string)))];
    const pattern = new RegExp(`\\b((?:${prefixes.join('|')})_[a-z0-9_]*[a-z0-9])\\b`, 'g');
    // docs/benchmarks.md names figures (workspace_schema_read_p50_ms), not tools.
    const named = DOCUMENTS.filter((file) => file !== 'docs/benchmarks.md').flatMap((file) => [...read(file).matchAll(pattern)].map((m) => [file, m[1] as string] as const));
    expect(named.some(([, name]) => name === 'calendar_create_event')).toBe(true);
    expect(named.filter(([, name]) => !names.has(name) && !parameters.has(name) && !(name in notTools)).map(([file, name]) => `${file}: ${name}`)).toEqual([]);
  });
});

describe('the client methods the README and docs/ name', () => {
  /** The typed client's methods, own and inherited, as a reader calls them on `createClient(...)`. */
  const client = publicSurface.createClient({ envUrl: 'http://127.0.0.1:1', clientId: 'ac_docs', clientSecret: 'acs_docs' });
  const methods = new Set<string>();
  for (let at: object | null = client; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at) as object | null) {
    for (const name of Object.getOwnPropertyNames(at)) methods.add(name);
  }
  /** Names that look like a client method's and are another library's or a module's of its own, each where named. */
  const notClient: Record<string, string> = {
    createMCPClient: "README.md: the Vercel AI SDK's MCP client (@ai-sdk/mcp)",
    createServiceLogger: "docs/benchmarks.md: the service's logger (runtime/service/logging.ts)",
  };

  /** The code spans of prose (code blocks left out) naming a call: a verb, then a capital (`listExecutions`, `getTool(id)`). */
  const namedMethods = (markdown: string): string[] =>
    [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`((?:create|list|get|update|delete|retry|rotate|revoke|disconnect|execute)[A-Z]\w*)(?:\([^`]*\))?`/g)].map((m) => m[1] as string);

  it('are methods of the typed client or exports of the package (a removed or renamed method leaves no name behind)', () => {
    // runtime/store/README.md names the store's methods (getConnectionByName), not the client's.
    const named = DOCUMENTS.filter((file) => file !== 'runtime/store/README.md').flatMap((file) => namedMethods(read(file)).map((name) => [file, name] as const));
    expect(named.some(([, name]) => name === 'retryWebhookDelivery')).toBe(true);
    expect(named.filter(([, name]) => !methods.has(name) && !(name in publicSurface) && !(name in notClient)).map(([file, name]) => `${file}: ${name}`)).toEqual([]);
  });

  it('are read as a reader reads them', () => {
    const text = ['`listTools` (or `getTool(name)`), `ListToolsQuery`, `get`, `createConnector`', '```', '`listNothing`', '```'].join('\n');
    expect(namedMethods(text)).toEqual(['listTools', 'getTool', 'createConnector']);
  });
});

/**
 * One route a Markdown table names: `METHOD /path`, the query parameters written after it (`?a=&b=`), if any, and the
 * members of the JSON body the row's second cell opens with (`{a, b?}`: `b` optional), when the row names one route
 * that takes a body (a GET's cell opens with its answer).
 */
interface TableRoute {
  route: string;
  query: string[] | null;
  body: string[] | null;
}

/**
 * The routes a Markdown table names in its first cell, as `METHOD /path`: a cell such as `` `GET`, `POST /a` `` names
 * both methods of `/a`; a query string (`?limit=&cursor=`) is not part of the path but says which query parameters the
 * route takes; a path without a method (`/dashboard`) and any other code span are not routes.
 */
function tableRouteEntries(markdown: string): TableRoute[] {
  const out: TableRoute[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const end = line.indexOf(' | ', 2);
    const found: TableRoute[] = [];
    let methods: string[] = [];
    for (const m of line.slice(2, end === -1 ? undefined : end).matchAll(/`([^`]+)`/g)) {
      const span = m[1] as string;
      if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(span)) {
        methods.push(span);
        continue;
      }
      const route = /^(GET|POST|PUT|PATCH|DELETE) (\/[^\s?]*)(\?\S*)?/.exec(span);
      const query = route?.[3] === undefined ? null : [...route[3].matchAll(/[?&]([^=&]+)=/g)].map((q) => q[1] as string);
      if (route) for (const method of [...methods, route[1] as string]) found.push({ route: `${method} ${route[2]}`, query, body: null });
      methods = [];
    }
    const body = end === -1 ? null : /^`\{([^`}]*)\}`/.exec(line.slice(end + 3));
    if (body && found.length === 1 && /^(POST|PUT|PATCH) /.test((found[0] as TableRoute).route)) (found[0] as TableRoute).body = (body[1] as string).split(',').map((member) => member.trim());
    out.push(...found);
  }
  return out;
}

function tableRoutes(markdown: string): Set<string> {
  return new Set(tableRouteEntries(markdown).map((entry) => entry.route));
}

describe('the route tables of docs/', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const entries = docs.flatMap((file) => tableRouteEntries(read(file)));
  const documented = new Set(entries.map((entry) => entry.route));
  type Parameter = { in: string; name: string };
  type Schema = { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
  type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } };
  const document = JSON.parse(read('generated/openapi.json')) as { paths: Record<string, Record<string, Operation> & { parameters?: Parameter[] }> };
  const resolve = (schema: Schema): Schema =>
    schema.$ref === undefined ? schema : resolve(schema.$ref.split('/').slice(1).reduce((at: any, key) => at[key], document) as Schema);
  /**
   * Every operation of the OpenAPI document, with the names of its query parameters; the per-tool execute paths are
   * the one route the manual names.
   */
  const operationList = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => key !== 'parameters')
      .map(([method, op]) => ({
        route: `${method.toUpperCase()} ${path.replace(/^\/api\/v1\/tools\/[a-z0-9_]+\/execute$/, '/api/v1/tools/{tool_name}/execute')}`,
        query: [...(item.parameters ?? []), ...((op as Operation).parameters ?? [])].filter((p) => p.in === 'query').map((p) => p.name),
        body: (op as Operation).requestBody?.content['application/json']?.schema,
      })),
  );
  const operationQueries = new Map(operationList.map((op) => [op.route, op.query]));
  /** The members of each JSON request body, `name?` when optional. */
  const operationBodies = new Map(
    operationList.flatMap((op) => {
      if (op.body === undefined) return [];
      const schema = resolve(op.body);
      return [[op.route, Object.keys(schema.properties ?? {}).map((name) => ((schema.required ?? []).includes(name) ? name : `${name}?`))] as const];
    }),
  );
  const operations = new Set(operationQueries.keys());
  /** Routes the docs name that the OpenAPI document does not describe, by design: the MCP endpoint speaks MCP. */
  const notOpenApi = ['POST /mcp'];

  it('name every operation of the OpenAPI document, with its parameter names', () => {
    expect([...operations].filter((op) => !documented.has(op))).toEqual([]);
  });

  it('name no route the OpenAPI document lacks (a removed or renamed route leaves no row behind)', () => {
    expect([...documented].filter((route) => !operations.has(route) && !notOpenApi.includes(route))).toEqual([]);
  });

  it('write a route\'s query parameters as the document has them, and every query parameter of an operation in some row', () => {
    const wrong = entries
      .filter((entry) => entry.query !== null && operationQueries.has(entry.route))
      .filter((entry) => JSON.stringify(entry.query) !== JSON.stringify(operationQueries.get(entry.route)))
      .map((entry) => `${entry.route}?${entry.query?.join('&')} (the document: ${operationQueries.get(entry.route)?.join(', ')})`);
    expect(wrong).toEqual([]);
    const unwritten = [...operationQueries].filter(([route, query]) => query.length > 0 && !entries.some((entry) => entry.route === route && entry.query !== null));
    expect(unwritten.map(([route, query]) => `${route}?${query.join('=&')}=`)).toEqual([]);
  });

  it('write a JSON body with the members the document gives it, optional ones with `?`', () => {
    const written = entries.filter((entry) => entry.body !== null);
    expect(written.length).toBeGreaterThan(0);
    const wrong = written
      .filter((entry) => JSON.stringify([...(entry.body ?? [])].sort()) !== JSON.stringify([...(operationBodies.get(entry.route) ?? [])].sort()))
      .map((entry) => `${entry.route} {${entry.body?.join(', ')}} (the document: {${operationBodies.get(entry.route)?.join(', ')}})`);
    expect(wrong).toEqual([]);
  });

  it('are read as a reader reads them', () => {
    const table = [
      '| Route | What |',
      '| `GET`, `POST /api/v1/a` | list, create |',
      '| `GET /api/v1/a/{id}?x=&y=`, `DELETE /api/v1/a/{id}` | read, delete; see `GET /not/a/route` |',
      '| `POST /api/v1/b` | `{name, size?}` -> `{id}` |',
      '| `/dashboard` | no method, no route |',
      '| `AGENT_CONNECTOR_X` | not a route |',
    ].join('\n');
    expect([...tableRoutes(table)].sort()).toEqual(['DELETE /api/v1/a/{id}', 'GET /api/v1/a', 'GET /api/v1/a/{id}', 'POST /api/v1/a', 'POST /api/v1/b']);
    expect(tableRouteEntries(table).find((entry) => entry.route === 'POST /api/v1/b')?.body).toEqual(['name', 'size?']);
    expect(tableRouteEntries(table).find((entry) => entry.route === 'GET /api/v1/a/{id}')?.query).toEqual(['x', 'y']);
    expect(tableRouteEntries(table).find((entry) => entry.route === 'GET /api/v1/a')?.query).toBeNull();
  });
});

describe('links in the README and docs/', () => {
  const files = DOCUMENTS;
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

/** Every file and directory of the checkout, as paths from its root (dependencies and build output left out). */
function repositoryPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (['node_modules', '.git', 'dist', '.agent-connector'].includes(entry.name)) continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      out.push(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk('');
  return out;
}

/**
 * The repository paths a Markdown text names in code spans outside code blocks: a path under one of the checkout's
 * top directories (`runtime/http/client.ts`), or a source file named by itself or from a directory below the top
 * (`auth.test.ts`, `executor/lookup-cache.ts`). Placeholders and globs (`<connector>`, `{id}`, `*`, `...`) are not.
 */
function citedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const cited: string[] = [];
  for (const m of prose.matchAll(/`([^`\s]+)`/g)) {
    const span = m[1] as string;
    if (/[<>{}*]|\.\.\./.test(span)) continue;
    if (/^(\.ci|bench|bin|codegen|docs|generated|runtime|sandbox|specs|test)\//.test(span) || /^[\w./-]+\.(ts|mjs|hbs|md)$/.test(span)) cited.push(span.replace(/\/$/, ''));
  }
  return cited;
}

/** Files the docs name that a run writes, not the repository (docs/benchmarks.md: "not committed"). */
const WRITTEN_BY_RUNS = ['bench/results/latest.json'];

describe('files the README and docs/ name', () => {
  const files = DOCUMENTS;
  const paths = repositoryPaths();
  it.each(files)('%s names only files of the repository', (file) => {
    const missing = citedPaths(read(file)).filter((cited) => !WRITTEN_BY_RUNS.includes(cited) && !paths.some((path) => path === cited || path.endsWith(`/${cited}`)));
    expect(missing).toEqual([]);
  });

  it.each(files)('%s names no Markdown file outside the repository, in prose too (the docs stand alone)', (file) => {
    const names = new Set(paths.map((path) => path.split('/').pop() as string));
    const named = [...read(file).replace(/https?:\/\/\S+/g, '').matchAll(/[\w.-]*\w\.md\b/g)].map((m) => m[0]);
    expect(named.filter((name) => !names.has(name))).toEqual([]);
  });

  it('are read as a reader reads them', () => {
    const text = ['See `runtime/http/client.ts`, `auth.test.ts`, `executor/ttl-cache.ts` and `docs/`.', '`sandbox/apis/<connector>/`, `test/specs/*-outputs.test-d.ts`, `/api/v1`, `POST /mcp`', '```', '`not/a/citation.ts`', '```'].join('\n');
    expect(citedPaths(text)).toEqual(['runtime/http/client.ts', 'auth.test.ts', 'executor/ttl-cache.ts', 'docs']);
  });
});

/** The first code span of each row of the Markdown table whose header row starts with `| <header> |`. */
function firstColumn(markdown: string, header: string): string[] {
  const start = markdown.indexOf(`\n| ${header} |`);
  if (start === -1) throw new Error(`no table headed "${header}"`);
  const rows: string[] = [];
  for (const line of markdown.slice(start + 1).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const span = /^\| `([^`]+)`/.exec(line);
    if (span) rows.push(span[1] as string);
  }
  return rows;
}

describe('docs/spec-format.md', () => {
  const text = read('docs/spec-format.md');

  it('lists every helper a mapping may call, with its arity, and no other', () => {
    const documented = firstColumn(text, 'helper').map((call) => {
      const m = /^(\w+)\(([^)]*)\)$/.exec(call);
      return [m?.[1], m?.[2] === '' ? 0 : m?.[2]?.split(',').length];
    });
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(Object.entries(helperRegistry).map(([name, info]) => [name, info.arity])));
  });

  it('lists every pre-check a spec may name, and no other', () => {
    expect(firstColumn(text, 'pre-check').sort()).toEqual(Object.keys(precheckRegistry).sort());
  });

  it('lists every format the validators check, and no other', () => {
    expect(firstColumn(text, 'format').sort()).toEqual(Object.keys(formats).sort());
  });

  // A maintainer writes a tool from this listing: a key the meta-schema takes that it leaves out (sandbox:
  // not_modelled, examples) is found only by reading the schema.
  it("lists every key of a tool spec in the tool's annotated YAML, as the tool meta-schema allows them, and no other", () => {
    const block = text.split('## Tool: `specs/tools/<connector>/<tool_name>.yaml`')[1]?.split('```yaml')[1]?.split('```')[0] ?? '';
    const documented = [...block.matchAll(/^([a-z_]+):/gm)].map((m) => m[1] as string);
    const schema = JSON.parse(read('specs/schema/tool.schema.json')) as { properties: object };
    expect(documented.sort()).toEqual(Object.keys(schema.properties).sort());
  });

  it("lists the JSON Schema keywords a parameter may use as the tool meta-schema allows them", () => {
    const sentence = /Allowed JSON Schema keywords: ([^.]+)\./.exec(text)?.[1] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
    const schema = JSON.parse(read('specs/schema/tool.schema.json')) as { $defs: { schemaKeywords: { properties: object }; schema: { properties: object } } };
    expect(documented.sort()).toEqual([...Object.keys(schema.$defs.schemaKeywords.properties), ...Object.keys(schema.$defs.schema.properties)].sort());
  });
});

describe('docs/webhooks.md', () => {
  it('lists every account event type, and no other', () => {
    expect(firstColumn(read('docs/webhooks.md'), 'Type')).toEqual([...ACCOUNT_EVENT_TYPES]);
  });
});

describe('docs/manual.md', () => {
  it('lists every value the package exports, where it says what the whole public surface is, and no other', () => {
    const sentence = read('docs/manual.md').split('is the whole public surface:')[1]?.split('and the types of the API')[0] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
    expect(documented.sort()).toEqual(Object.keys(publicSurface).sort());
  });

  it("lists the fields `executions show` prints: every field of the API's ExecutionView but the input, and no other", () => {
    const sentence = read('docs/manual.md').split('execution: a table of its fields (')[1]?.split('then its recorded input')[0] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
    const view = (JSON.parse(read('generated/openapi.json')) as { components: { schemas: { ExecutionView: { properties: object } } } }).components.schemas.ExecutionView;
    expect(documented.sort()).toEqual(Object.keys(view.properties).filter((name) => name !== 'input').sort());
  });
});

describe('docs/operations.md', () => {
  it("lists the execution fields a request's log line carries, as the tracker writes them, and no other", () => {
    // A field's values, in parentheses (`kind` (`tool` or `proxy`)), are not fields.
    const sentence = (read('docs/operations.md').split('keeps but the error message and the input:')[1]?.split('. Used as a library')[0] ?? '').replace(/\([^)]*\)/g, '');
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
    expect(documented.sort()).toEqual(Object.keys(executionLogFields({} as ExecutionRecord)).sort());
  });
});

describe('docs/architecture.md', () => {
  it("names every table of the store's migrations, and no other", () => {
    const sentence = /Tables: ([^.]+)\./.exec(read('docs/architecture.md'))?.[1] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
    const column = { text: 'TEXT', integer: 'INTEGER', timestamp: 'TEXT', json: 'TEXT' };
    const created = storeMigrations(column).flatMap((migration) => [...migration.sql.matchAll(/CREATE TABLE (\w+)/g)].map((m) => m[1] as string));
    // The drivers keep their own record of the migrations applied.
    expect(documented.sort()).toEqual([...created, 'schema_migrations'].sort());
  });
});
