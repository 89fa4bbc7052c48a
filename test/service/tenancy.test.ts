import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let tokenA: string;
let tokenB: string;
let connectionId: string;
let accountId: string;

beforeAll(async () => {
  h = await startHarness();
  tokenA = await h.token(h.a);
  tokenB = await h.token(h.b);
  connectionId = (await h.sandboxConnection(h.a, 'calendar', 'cal')).id;
  ({ accountId } = await connectSandboxUser(h, { connection: 'cal', identifier: 'user-1', user: 'alice@example.com' }));
});
afterAll(async () => h?.close());

describe('tenancy', () => {
  it("shows environment A's resources to A", async () => {
    expect((await h.call('GET', `/api/v1/connections/${connectionId}`, { token: tokenA })).status).toBe(200);
    const account = await h.call('GET', `/api/v1/connected_accounts/${accountId}`, { token: tokenA });
    expect(account.body.status).toBe('ACTIVE');
  });

  it('lists nothing of A to B', async () => {
    expect((await h.call('GET', '/api/v1/connections', { token: tokenB })).body).toEqual({ connections: [] });
    expect((await h.call('GET', '/api/v1/connected_accounts', { token: tokenB })).body).toEqual({ connected_accounts: [], next_cursor: null });
  });

  it.each([
    ['GET', (): string => `/api/v1/connections/${connectionId}`, undefined, 'connection_not_found'],
    ['GET', (): string => '/api/v1/connections/cal', undefined, 'connection_not_found'],
    ['PATCH', (): string => `/api/v1/connections/${connectionId}`, { client_id: 'stolen' }, 'connection_not_found'],
    ['DELETE', (): string => '/api/v1/connections/cal', undefined, 'connection_not_found'],
    ['GET', (): string => `/api/v1/connected_accounts/${accountId}`, undefined, 'account_not_found'],
    ['DELETE', (): string => `/api/v1/connected_accounts/${accountId}`, undefined, 'account_not_found'],
    ['POST', (): string => '/api/v1/connected_accounts/magic_link', { connection_name: 'cal', identifier: 'user-1' }, 'connection_not_found'],
    ['POST', (): string => '/api/v1/proxy', { connection_name: 'cal', identifier: 'user-1', method: 'GET', path: '/calendar/v3/users/me/calendarList' }, 'connection_not_found'],
  ] as const)('answers 404 (not 403) to B for %s %s', async (method, path, body, code) => {
    const res = await h.call(method, path(), { token: tokenB, ...(body ? { body } : {}) });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(code);
  });

  it('leaves A untouched after B tried', async () => {
    const conn = await h.call('GET', `/api/v1/connections/${connectionId}`, { token: tokenA });
    expect(conn.body.client_id).not.toBe('stolen');
    expect((await h.call('GET', `/api/v1/connected_accounts/${accountId}`, { token: tokenA })).body.status).toBe('ACTIVE');
  });

  it('lets B reuse the name A uses', async () => {
    const mine = await h.sandboxConnection(h.b, 'calendar', 'cal');
    expect(mine.id).not.toBe(connectionId);
  });
});
