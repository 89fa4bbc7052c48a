/**
 * Contract, part 4: the account events outbox and webhook deliveries. Events are written in the transaction of the
 * change they report (or not at all), fanned out to the endpoints subscribed at that moment, and claimed for delivery
 * by one store instance at a time.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';
import { keyring1, keyring21, newConnection, tokens } from './fixtures.js';

const WHSEC = (label: string): string => `whsec_${Buffer.from(`${label}-0123456789abcdef0123456789`).toString('base64')}`;

async function setUp(store: Store, env = 'env_a') {
  await store.createEnvironment({ id: env, name: env });
  const connection = await store.createConnection(newConnection(env));
  const account = await store.ensureAccount(env, connection.id, 'user-1');
  return { connection, account };
}

const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

export function eventsContract(ctx: ContractContext): void {
  describe('account events outbox', () => {
    it('writes the event with the state change, with the account as written and a delivery per subscribed endpoint', async () => {
      const { connection, account } = await setUp(ctx.store);
      const all = await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: null, secret: WHSEC('a') });
      const onlyExpired = await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://b.example/hook', events: ['account.expired'], secret: WHSEC('b') });
      const granted = tokens();
      await ctx.store.saveTokens(account.id, granted, { event: { type: 'account.connected', details: { scopes: ['s1'] } } });
      await ctx.store.setAccountStatus(account.id, 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired' } });

      // Newest first; two writes in the same millisecond have no order between them, so find each by type.
      const events = await ctx.store.listAccountEvents('env_a');
      expect(events.map((e) => e.type).sort()).toEqual(['account.connected', 'account.expired']);
      const byType = (type: string) => events.find((e) => e.type === type)!;
      const connected = JSON.parse(byType('account.connected').payload);
      expect(connected).toMatchObject({
        type: 'account.connected',
        data: { account_id: account.id, identifier: 'user-1', connection_id: connection.id, connection_name: connection.name, connector: 'calendar', status: 'ACTIVE', status_reason: null, scopes: ['s1'] },
      });
      expect(Date.parse(connected.timestamp)).not.toBeNaN();
      expect(JSON.parse(byType('account.expired').payload).data).toMatchObject({ status: 'EXPIRED', status_reason: 'invalid_grant' });
      // No secret of the account in any payload.
      for (const e of events) for (const t of [granted.accessToken, granted.refreshToken!]) expect(e.payload).not.toContain(t);

      const deliveries = await ctx.store.listWebhookDeliveries('env_a');
      expect(deliveries.map((d) => [d.endpointId, d.eventType, d.status, d.attempts]).sort()).toEqual(
        [
          [all.id, 'account.connected', 'pending', 0],
          [all.id, 'account.expired', 'pending', 0],
          [onlyExpired.id, 'account.expired', 'pending', 0],
        ].sort(),
      );
    });

    it('writes neither the change nor the event when the event cannot be written (one transaction)', async () => {
      const { account } = await setUp(ctx.store);
      await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: null, secret: WHSEC('a') });
      // Break the fan-out step, the last write of the transaction.
      await ctx.db.query('DROP TABLE webhook_attempts');
      await ctx.db.query('DROP TABLE webhook_deliveries');
      await expect(ctx.store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } })).rejects.toThrow();
      const after = await ctx.store.getAccount('env_a', account.id);
      expect(after).toMatchObject({ status: 'PENDING_AUTH', tokens: null, tokenVersion: 0 });
      expect(await ctx.store.listAccountEvents('env_a')).toEqual([]);
      // The store is still usable afterwards (the transaction ended; no statement is left waiting on it).
      expect(await ctx.store.saveTokens(account.id, tokens())).toMatchObject({ status: 'ACTIVE' });
    });

    it('writes no event for an account that does not exist, and at most one per dedupe key', async () => {
      const { account } = await setUp(ctx.store);
      await ctx.store.setAccountStatus('ca_missing', 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired' } });
      expect(await ctx.store.appendAccountEvent('ca_missing', { type: 'account.scope_insufficient' })).toBeNull();
      const first = await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', dedupeKey: `scope:${account.id}:1`, details: { tool: 't' } });
      expect(first).toMatchObject({ type: 'account.scope_insufficient', accountId: account.id });
      expect(await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', dedupeKey: `scope:${account.id}:1` })).toBeNull();
      expect(await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', dedupeKey: `scope:${account.id}:2` })).not.toBeNull();
      expect((await ctx.store.listAccountEvents('env_a')).length).toBe(2);
    });

    it('sets a status reason without changing the status (a failed re-authorization)', async () => {
      const { account } = await setUp(ctx.store);
      await ctx.store.saveTokens(account.id, tokens());
      await ctx.store.setStatusReason(account.id, 'access_denied', { event: { type: 'account.authorization_failed', details: { reason: 'access_denied' } } });
      expect(await ctx.store.getAccount('env_a', account.id)).toMatchObject({ status: 'ACTIVE', statusReason: 'access_denied' });
      const [event] = await ctx.store.listAccountEvents('env_a', { accountId: account.id });
      expect(JSON.parse(event!.payload).data).toMatchObject({ status: 'ACTIVE', status_reason: 'access_denied', reason: 'access_denied' });
    });

    it('deleting a connection writes account.disconnected for each account that held tokens, which outlive the accounts', async () => {
      const { connection, account } = await setUp(ctx.store);
      await ctx.store.saveTokens(account.id, tokens());
      await ctx.store.ensureAccount('env_a', connection.id, 'never-connected');
      expect(await ctx.store.deleteConnection('env_a', connection.id)).toBe(true);
      const events = await ctx.store.listAccountEvents('env_a');
      expect(events.map((e) => [e.type, e.accountId])).toEqual([['account.disconnected', account.id]]);
      expect(JSON.parse(events[0]!.payload).data).toMatchObject({ status: 'DISCONNECTED', status_reason: 'connection_deleted', connection_name: connection.name });
      expect(await ctx.store.getAccount('env_a', account.id)).toBeNull();
    });

    it('purges events 30 days old once nothing is left to deliver, with their delivery log', async () => {
      const { account } = await setUp(ctx.store);
      await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: null, secret: WHSEC('a') });
      const done = await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: 'a' } });
      const waiting = await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: 'b' } });
      const claimed = await ctx.store.claimWebhookDeliveries({ owner: 'o', now: isoIn(1000), leaseMs: 60_000, limit: 10 });
      const doneDelivery = claimed.find((c) => c.event.id === done!.id)!;
      await ctx.store.recordWebhookAttempt(doneDelivery.delivery.id, 'o', { attemptedAt: isoIn(1000), statusCode: 200, durationMs: 3, error: null, next: { status: 'delivered' } });
      const day = 24 * 3600_000;
      // 29 days on, both stay; 31 days on, the delivered one goes and the pending one stays.
      expect(await ctx.store.purgeExpired(isoIn(29 * day))).toBe(0);
      expect(await ctx.store.purgeExpired(isoIn(31 * day))).toBe(1);
      expect((await ctx.store.listAccountEvents('env_a')).map((e) => e.id)).toEqual([waiting!.id]);
      expect(await ctx.store.getWebhookDelivery('env_a', doneDelivery.delivery.id)).toBeNull();
      expect(await ctx.db.query('SELECT * FROM webhook_attempts')).toEqual([]);
    });

    it('keeps environments apart', async () => {
      const a = await setUp(ctx.store, 'env_a');
      await setUp(ctx.store, 'env_b');
      const endpoint = await ctx.store.createWebhookEndpoint({ environmentId: 'env_b', url: 'https://b.example/hook', events: null, secret: WHSEC('b') });
      await ctx.store.clearTokens(a.account.id, { event: { type: 'account.disconnected' } });
      expect(await ctx.store.listAccountEvents('env_b')).toEqual([]);
      expect(await ctx.store.listWebhookDeliveries('env_a')).toEqual([]);
      expect(await ctx.store.getWebhookEndpoint('env_a', endpoint.id)).toBeNull();
      expect(await ctx.store.deleteWebhookEndpoint('env_a', endpoint.id)).toBe(false);
      expect(await ctx.store.rotateWebhookSecret('env_a', endpoint.id, WHSEC('x'), isoIn(1000))).toBeNull();
    });
  });

  describe('webhook endpoints', () => {
    it('keeps secrets encrypted at rest, rotates with the previous secret kept, and re-encrypts under a new key', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const first = WHSEC('first');
      const second = WHSEC('second');
      const created = await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: ['account.connected'], secret: first });
      expect(created).toMatchObject({ url: 'https://a.example/hook', events: ['account.connected'], secret: first, previousSecret: null, previousSecretExpiresAt: null });
      expect(created.id).toMatch(/^whep_/);
      const until = isoIn(3600_000);
      const rotated = await ctx.store.rotateWebhookSecret('env_a', created.id, second, until);
      expect(rotated).toMatchObject({ secret: second, previousSecret: first, previousSecretExpiresAt: until });
      expect(await ctx.store.listWebhookEndpoints('env_a')).toEqual([rotated]);
      const text = await ctx.db.dumpText();
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);

      const rotatedKeys = await ctx.open(keyring21);
      expect(await rotatedKeys.reencryptAll()).toBeGreaterThanOrEqual(2);
      const onlyNew = await ctx.open(keyring21);
      expect(await onlyNew.getWebhookEndpoint('env_a', created.id)).toMatchObject({ secret: second, previousSecret: first });
      expect(await ctx.store.deleteWebhookEndpoint('env_a', created.id)).toBe(true);
      expect(await ctx.store.listWebhookEndpoints('env_a')).toEqual([]);
    });
  });

  describe('delivery claims', () => {
    async function withDeliveries(n: number) {
      const { account } = await setUp(ctx.store);
      const endpoint = await ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url: 'https://a.example/hook', events: null, secret: WHSEC('a') });
      for (let i = 0; i < n; i++) await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: `t${i}` } });
      return { account, endpoint };
    }

    it('hands each due delivery to one claimant until its lease lapses or its attempt is recorded', async () => {
      const { endpoint } = await withDeliveries(3);
      const now = isoIn(1000);
      const mine = await ctx.store.claimWebhookDeliveries({ owner: 'a', now, leaseMs: 60_000, limit: 2 });
      expect(mine).toHaveLength(2);
      expect(mine[0]!.endpoint).toMatchObject({ id: endpoint.id, secret: endpoint.secret });
      expect(JSON.parse(mine[0]!.event.payload).type).toBe('account.scope_insufficient');
      const theirs = await ctx.store.claimWebhookDeliveries({ owner: 'b', now, leaseMs: 60_000, limit: 10 });
      expect(theirs).toHaveLength(1);
      expect(new Set([...mine, ...theirs].map((c) => c.delivery.id)).size).toBe(3);
      expect(await ctx.store.claimWebhookDeliveries({ owner: 'c', now, leaseMs: 60_000, limit: 10 })).toEqual([]);

      // A recorded success is final; a recorded failure is due again at its time; a lapsed lease is claimable again.
      const [done, retried] = mine;
      expect(await ctx.store.recordWebhookAttempt(done!.delivery.id, 'a', { attemptedAt: now, statusCode: 204, durationMs: 12, error: null, next: { status: 'delivered' } })).toBe(true);
      const retryAt = isoIn(10_000);
      await ctx.store.recordWebhookAttempt(retried!.delivery.id, 'a', { attemptedAt: now, statusCode: 503, durationMs: 5, error: 'HTTP 503', next: { status: 'pending', nextAttemptAt: retryAt } });
      // Not its owner: the attempt is logged, the delivery does not move.
      expect(await ctx.store.recordWebhookAttempt(theirs[0]!.delivery.id, 'a', { attemptedAt: now, statusCode: 500, durationMs: 1, error: 'x', next: { status: 'failed' } })).toBe(false);

      expect(await ctx.store.claimWebhookDeliveries({ owner: 'c', now: isoIn(5_000), leaseMs: 60_000, limit: 10 })).toEqual([]);
      const later = await ctx.store.claimWebhookDeliveries({ owner: 'c', now: isoIn(61_500), leaseMs: 60_000, limit: 10 });
      expect(later.map((c) => c.delivery.id).sort()).toEqual([retried!.delivery.id, theirs[0]!.delivery.id].sort());
      expect(later.find((c) => c.delivery.id === retried!.delivery.id)!.delivery).toMatchObject({ attempts: 1, lastStatusCode: 503, lastError: 'HTTP 503' });

      const log = await ctx.store.listWebhookAttempts('env_a', retried!.delivery.id);
      expect(log).toEqual([expect.objectContaining({ statusCode: 503, durationMs: 5, error: 'HTTP 503', attemptedAt: now })]);
      expect(await ctx.store.getWebhookDelivery('env_a', done!.delivery.id)).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null });
      expect(await ctx.store.listWebhookAttempts('env_b', retried!.delivery.id)).toEqual([]);
    });

    it("makes a delivery that is not delivered due again at once (an operator's 'send again now'), and leaves alone one delivered, one under lease or another environment's", async () => {
      await withDeliveries(3);
      const now = isoIn(1000);
      const [failed, delivered, leased] = await ctx.store.claimWebhookDeliveries({ owner: 'a', now, leaseMs: 60_000, limit: 3 });
      await ctx.store.recordWebhookAttempt(failed!.delivery.id, 'a', { attemptedAt: now, statusCode: 500, durationMs: 3, error: 'HTTP 500', next: { status: 'failed' } });
      await ctx.store.recordWebhookAttempt(delivered!.delivery.id, 'a', { attemptedAt: now, statusCode: 204, durationMs: 3, error: null, next: { status: 'delivered' } });
      const resend = isoIn(2000);
      expect(await ctx.store.retryWebhookDelivery('env_b', failed!.delivery.id, resend)).toBe(false);
      expect(await ctx.store.getWebhookDelivery('env_a', failed!.delivery.id)).toMatchObject({ status: 'failed' });
      expect(await ctx.store.retryWebhookDelivery('env_a', failed!.delivery.id, resend)).toBe(true);
      expect(await ctx.store.retryWebhookDelivery('env_a', delivered!.delivery.id, resend)).toBe(false);
      expect(await ctx.store.retryWebhookDelivery('env_a', leased!.delivery.id, resend)).toBe(false);
      expect(await ctx.store.getWebhookDelivery('env_a', failed!.delivery.id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(resend).toISOString() });
      expect(await ctx.store.getWebhookDelivery('env_a', delivered!.delivery.id)).toMatchObject({ status: 'delivered', nextAttemptAt: null });
      // Due at once: the next poll claims it (and only it: the leased one is still someone's), its log kept.
      const claimed = await ctx.store.claimWebhookDeliveries({ owner: 'b', now: resend, leaseMs: 60_000, limit: 10 });
      expect(claimed.map((c) => c.delivery.id)).toEqual([failed!.delivery.id]);
      expect(await ctx.store.listWebhookAttempts('env_a', failed!.delivery.id)).toEqual([expect.objectContaining({ statusCode: 500, error: 'HTTP 500' })]);
    });

    it('gives concurrent claimants (separate store instances) disjoint deliveries', async () => {
      await withDeliveries(12);
      const others = await Promise.all([1, 2, 3].map(() => ctx.open(keyring1)));
      const now = isoIn(1000);
      const claims = await Promise.all([ctx.store, ...others].map((s, i) => s.claimWebhookDeliveries({ owner: `o${i}`, now, leaseMs: 60_000, limit: 5 })));
      const ids = claims.flat().map((c) => c.delivery.id);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    });

    it('pages the delivery log by keyset, newest first: ties on createdAt broken by id, filters kept, no row twice or missed', async () => {
      const { account } = await setUp(ctx.store);
      const endpoint = (url: string, events: null | ['account.expired']) => ctx.store.createWebhookEndpoint({ environmentId: 'env_a', url, events, secret: WHSEC(url) });
      const a = await endpoint('https://a.example/hook', null);
      const b = await endpoint('https://b.example/hook', null);
      const c = await endpoint('https://c.example/hook', ['account.expired']);
      // One event's deliveries share its createdAt: 4 events to a and b, 2 to all three, 14 deliveries.
      for (let i = 0; i < 4; i++) await ctx.store.appendAccountEvent(account.id, { type: 'account.scope_insufficient', details: { tool: `t${i}` } });
      for (let i = 0; i < 2; i++) await ctx.store.appendAccountEvent(account.id, { type: 'account.expired' });
      const other = await setUp(ctx.store, 'env_b');
      await ctx.store.createWebhookEndpoint({ environmentId: 'env_b', url: 'https://b.example/hook', events: null, secret: WHSEC('env_b') });
      await ctx.store.appendAccountEvent(other.account.id, { type: 'account.expired' });
      // Six deliveries of one instant (their order is the id's alone) between four newer and four older ones, so ties
      // cross page boundaries; some delivered, for the status filter.
      const instant = '2000-03-01T12:00:00.000Z';
      const seeded = await ctx.store.listWebhookDeliveries('env_a', { limit: 100 });
      expect(seeded).toHaveLength(14);
      const set = (d: { id: string }, column: 'created_at' | 'status', value: string) => ctx.db.query(`UPDATE webhook_deliveries SET ${column} = ? WHERE id = ?`, [value, d.id]);
      for (const d of seeded.slice(0, 4)) await set(d, 'created_at', '2000-04-01T00:00:00.000Z');
      for (const d of seeded.slice(4, 10)) await set(d, 'created_at', instant);
      for (const d of seeded.slice(10)) await set(d, 'created_at', '2000-02-01T00:00:00.000Z');
      for (const d of [seeded[1]!, seeded[5]!, seeded[6]!, seeded[12]!]) await set(d, 'status', 'delivered');

      type Filter = Parameters<typeof ctx.store.listWebhookDeliveries>[1];
      const walk = async (filter: Filter, limit: number, environmentId = 'env_a') => {
        const pages: string[][] = [];
        let before: { createdAt: string; id: string } | undefined;
        // Bounded, so a page that repeats its key fails the test instead of looping.
        for (let n = 0; n <= 20; n++) {
          const page = await ctx.store.listWebhookDeliveries(environmentId, { ...filter, limit, ...(before ? { before } : {}) });
          if (page.length === 0) return pages;
          expect(page.length).toBeLessThanOrEqual(limit);
          pages.push(page.map((d) => d.id));
          before = { createdAt: page[page.length - 1]!.createdAt, id: page[page.length - 1]!.id };
        }
        throw new Error(`more than 20 pages of ${limit}: the keyset does not advance`);
      };
      const whole = await ctx.store.listWebhookDeliveries('env_a', { limit: 100 });
      expect(whole).toHaveLength(14);
      expect(whole.filter((d) => d.createdAt === instant)).toHaveLength(6);
      for (let i = 1; i < whole.length; i++) expect(whole[i - 1]!.createdAt >= whole[i]!.createdAt).toBe(true);
      // The default page is 50 deliveries: here, all of them.
      expect((await ctx.store.listWebhookDeliveries('env_a')).map((d) => d.id)).toEqual(whole.map((d) => d.id));
      for (const limit of [1, 2, 3, 4, 5, 6, 7, 13, 14, 15]) {
        expect((await walk({}, limit)).flat(), `limit ${limit}`).toEqual(whole.map((d) => d.id));
      }
      for (const filter of [{ endpointId: a.id }, { endpointId: c.id }, { status: 'delivered' as const }, { endpointId: b.id, status: 'pending' as const }]) {
        const expected = whole.filter((d) => d.endpointId === (filter.endpointId ?? d.endpointId) && d.status === (filter.status ?? d.status)).map((d) => d.id);
        expect(expected.length).toBeGreaterThan(0);
        expect((await walk(filter, 2)).flat(), JSON.stringify(filter)).toEqual(expected);
      }
      expect(await ctx.store.listWebhookDeliveries('env_a', { endpointId: 'whep_other' })).toEqual([]);
      // Environments apart, whatever the key.
      const key = { createdAt: whole[0]!.createdAt, id: whole[0]!.id };
      expect((await walk({}, 1, 'env_b')).flat()).toHaveLength(1);
      expect((await ctx.store.listWebhookDeliveries('env_b', { before: { createdAt: '2100-01-01T00:00:00.000Z', id: key.id } })).every((d) => d.environmentId === 'env_b')).toBe(true);

      // The key alone places the page: after a delivery since deleted, the rest of the log is as it was.
      const tiedMiddle = whole.findIndex((d) => d.createdAt === instant) + 2;
      await ctx.db.query('DELETE FROM webhook_deliveries WHERE id = ?', [whole[tiedMiddle]!.id]);
      expect((await ctx.store.listWebhookDeliveries('env_a', { limit: 20, before: { createdAt: instant, id: whole[tiedMiddle]!.id } })).map((d) => d.id)).toEqual(
        whole.slice(tiedMiddle + 1).map((d) => d.id),
      );
      // A delivery written meanwhile is newer than every page read: the pages after a key do not move.
      await ctx.store.appendAccountEvent(account.id, { type: 'account.expired' });
      expect((await ctx.store.listWebhookDeliveries('env_a', { limit: 20, before: key })).map((d) => d.id)).toEqual(whole.slice(1).filter((_, i) => i + 1 !== tiedMiddle).map((d) => d.id));
      expect((await ctx.store.listWebhookDeliveries('env_a', { limit: 3 })).every((d) => d.createdAt > whole[0]!.createdAt)).toBe(true);
    });
  });
}
