import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, specsCopy } from './fixture-env.js';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, join(ROOT, 'codegen/cli.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('npm run generate (codegen/cli.ts)', () => {
  const specs = specsCopy();
  const outBase = mkdtempSync(join(tmpdir(), 'codegen-cli-'));
  const out = join(outBase, 'generated');
  afterAll(() => {
    specs.cleanup();
    rmSync(outBase, { recursive: true, force: true });
  });

  it('writes, then --check passes, then --check names a drifted file and exits 1', async () => {
    const write = await cli('--specs', specs.dir, '--out', out);
    expect(write.code, write.stderr).toBe(0);
    expect(write.stdout).toMatch(/wrote \d+ files for 5 tools/);
    expect((await cli('--check', '--specs', specs.dir, '--out', out)).code).toBe(0);
    writeFileSync(join(out, 'catalog.json'), '{}\n');
    const drift = await cli('--check', '--specs', specs.dir, '--out', out);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('differs: catalog.json');
  }, 60_000);

  it('a broken spec prints file:line:column and exits 1', async () => {
    specs.edit('tools/crm/crm_contacts_list.yaml', (t) => t.replace('$call: splitList', '$call: splitLines'));
    const result = await cli('--specs', specs.dir, '--out', join(outBase, 'never'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/crm_contacts_list\.yaml:29:26 unknown helper 'splitLines' in request\.query\.properties/);
    expect(result.stderr).toContain('nothing written');
  }, 60_000);
});
