import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
});
afterAll(async () => h?.close());

/** The document says path ids are at most 200 characters; the service, not the router, says so. */
describe('long path ids', () => {
  it('answers a 150-character id from the route (not found), not the router\'s 414', async () => {
    const res = await h.call('GET', `/api/v1/connections/${'c'.repeat(150)}`, { token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('connection_not_found');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('refuses a 250-character id with invalid_request and a pointer to the parameter', async () => {
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${'a'.repeat(250)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/id', keyword: 'maxLength' })]);
    const conn = await h.call('GET', `/api/v1/connections/${'c'.repeat(250)}`, { token });
    expect(conn.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/id_or_name', keyword: 'maxLength' })]);
  });

  it('answers a parameter past the router\'s cap in the service\'s error body too', async () => {
    const res = await h.call('GET', `/api/v1/connections/${'c'.repeat(1100)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});
