import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { TOOL_FORMATS } from '../../runtime/agent/formats/index.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

/** fastify's request-schema refusals read like the tools' own: the field, its JSON pointer and the allowed values. */
describe('request schema violations', () => {
  it('names the allowed values of an enum in the body', async () => {
    const res = await h.call('POST', '/api/v1/connections', { token, body: { name: 'x', connector: 'slack', client_id: 'a', client_secret: 'b' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.violations).toEqual([
      { pointer: '/connector', keyword: 'enum', message: 'connector must be one of: workspace, calendar, crm, sheets, docs' },
    ]);
    expect(res.body.error.message).toBe('The request body is invalid: connector must be one of: workspace, calendar, crm, sheets, docs');
  });

  it('names the allowed values of a query parameter', async () => {
    const res = await h.call('GET', '/api/v1/tools?format=xml', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([{ pointer: '/format', keyword: 'enum', message: `format must be one of: ${TOOL_FORMATS.join(', ')}` }]);
    expect(res.body.error.message).toContain('The request query is invalid');
  });

  it('describes formats, nested fields and unknown keys in the tools\' words, with escaped pointers', async () => {
    const res = await h.call('POST', '/api/v1/connections', {
      token,
      body: { name: 'x', connector: 'crm', client_id: 'a', client_secret: 'b', 'a/b~c': 1, overrides: { tokenUrl: 'not a url', 'x/y': 1 }, allowed_redirect_urls: [3] },
    });
    expect(res.status).toBe(400);
    const violations = res.body.error.details.violations as { pointer: string; message: string; keyword: string }[];
    expect(violations).toEqual(
      expect.arrayContaining([
        { pointer: '/a~1b~0c', keyword: 'additionalProperties', message: "unknown parameter 'a/b~c'" },
        { pointer: '/overrides/x~1y', keyword: 'additionalProperties', message: "unknown key 'x/y' in overrides" },
        { pointer: '/overrides/tokenUrl', keyword: 'format', message: expect.stringMatching(/^overrides\.tokenUrl must be .*URI/i) },
        { pointer: '/allowed_redirect_urls/0', keyword: 'type', message: 'allowed_redirect_urls[0] must be a string' },
      ]),
    );
    expect(violations.map((v) => v.message).join(' ')).not.toMatch(/must match format|is not a known field|allowed values$/);
  });

  it('names a missing field with its pointer, and the whole body when it is not an object', async () => {
    const missing = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { identifier: 'u1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.violations).toEqual([{ pointer: '/connection_name', keyword: 'required', message: 'connection_name is required' }]);
    const notObject = await h.call('POST', '/api/v1/proxy', { token, body: [1] });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.details.violations).toEqual([{ pointer: '', keyword: 'type', message: 'body must be an object' }]);
  });

  it('names a path parameter', async () => {
    const res = await h.call('GET', '/api/v1/connections/', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([{ pointer: '/id_or_name', keyword: 'minLength', message: 'id_or_name must not be empty' }]);
    expect(res.body.error.message).toContain('The request path is invalid');
  });
});
