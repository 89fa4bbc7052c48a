import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('a connection name already in use', () => {
  it('is a 409 conflict whose violation points at /name, on create and on rename', async () => {
    const token = await h.token(h.a);
    const body = { name: 'crm-main', connector: 'crm', client_id: 'cid', client_secret: 'conflict-secret-value' };
    expect((await h.call('POST', '/api/v1/connections', { token, body })).status).toBe(201);
    const again = await h.call('POST', '/api/v1/connections', { token, body });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect(again.body.error.details.violations).toEqual([
      { pointer: '/name', keyword: 'unique', message: 'name "crm-main" is already used by another connection in this environment' },
    ]);
    expect(JSON.stringify(again.body)).not.toContain('conflict-secret-value');

    expect((await h.call('POST', '/api/v1/connections', { token, body: { ...body, name: 'crm-other' } })).status).toBe(201);
    const rename = await h.call('PATCH', '/api/v1/connections/crm-other', { token, body: { name: 'crm-main' } });
    expect(rename.status).toBe(409);
    expect(rename.body.error.details.violations[0].pointer).toBe('/name');
  });
});
