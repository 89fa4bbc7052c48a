import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import { GENERATED_HEADER } from '../../codegen/emit/ts-text.js';
import { FIXTURE_SPECS } from './fixture-env.js';

describe('emitted files for the fixture specs', () => {
  it('match the committed snapshots', async () => {
    const { files } = await generate({ specsDir: FIXTURE_SPECS });
    expect(files.map((f) => f.path)).toEqual([
      'ajv.gen.ts', 'builders.gen.ts', 'catalog.json', 'client.gen.ts', 'connectors.gen.ts',
      'docs/calendar.md', 'docs/crm.md', 'docs/workspace.md',
      'openapi-types.gen.ts', 'openapi.json', 'schemas.gen.ts', 'tools.gen.ts', 'types.gen.ts', 'validators.gen.ts',
    ]);
    for (const f of files) {
      // `.snap` suffix: the snapshots are not compiled as part of the project.
      await expect(f.content).toMatchFileSnapshot(`./__snapshots__/fixture/${f.path}.snap`);
    }
  });

  it('are deterministic: two runs give identical bytes, every TypeScript file starts with the header', async () => {
    const a = await generate({ specsDir: FIXTURE_SPECS });
    const b = await generate({ specsDir: FIXTURE_SPECS });
    expect(b.files).toEqual(a.files);
    for (const f of a.files.filter((x) => x.path.endsWith('.ts'))) expect(f.content.startsWith(`${GENERATED_HEADER}\n`)).toBe(true);
    const text = a.files.map((f) => f.content).join('\n');
    expect(text).not.toContain(new Date().toISOString().slice(0, 10)); // no timestamps
    expect(text).not.toMatch(/\brequire\(/);
  });

  it('catalog lists tools sorted by name with JSON Schema 2020-12 inputs', async () => {
    const { files } = await generate({ specsDir: FIXTURE_SPECS });
    const catalog = JSON.parse(files.find((f) => f.path === 'catalog.json')!.content) as { tools: Array<Record<string, any>> };
    expect(catalog.tools.map((t) => t.name)).toEqual(['calendar_create_event', 'calendar_get_event', 'crm_contacts_list', 'workspace_database_query', 'workspace_page_create']);
    const page = catalog.tools.find((t) => t.name === 'workspace_page_create')!;
    expect(Object.keys(page)).toEqual(['name', 'connector', 'title', 'description', 'annotations', 'version', 'aliases', 'input_schema', 'output_schema']);
    expect(page.title).toBe('Create page');
    expect(page.annotations).toEqual({ read_only: false, destructive: false, idempotent: false, open_world: true });
    // A read-only tool is, in MCP's terms, neither destructive nor repeating an effect.
    expect(catalog.tools.find((t) => t.name === 'workspace_database_query')!.annotations).toEqual({ read_only: true, destructive: false, idempotent: true, open_world: true });
    expect(page.output_schema.type).toBe('object');
    expect(page.input_schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(page.input_schema.additionalProperties).toBe(false);
    expect(page.input_schema.properties._parent.readOnly).toBe(true);
    expect(page.input_schema.properties.tool_version.enum).toEqual(['1.1.0', '1.0.0']);
    const crm = catalog.tools.find((t) => t.name === 'crm_contacts_list')!;
    expect(crm.input_schema.properties.tool_version).toBeUndefined(); // versioned: false
  });
});

describe('--check', () => {
  it('passes when up to date and names every changed, missing and extra file', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'codegen-check-')), 'generated');
    try {
      await generate({ specsDir: FIXTURE_SPECS, outDir: out });
      const clean = await generate({ specsDir: FIXTURE_SPECS, outDir: out, check: true });
      expect(clean.drift).toEqual({ missing: [], extra: [], changed: [] });

      writeFileSync(join(out, 'types.gen.ts'), readFileSync(join(out, 'types.gen.ts'), 'utf8') + '// edited\n');
      unlinkSync(join(out, 'docs/crm.md'));
      writeFileSync(join(out, 'stale.gen.ts'), 'export {};\n');
      const drift = await generate({ specsDir: FIXTURE_SPECS, outDir: out, check: true });
      expect(drift.drift).toEqual({ missing: ['docs/crm.md'], extra: ['stale.gen.ts'], changed: ['types.gen.ts'] });

      // A real run repairs everything and removes the stale file.
      await generate({ specsDir: FIXTURE_SPECS, outDir: out });
      expect((await generate({ specsDir: FIXTURE_SPECS, outDir: out, check: true })).drift).toEqual({ missing: [], extra: [], changed: [] });
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });
});
