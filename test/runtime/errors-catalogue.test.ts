/**
 * The error catalogue, its page in docs/ and the OpenAPI document must say the same thing: same codes, same
 * statuses. A code added to one and not the others fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../runtime/errors.js';
import { serviceErrorFrom } from '../../runtime/client/errors.js';

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

describe('the typed client', () => {
  it('turns every catalogue code back into the same code and status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      const error = serviceErrorFrom(status, new Headers({ 'x-request-id': 'req_1' }), { error: { code, message: 'm', request_id: 'req_1' } });
      expect([error.code, error.status, error.httpStatus]).toEqual([code, status, status]);
    }
  });

  it('keeps the upstream 4xx of an upstream_error, as the in-process runtime does', () => {
    const body = { error: { code: 'upstream_error', message: 'The upstream API answered 404', details: { status: 404, body: {} }, request_id: 'req_2' } };
    const error = serviceErrorFrom(404, new Headers(), body);
    expect([error.code, error.status, error.requestId]).toEqual(['upstream_error', 404, 'req_2']);
  });
});

describe('the OpenAPI responses', () => {
  const doc = openapi as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { responses: Record<string, { description: string }> } };
  it('document the statuses a tool call can answer: each code\'s own, and the upstream 4xx range', () => {
    const responses = doc.paths['/api/v1/execute_tool']!.post!.responses;
    for (const status of ['400', '403', '404', '409', '4XX', '429', '502', '504']) expect(Object.keys(responses)).toContain(status);
    expect(doc.components.responses.Forbidden!.description).toContain('insufficient_scope');
    expect(doc.components.responses.UpstreamClientError!.description).toContain('upstream_error');
  });
});
