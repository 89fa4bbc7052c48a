/**
 * The generated connector reference lists what a tool returns: one row per output field, named by its path through
 * arrays (`results[].id`) and maps (`properties.<key>.type`), a field shared by oneOf branches once with the types of
 * all, and an empty answer (`properties: {}`) said as such.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import { specsCopy } from './fixture-env.js';

const PAGE = 'tools/workspace/workspace_page_create.yaml';

/** The `| field | type | description |` rows of the tool's "Returns" table. */
function outputRows(doc: string, tool: string): string[][] {
  const section = doc.slice(doc.indexOf(`## \`${tool}\``));
  const table = section.slice(section.indexOf('| Field | Type | Description |'));
  return table
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, -2).split(' | ').map((c) => c.trim()));
}

describe('the reference lists each output field', () => {
  const copies: Array<{ cleanup(): void }> = [];
  afterEach(() => copies.splice(0).forEach((c) => c.cleanup()));

  it('through arrays, maps and oneOf branches, with types and descriptions', async () => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(PAGE, (t) =>
      t.replace(
        /^output:\n(  .*\n)+/m,
        [
          'output:',
          '  type: object',
          '  properties:',
          '    results:',
          '      type: array',
          '      description: The rows.',
          '      items:',
          '        oneOf:',
          '          - { type: object, properties: { id: { type: string, description: Row id. }, object: { const: page } } }',
          '          - { type: object, properties: { id: { type: string }, object: { const: database } } }',
          '    properties:',
          '      type: object',
          '      additionalProperties: { type: object, properties: { type: { type: string, description: "Column type: a | b." } } }',
          '    next_cursor: { type: [string, "null"] }',
          '',
        ].join('\n'),
      ),
    );
    const { files } = await generate({ specsDir: specs.dir });
    const doc = files.find((f) => f.path === 'docs/workspace.md')!.content;
    expect(outputRows(doc, 'workspace_page_create')).toEqual([
      ['`results`', 'array', 'The rows.'],
      ['`results[].id`', 'string', 'Row id.'],
      ['`results[].object`', '`"page"` or `"database"`', ''],
      ['`properties`', 'object', ''],
      ['`properties.<key>.type`', 'string', 'Column type: a \\| b.'],
      ['`next_cursor`', 'string or null', ''],
    ]);
  });

  it('says an empty answer is an empty object', async () => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(PAGE, (t) => t.replace(/^output:\n(  .*\n)+/m, 'output: { type: object, properties: {} }\n'));
    const { files } = await generate({ specsDir: specs.dir });
    const doc = files.find((f) => f.path === 'docs/workspace.md')!.content;
    const section = doc.slice(doc.indexOf('## `workspace_page_create`'));
    expect(section).toContain('Returns an empty object (`data` is `{}`).');
    expect(section).not.toContain('| Field | Type | Description |');
  });
});

describe('the reference as Markdown renders it', () => {
  it('writes no `<` that could open an HTML tag outside a code span (a renderer would drop `<id>` in /d/<id>/edit)', () => {
    const dir = join(import.meta.dirname, '../../generated/docs');
    const found: string[] = [];
    for (const file of readdirSync(dir)) {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n').slice(1); // the first line is the generated-file comment
      lines.forEach((line, i) => {
        const prose = line.split(/`[^`]*`/).join(' ');
        if (/<[A-Za-z/!?]/.test(prose)) found.push(`${file}:${i + 2}: ${line.slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
