/**
 * `GET /api/v1/webhook_deliveries` a page at a time, on the rule of every cursor-paged list: the first page, following
 * `next_cursor` to the end without a duplicate or a gap (deliveries of one instant included: one event's deliveries to
 * several endpoints always share theirs), filters kept across pages, a delivery written between pages, tenancy, and a
 * bad `limit` or `cursor` refused with the parameter named. Every answer is checked against the OpenAPI document. The
 * dispatcher is off: no delivery is attempted, so none leaves this machine.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../runtime/client/index.js';
import type { WebhookDeliveryRecord } from '../../runtime/store/types.js';
import { startHarness, type Harness } from './harness.js';
import { pagedList, refusedPageQueries } from './paged-list.js';

let h: Harness;
let token: string;
let accountId: string;
const endpoints: string[] = [];
/** Events of environment A written in one frozen instant: their deliveries (one per endpoint) have only ids to order them. */
const TIED_EVENTS = 10;
const LATER_EVENTS = 10;
const ENDPOINTS = 3;
const TOTAL = (TIED_EVENTS + LATER_EVENTS) * ENDPOINTS;
const INSTANT = new Date('2020-05-01T08:00:00.000Z');

const paged = pagedList(() => h, '/api/v1/webhook_deliveries', 'webhook_deliveries');
const list = (query: string, as = token) => paged.list(query, as);
/** Follows `next_cursor` from the first page to the last: the ids of each page. */
const walk = (query: Record<string, string>, as = token) => paged.walk(query, as);

/**
 * The order the pages must follow, worked out here rather than by the store: newest first, `created_at` then id
 * (SQLite compares text by its bytes, as `<` does here).
 */
async function whole(keep: (d: WebhookDeliveryRecord) => boolean = () => true, environmentId = h.a.environmentId): Promise<string[]> {
  const rows = (await h.connector.store.listWebhookDeliveries(environmentId, { limit: 10_000 })).filter(keep);
  const desc = (x: string, y: string) => (x < y ? 1 : x > y ? -1 : 0);
  return rows.sort((x, y) => desc(x.createdAt, y.createdAt) || desc(x.id, y.id)).map((d) => d.id);
}

async function appendEvents(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await h.connector.store.appendAccountEvent(accountId, { type: 'account.scope_insufficient', details: { tool: `t${i}` } });
}

beforeAll(async () => {
  h = await startHarness({ webhooks: false });
  token = await h.token(h.a);
  for (let i = 0; i < ENDPOINTS; i++) {
    const created = await h.call('POST', '/api/v1/webhook_endpoints', { token, body: { url: `http://127.0.0.1:9/hook-${i}` } });
    expect(created.status).toBe(201);
    endpoints.push(created.body.id);
  }
  const cal = await h.sandboxConnection(h.a, 'calendar', 'cal');
  accountId = (await h.connector.store.ensureAccount(h.a.environmentId, cal.id, 'user-1')).id;
  // 10 events in one instant (only Date is frozen: the service's own timers run), then 10 more as they come.
  vi.useFakeTimers({ toFake: ['Date'], now: INSTANT });
  try {
    await appendEvents(TIED_EVENTS);
  } finally {
    vi.useRealTimers();
  }
  await appendEvents(LATER_EVENTS);
  // Some delivered and some failed, for the status filter: claimed and recorded as the dispatcher would.
  const claimed = await h.connector.store.claimWebhookDeliveries({ owner: 'test', now: new Date(Date.now() + 1000).toISOString(), leaseMs: 60_000, limit: 12 });
  for (const [i, c] of claimed.entries()) {
    const next = i % 3 === 0 ? { status: 'failed' as const } : i % 3 === 1 ? { status: 'delivered' as const } : { status: 'pending' as const, nextAttemptAt: new Date(Date.now() + 60_000).toISOString() };
    await h.connector.store.recordWebhookAttempt(c.delivery.id, 'test', { attemptedAt: new Date().toISOString(), statusCode: 500, durationMs: 3, error: 'HTTP 500', next });
  }
  // Environment B has one delivery of its own.
  const tokenB = await h.token(h.b);
  expect((await h.call('POST', '/api/v1/webhook_endpoints', { token: tokenB, body: { url: 'http://127.0.0.1:9/hook-b' } })).status).toBe(201);
  const calB = await h.sandboxConnection(h.b, 'calendar', 'cal');
  const accountB = await h.connector.store.ensureAccount(h.b.environmentId, calB.id, 'b-user');
  await h.connector.store.appendAccountEvent(accountB.id, { type: 'account.expired' });
});
afterAll(async () => h?.close());

