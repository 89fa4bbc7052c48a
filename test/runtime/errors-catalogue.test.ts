/**
 * The error catalogue, its page in docs/ and the OpenAPI document must say the same thing: same codes, same
 * statuses, same sides. A code added to one and not the others fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorSide, type ErrorSide } from '../../runtime/errors.js';
import { refusedClientMessage } from '../../runtime/oauth/refresh-refusal.js';
import { serviceErrorFrom } from '../../runtime/client/errors.js';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/errors.md', root), 'utf8');
const openapi = JSON.parse(readFileSync(new URL('generated/openapi.json', root), 'utf8')) as {
  components: { schemas: Record<string, any> };
};

/** Rows of the page's table: `| \`code\` | status | side | ...`. */
const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| ([^|]+) \|/gm)];
const documented = new Map(rows.map((m) => [m[1] as string, Number(m[2])]));
const documentedSides = new Map(rows.map((m) => [m[1] as string, (m[3] as string).trim()]));

/** A code's side as the page and the OpenAPI document say it: `provider, or request for a provider 4xx`. */
function sideText(entry: { side: ErrorSide; upstream4xxSide?: ErrorSide; refusedClientSide?: ErrorSide }): string {
  const for4xx = entry.upstream4xxSide === undefined ? '' : `, or ${entry.upstream4xxSide} for a provider 4xx`;
  return `${entry.side}${for4xx}${entry.refusedClientSide === undefined ? '' : `, or ${entry.refusedClientSide} for a refused OAuth client`}`;
}
const entries: [string, { status: number; side: ErrorSide; upstream4xxSide?: ErrorSide; refusedClientSide?: ErrorSide }][] = Object.entries(ERROR_CATALOGUE);

describe('error catalogue', () => {
  it('docs/errors.md lists every code with its status, and nothing else', () => {
    const catalogue = new Map(Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]));
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(catalogue));
  });

  it('docs/errors.md gives every code the side the catalogue gives it', () => {
    expect(Object.fromEntries(documentedSides)).toEqual(Object.fromEntries(entries.map(([code, e]) => [code, sideText(e)])));
  });

  it('an upstream_error is the provider\'s for a 5xx or no answer and the request\'s for a 4xx; other codes keep their side whatever the provider answered', () => {
    expect([errorSide('upstream_error', 500), errorSide('upstream_error', null), errorSide('upstream_error', 404), errorSide('upstream_error', 422)]).toEqual(['provider', 'provider', 'request', 'request']);
    expect([errorSide('insufficient_scope', 403), errorSide('reauthorization_required', 401), errorSide('invalid_input', null)]).toEqual(['authorization', 'authorization', 'request']);
  });

  it("a token refresh that refused the application's OAuth client is the authorization's, whatever its status; the flag moves no other code", () => {
    expect([errorSide('upstream_error', 401, true), errorSide('upstream_error', 400, true), errorSide('upstream_error', 401)]).toEqual(['authorization', 'authorization', 'request']);
    expect([errorSide('invalid_input', null, true), errorSide('upstream_timeout', null, true)]).toEqual(['request', 'provider']);
    // Told from the recorded message, as the refresh wrote it; a token endpoint that failed, or an API's 401, is not one.
    expect(refusedClientMessage("The token refresh failed (401 invalid_client). The provider refused the application's OAuth client (its client id or secret), not the user: the application's operator must fix the connection calendar; repeating the call will not help.")).toBe(true);
    expect(refusedClientMessage('The token refresh failed (400 unauthorized_client).')).toBe(true);
    expect(refusedClientMessage('The token refresh failed (503 temporarily_unavailable). The provider\'s token endpoint failed')).toBe(false);
    expect(refusedClientMessage('The upstream API answered 401 to GET /calendar/v3/users/me/calendarList: invalid_client')).toBe(false);
    expect([refusedClientMessage(null), refusedClientMessage('')]).toEqual([false, false]);
  });

  it('the OpenAPI error schema enumerates exactly the catalogue codes', () => {
    const codes = openapi.components.schemas.Error.properties.error.properties.code.enum as string[];
    expect([...codes].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it('the OpenAPI descriptions state the catalogue status and side of every code', () => {
    const text = openapi.components.schemas.Error.properties.error.properties.code.description as string;
    for (const [code, entry] of entries) {
      expect(text).toContain(`\`${code}\` (${entry.status}; side: ${sideText(entry)})`);
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
