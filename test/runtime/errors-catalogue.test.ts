/**
 * The error catalogue, its page in docs/ and the OpenAPI document must say the same thing: same codes, same
 * statuses. A code added to one and not the others fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../runtime/errors.js';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/errors.md', root), 'utf8');
const openapi = JSON.parse(readFileSync(new URL('generated/openapi.json', root), 'utf8')) as {
  components: { schemas: Record<string, any> };
};

/** Rows of the page's table: `| \`code\` | status | ...`. */
const documented = new Map(
  [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1] as string, Number(m[2])]),
);

describe('error catalogue', () => {
  it('docs/errors.md lists every code with its status, and nothing else', () => {
    const catalogue = new Map(Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]));
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(catalogue));
  });

  it('the OpenAPI error schema enumerates exactly the catalogue codes', () => {
    const codes = openapi.components.schemas.Error.properties.error.properties.code.enum as string[];
    expect([...codes].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('the OpenAPI descriptions state the catalogue status of every code', () => {
    const text = openapi.components.schemas.Error.properties.error.properties.code.description as string;
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      expect(text).toContain(`\`${code}\` (${status})`);
    }
  });
});
