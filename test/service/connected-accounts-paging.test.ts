/**
 * `GET /api/v1/connected_accounts` a page at a time: the first page, following `next_cursor` to the end without a
 * duplicate or a gap (accounts of one instant included), filters kept across pages, and a bad `limit` or `cursor`
 * refused with the parameter named. Every answer is checked against the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccountListFilter } from '../../runtime/api.js';
import { startHarness, type Harness } from './harness.js';
import { pagedList, refusedPageQueries } from './paged-list.js';

let h: Harness;
let token: string;
/** Accounts of environment A created in one frozen instant, so only their ids order them. */
const TIED = 30;
const INSTANT = new Date('2020-05-01T08:00:00.000Z');

const paged = pagedList(() => h, '/api/v1/connected_accounts', 'connected_accounts');
const list = (query: string, as = token) => paged.list(query, as);
/** Follows `next_cursor` from the first page to the last: the ids of each page. */
const walk = (query: Record<string, string>, as = token) => paged.walk(query, as);

/** The same filter's whole list, in process: the order the pages must follow. */
async function whole(filter: AccountListFilter = {}, environmentId = h.a.environmentId): Promise<string[]> {
  return (await h.connector.environment(environmentId).listAccounts(filter)).map((a) => a.id);
}

beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
  const cal = await h.sandboxConnection(h.a, 'calendar', 'cal');
  const crm = await h.sandboxConnection(h.a, 'crm', 'crm');
  const store = h.connector.store;
  const env = h.a.environmentId;
  // 30 accounts in one instant (only Date is frozen: the service's own timers run), then 30 more as they come.
  vi.useFakeTimers({ toFake: ['Date'], now: INSTANT });
  try {
    for (let i = 0; i < TIED; i++) await store.ensureAccount(env, cal.id, `tied-${i}`);
  } finally {
    vi.useRealTimers();
  }
  for (let i = 0; i < 25; i++) await store.ensureAccount(env, cal.id, `user-${i}`);
  for (let i = 0; i < 5; i++) await store.ensureAccount(env, crm.id, `user-${i}`);
  // Some ACTIVE ones among the tied and the later, for the status filter.
  for (const identifier of ['tied-3', 'tied-4', 'tied-17', 'user-2', 'user-20']) {
    const account = await store.findAccount(env, cal.id, identifier);
    await store.setAccountStatus(account!.id, 'ACTIVE');
  }
  await store.ensureAccount(h.b.environmentId, (await h.sandboxConnection(h.b, 'calendar', 'cal')).id, 'b-user');
});
afterAll(async () => h?.close());

describe('GET /api/v1/connected_accounts paging', () => {
  it('answers the first 50 (the default) oldest first, with a next_cursor', async () => {
    const all = await whole();
    expect(all).toHaveLength(TIED + 30);
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body.connected_accounts.map((a: { id: string }) => a.id)).toEqual(all.slice(0, 50));
    expect(first.body.connected_accounts.slice(0, TIED).every((a: { created_at: string }) => a.created_at === INSTANT.toISOString())).toBe(true);
    expect(typeof first.body.next_cursor).toBe('string');
    expect(JSON.stringify(first.body)).not.toMatch(/access_token|refresh_token/);
    // The largest page holds them all, and says it is the last.
    const max = await list('?limit=200');
    expect(max.body.connected_accounts).toHaveLength(all.length);
    expect(max.body.next_cursor).toBeNull();
  });

  it('follows next_cursor to the end: every account once, in order, pages crossing the accounts of one instant', async () => {
    await paged.expectWalksAll(await whole(), [1, 7, 29, 30, 31, 59, 60], token);
  });

  it('keeps the filters across pages', async () => {
    const cases: [Record<string, string>, AccountListFilter, number][] = [
      [{ connection_name: 'cal' }, { connection_name: 'cal' }, TIED + 25],
      [{ connection_name: 'crm' }, { connection_name: 'crm' }, 5],
      [{ status: 'ACTIVE' }, { status: 'ACTIVE' }, 5],
      [{ connection_name: 'cal', status: 'PENDING_AUTH' }, { connection_name: 'cal', status: 'PENDING_AUTH' }, TIED + 25 - 5],
      [{ identifier: 'user-2' }, { identifier: 'user-2' }, 2],
      [{ identifier: 'user-2', connection_name: 'crm' }, { identifier: 'user-2', connection_name: 'crm' }, 1],
    ];
    for (const [query, filter, count] of cases) {
      const pages = await walk({ ...query, limit: '2' });
      expect(pages.flat(), JSON.stringify(query)).toEqual(await whole(filter));
      expect(pages.flat()).toHaveLength(count);
    }
    const none = await list('?connection_name=nope&limit=2');
    expect(none.body).toEqual({ connected_accounts: [], next_cursor: null });
  });

  it('takes a cursor back only with the filters of the page that returned it, at any limit', async () => {
    await paged.expectCursorBoundToFilters({ status: 'ACTIVE' }, [
      [{}, 'status'],
      [{ status: 'PENDING_AUTH' }, 'status'],
      [{ status: 'ACTIVE', identifier: 'user-2' }, 'identifier'],
      [{ connection_name: 'cal' }, 'connection_name, status'],
    ], token);
    await paged.expectCursorBoundToFilters({ identifier: 'user-2' }, [[{ identifier: 'user-20' }, 'identifier']], token);
    await paged.expectCursorBoundToFilters({ connection_name: 'cal' }, [
      [{ connection_name: 'crm' }, 'connection_name'],
      [{ connection_name: 'cal', identifier: 'user-2' }, 'identifier'],
    ], token);
    // A page with no filter gives a cursor that holds with none only.
    await paged.expectCursorBoundToFilters({}, [[{ identifier: 'user-2' }, 'identifier']], token);
  });

  it('puts an account created between pages on a later page, shifting none', async () => {
    const before = await whole();
    const first = await list('?limit=40');
    const late = await h.connector.store.ensureAccount(h.a.environmentId, (await h.connector.environment(h.a.environmentId).getConnection('cal')).id, 'late-user');
    try {
      const rest = await walk({ limit: '40', cursor: first.body.next_cursor });
      expect([...first.body.connected_accounts.map((a: { id: string }) => a.id), ...rest.flat()]).toEqual([...before, late.id]);
    } finally {
      await h.connector.store.deleteAccount(h.a.environmentId, late.id);
    }
  });

  it('keeps environments apart: another environment lists only its own, whatever the cursor', async () => {
    const tokenB = await h.token(h.b);
    const own = await whole({}, h.b.environmentId);
    expect(own).toHaveLength(1);
    expect((await walk({ limit: '1' }, tokenB)).flat()).toEqual(own);
    const cursorOfA = (await list('?limit=1')).body.next_cursor as string;
    const res = await list(`?cursor=${cursorOfA}`, tokenB);
    expect(res.status).toBe(200);
    expect(res.body.connected_accounts.every((a: { id: string }) => own.includes(a.id))).toBe(true);
  });

  it.each([
    // An execution history cursor is well formed, but not this list's.
    ...refusedPageQueries('ca_aaaaaaaaaaaaaaaaaaaaaaaaaa', ['0196a1b2-0000-7000-8000-000000000000']),
    // Refused even when the filter matches nothing.
    ['connection_name=nope&cursor=forged', '/cursor'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, pointer) => {
    await paged.expectRefused(query, pointer, token);
  });
});