describe('GET /api/v1/webhook_deliveries paging', () => {
  it('answers the newest 50 (the default), with a next_cursor', async () => {
    const all = await whole();
    expect(all).toHaveLength(TOTAL);
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body.webhook_deliveries.map((d: { id: string }) => d.id)).toEqual(all.slice(0, 50));
    expect(typeof first.body.next_cursor).toBe('string');
    // The largest page holds them all, the oldest 30 of one instant, and says it is the last.
    const max = await list('?limit=200');
    expect(max.body.webhook_deliveries.map((d: { id: string }) => d.id)).toEqual(all);
    expect(max.body.webhook_deliveries.slice(-TIED_EVENTS * ENDPOINTS).every((d: { created_at: string }) => d.created_at === INSTANT.toISOString())).toBe(true);
    expect(max.body.next_cursor).toBeNull();
  });

  it('follows next_cursor to the end: every delivery once, in order, pages crossing the deliveries of one instant', async () => {
    await paged.expectWalksAll(await whole(), [1, 7, 29, 30, 31, 59, 60, 61], token);
  });

  it('pages the same through the typed HTTP client and in process', async () => {
    const all = await whole();
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const scope = h.connector.environment(h.a.environmentId);
    for (const api of [client, scope]) {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 20; n++) {
        const page = await api.listWebhookDeliveries({ limit: 13, ...(cursor === undefined ? {} : { cursor }) });
        ids.push(...page.webhook_deliveries.map((d) => d.id));
        cursor = page.next_cursor ?? undefined;
        if (cursor === undefined) break;
      }
      expect(ids).toEqual(all);
    }
    // In process the page size is clamped into 1 to 200 rather than refused; a bad cursor is refused as over HTTP.
    expect((await scope.listWebhookDeliveries({ limit: 0 })).webhook_deliveries).toHaveLength(1);
    await expect(scope.listWebhookDeliveries({ cursor: 'forged' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('keeps the filters across pages', async () => {
    const counts = { pending: 0, delivered: 0, failed: 0 };
    for (const d of await h.connector.store.listWebhookDeliveries(h.a.environmentId, { limit: 10_000 })) counts[d.status]++;
    expect(counts.delivered).toBeGreaterThan(0);
    expect(counts.failed).toBeGreaterThan(0);
    const cases: [Record<string, string>, (d: WebhookDeliveryRecord) => boolean][] = [
      [{ endpoint_id: endpoints[0]! }, (d) => d.endpointId === endpoints[0]],
      [{ status: 'pending' }, (d) => d.status === 'pending'],
      [{ status: 'delivered' }, (d) => d.status === 'delivered'],
      [{ status: 'failed' }, (d) => d.status === 'failed'],
      [{ endpoint_id: endpoints[1]!, status: 'pending' }, (d) => d.endpointId === endpoints[1] && d.status === 'pending'],
    ];
    for (const [query, keep] of cases) {
      const expected = await whole(keep);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect((await walk({ ...query, limit: '3' })).flat(), JSON.stringify(query)).toEqual(expected);
    }
    const none = await list('?endpoint_id=whep_nope&limit=2');
    expect(none.body).toEqual({ webhook_deliveries: [], next_cursor: null });
  });

  it('takes a cursor back only with the filters of the page that returned it, at any limit', async () => {
    await paged.expectCursorBoundToFilters({ status: 'failed' }, [
      [{}, 'status'],
      [{ status: 'delivered' }, 'status'],
      [{ status: 'failed', endpoint_id: endpoints[0]! }, 'endpoint_id'],
    ], token);
    await paged.expectCursorBoundToFilters({ endpoint_id: endpoints[0]! }, [
      [{ endpoint_id: endpoints[1]! }, 'endpoint_id'],
      [{ status: 'pending' }, 'endpoint_id, status'],
    ], token);
    await paged.expectCursorBoundToFilters({}, [[{ endpoint_id: endpoints[2]! }, 'endpoint_id']], token);
  });

  it('keeps a delivery written between pages off the later pages: it is newer than all of them', async () => {
    const before = await whole();
    const first = await list('?limit=25');
    await appendEvents(1);
    const rest = await walk({ limit: '25', cursor: first.body.next_cursor });
    expect([...first.body.webhook_deliveries.map((d: { id: string }) => d.id), ...rest.flat()]).toEqual(before);
    // A new first page starts with it.
    const fresh = await list(`?limit=${ENDPOINTS}`);
    expect(fresh.body.webhook_deliveries.map((d: { id: string }) => d.id)).toEqual((await whole()).slice(0, ENDPOINTS));
    expect(fresh.body.webhook_deliveries.some((d: { id: string }) => before.includes(d.id))).toBe(false);
  });

  it('keeps environments apart: another environment lists only its own, whatever the cursor', async () => {
    const tokenB = await h.token(h.b);
    const own = await whole(() => true, h.b.environmentId);
    expect(own).toHaveLength(1);
    expect((await walk({ limit: '1' }, tokenB)).flat()).toEqual(own);
    const cursorOfA = (await list('?limit=1')).body.next_cursor as string;
    const res = await list(`?cursor=${cursorOfA}`, tokenB);
    expect(res.status).toBe(200);
    expect(res.body.webhook_deliveries.every((d: { id: string }) => own.includes(d.id))).toBe(true);
  });

  it.each([
    // Well formed, but another list's: a connected account's, an execution's.
    ...refusedPageQueries('whdl_aaaaaaaaaaaaaaaaaaaaaaaaaa', ['ca_aaaaaaaaaaaaaaaaaaaaaaaaaa', '0196a1b2-0000-7000-8000-000000000000']),
    // The cursor this route took before it paged by the shared rule: a bare delivery id.
    ['cursor=whdl_aaaaaaaaaaaaaaaaaaaaaaaaaa', '/cursor'],
    // Refused even when the filter matches nothing.
    ['endpoint_id=whep_nope&cursor=forged', '/cursor'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, pointer) => {
    await paged.expectRefused(query, pointer, token);
  });
});
