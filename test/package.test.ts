/**
 * The package as an application consumes it: `npm run build` into a staging copy, `npm pack` (which applies the
 * `files` list), the tarball unpacked into a fresh project's node_modules, then a plain Node ESM script and a `tsc`
 * check importing `agent-connector` by name. Built once for the whole file.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type StartedChild } from './cli/start-child.js';

const exec = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let work: string;
let consumer: string;
let packed: string[];

async function run(cwd: string, file: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [file, ...args], { cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agent-connector-package-'));
  const staged = join(work, 'package');
  mkdirSync(join(staged, 'bin'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'bin/agent-connector.js', 'docs']) cpSync(join(root, file), join(staged, file), { recursive: true });
  await exec(process.execPath, [join(root, 'bin/build.mjs'), '--out-dir', join(staged, 'dist')], { cwd: root, timeout: 120_000 });

  const { stdout } = await exec('npm', ['pack', '--json', '--offline', '--ignore-scripts', '--pack-destination', work], { cwd: staged, timeout: 60_000 });
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  packed = info!.files.map((f) => f.path);

  // A fresh project: the tarball unpacked as node_modules/agent-connector, its dependencies linked from this checkout
  // (the test stays offline; what is checked is the package's own layout, exports and types).
  consumer = join(work, 'consumer');
  const installed = join(consumer, 'node_modules', 'agent-connector');
  mkdirSync(installed, { recursive: true });
  await exec('tar', ['-xzf', join(work, info!.filename), '-C', installed, '--strip-components=1']);
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'agent-connector') continue;
    symlinkSync(join(root, 'node_modules', entry), join(consumer, 'node_modules', entry));
  }
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the agent-connector package', () => {
  it('ships compiled JavaScript, declarations and the run-time assets, and no TypeScript sources or tests', () => {
    expect(packed).toContain('dist/runtime/index.js');
    expect(packed).toContain('dist/runtime/index.d.ts');
    expect(packed).toContain('dist/generated/ajv.gen.js');
    expect(packed).toContain('dist/generated/openapi.json');
    expect(packed).toContain('dist/runtime/service/views/layout.hbs');
    expect(packed).toContain('bin/agent-connector.js');
    expect(packed.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(packed.filter((p) => /^(test|bench|codegen|specs)\//.test(p))).toEqual([]);
  });

  it('imports by name from a plain Node ESM script, runs in-process, and keeps internals private', async () => {
    writeFileSync(
      join(consumer, 'main.mjs'),
      `import { createClient, createConnector, createToolClient, ConnectorError, ERROR_CATALOGUE } from 'agent-connector';
import { startSandbox } from 'agent-connector/sandbox';
import { randomBytes } from 'node:crypto';
const sandbox = await startSandbox();
const connector = await createConnector({ baseUrl: 'http://127.0.0.1:1', dataDir: process.argv[2], encryptionKeys: 'k1:' + randomBytes(32).toString('base64') });
const tools = createToolClient(connector.environment('env_consumer'));
const client = createClient({ envUrl: 'http://127.0.0.1:1', clientId: 'id', clientSecret: 'secret' });
let deepImport;
try { await import('agent-connector/dist/runtime/store/open-store.js'); deepImport = 'allowed'; } catch (e) { deepImport = e.code; }
console.log(JSON.stringify({
  sandboxUrl: sandbox.url,
  toolClient: typeof tools.calendar_list_events,
  httpClient: typeof client.executeTool,
  catalogue: ERROR_CATALOGUE.reauthorization_required.status,
  error: new ConnectorError('internal', 'x') instanceof Error,
  deepImport,
}));
await connector.close();
await sandbox.close();
`,
    );
    const res = await run(consumer, 'main.mjs', [join(work, 'data')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      sandboxUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      toolClient: 'function',
      httpClient: 'function',
      catalogue: 409,
      error: true,
      deepImport: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });

  it('type-checks a TypeScript consumer against the shipped declarations (typed tool inputs included)', async () => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, include: ['check.ts'] }),
    );
    writeFileSync(
      join(consumer, 'check.ts'),
      `import { createClient, createConnector, createToolClient, type Connector, type ExecuteToolResult, type HttpClient, type ToolClient } from 'agent-connector';
import { startSandbox } from 'agent-connector/sandbox';
export async function check(): Promise<void> {
  const connector: Connector = await createConnector({ baseUrl: 'http://127.0.0.1:3000' });
  const client: HttpClient = createClient({ envUrl: 'http://127.0.0.1:3000', clientId: 'id', clientSecret: 'secret' });
  const tools: ToolClient = createToolClient(client);
  const result: ExecuteToolResult = await tools.calendar_list_calendars({ max_results: 5 }, { identifier: 'user-1' });
  // @ts-expect-error max_results is a number: the declarations carry the generated input types, not any
  await tools.calendar_list_calendars({ max_results: 'lots' }, { identifier: 'user-1' });
  const sandbox = await startSandbox();
  void [connector.environment('env'), result.data, sandbox.url];
}
`,
    );
    const res = await run(consumer, tsc, ['-p', 'tsconfig.json']);
    expect(res.stdout + res.stderr).toBe('');
    expect(res.code).toBe(0);
    // A full type check of the package's declarations: on two busy cores it has taken over 30 s.
  }, 120_000);

  it("installs a working agent-connector command that runs the compiled CLI", async () => {
    const bin = join(consumer, 'node_modules', 'agent-connector', 'bin', 'agent-connector.js');
    expect(existsSync(join(consumer, 'node_modules', 'agent-connector', 'runtime'))).toBe(false);
    const res = await run(consumer, bin, ['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: agent-connector');
  });

  it('the installed command starts the compiled service, which answers /healthz and stops on SIGTERM', async () => {
    const bin = join(consumer, 'node_modules', 'agent-connector', 'bin', 'agent-connector.js');
    const dataDir = join(work, 'service-data');
    let started: StartedChild | undefined;
    try {
      started = await startChild(bin, consumer, dataDir);
      expect(await (await fetch(`${started.url}/healthz`)).json()).toEqual({ ok: true });
      // The compiled service, not the sources: the installed package has no runtime/ folder to run through tsx.
      expect(existsSync(join(consumer, 'node_modules', 'agent-connector', 'runtime'))).toBe(false);
      expect(await started.stop()).toBe(0);
    } finally {
      started?.kill();
    }
  }, 60_000);
});
