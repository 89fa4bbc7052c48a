/**
 * The dispatcher against a real store and a real receiver on 127.0.0.1, each delivery verified with the
 * `standardwebhooks` package (the reference implementation receivers use). The clock is injected, so retry backoff
 * and the 24-hour window are walked through without waiting.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import type { AccountRecord, Store } from '../../../runtime/store/types.js';
import { WebhookDispatcher } from '../../../runtime/webhooks/dispatcher.js';
import { DELIVERY_WINDOW_MS, RETRY_DELAYS_MS } from '../../../runtime/webhooks/retry-schedule.js';
import { newWebhookSecret } from '../../../runtime/webhooks/signing.js';
import { keyring1, newConnection, tokens } from '../store/fixtures.js';
import { newSqliteDatabase, type TestDatabase } from '../store/harness.js';
import { Receiver } from './receiver.js';

let db: TestDatabase;
let store: Store;
let receiver: Receiver;
let account: AccountRecord;
let clock: number;
const dispatchers: WebhookDispatcher[] = [];

function dispatcher(overrides: Partial<ConstructorParameters<typeof WebhookDispatcher>[0]> = {}): WebhookDispatcher {
  // random = 0.5 puts the jitter factor at exactly 1: each retry is due exactly its scheduled delay later.
  const d = new WebhookDispatcher({ store, urlRefusal: () => null, now: () => clock, random: () => 0.5, timeoutMs: 2000, ...overrides });
  dispatchers.push(d);
  return d;
}

async function endpoint(events: string[] | null = null, secret = newWebhookSecret()) {
  return store.createWebhookEndpoint({ environmentId: 'env_a', url: receiver.url, events: events as never, secret });
}

beforeEach(async () => {
  clock = Date.now() + 1000;
  db = await newSqliteDatabase();
  store = await openStore({ ...db.options, keyring: keyring1 });
  await store.createEnvironment({ id: 'env_a', name: 'A' });
  const connection = await store.createConnection(newConnection('env_a'));
  account = await store.ensureAccount('env_a', connection.id, 'user-1');
  receiver = await new Receiver().start();
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await receiver.stop();
  await store.close();
  await db.destroy();
});

describe('webhook dispatcher', () => {
  it('delivers an event signed as Standard Webhooks say, with the stored body and a stable id', async () => {
    const { secret } = await endpoint();
    await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected', details: { scopes: ['a'] } } });
    expect(await dispatcher().runOnce()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const verified = new Webhook(secret).verify(got!.body, got!.headers) as { type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'account.connected', data: { account_id: account.id, identifier: 'user-1', status: 'ACTIVE', scopes: ['a'] } });
    const [event] = await store.listAccountEvents('env_a');
    expect(got!.headers['webhook-id']).toBe(event!.id);
    expect(got!.body).toBe(event!.payload);
    expect(got!.headers['webhook-timestamp']).toBe(String(Math.floor(clock / 1000)));
    expect(got!.headers['content-type']).toBe('application/json');
    // Another secret does not verify it: the signature is the endpoint's.
    expect(() => new Webhook(newWebhookSecret()).verify(got!.body, got!.headers)).toThrow();

    const [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
    expect(await dispatcher().runOnce()).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends each endpoint only the event types it asked for', async () => {
    await endpoint(['account.expired']);
    await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } });
    await store.setAccountStatus(account.id, 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired' } });
    await dispatcher().runOnce();
    expect(receiver.received.map((d) => JSON.parse(d.body).type)).toEqual(['account.expired']);
  });

  it('retries a receiver that is down with growing delays, and delivers when it comes back; every attempt is logged', async () => {
    const { secret } = await endpoint();
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const d = dispatcher();

    await receiver.stop(); // down: connection refused
    expect(await d.runOnce()).toBe(1);
    let [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(delivery!.lastError).toMatch(/ECONNREFUSED/);
    expect(Date.parse(delivery!.nextAttemptAt!)).toBe(clock + RETRY_DELAYS_MS[0]!);

    // Not due yet: nothing is sent.
    clock += RETRY_DELAYS_MS[0]! - 1;
    expect(await d.runOnce()).toBe(0);

    await receiver.start();
    receiver.status = 503; // up, but failing
    clock += 1;
    expect(await d.runOnce()).toBe(1);
    [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: 503, lastError: 'HTTP 503: receiver says no' });
    expect(Date.parse(delivery!.nextAttemptAt!)).toBe(clock + RETRY_DELAYS_MS[1]!);

    receiver.status = 200; // back
    clock += RETRY_DELAYS_MS[1]!;
    expect(await d.runOnce()).toBe(1);
    [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });

    const log = await store.listWebhookAttempts('env_a', delivery!.id);
    expect(log.map((a) => a.statusCode)).toEqual([null, 503, 200]);
    expect(log.every((a) => a.durationMs >= 0)).toBe(true);
    // Both answered attempts carried the same id and body, each verifiable.
    const answered = receiver.received;
    expect(answered).toHaveLength(2);
    expect(new Set(answered.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(answered.map((r) => r.body)).size).toBe(1);
    for (const r of answered) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
  });

  it('gives up 24 hours after the event: the delivery is marked failed and not tried again', async () => {
    await endpoint();
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const [event] = await store.listAccountEvents('env_a');
    const created = Date.parse(event!.createdAt);
    receiver.status = 500;
    const d = dispatcher();
    let attempts = 0;
    // Walk the schedule: each round runs when the delivery is due, until it is no longer pending.
    for (;;) {
      attempts += await d.runOnce();
      const [delivery] = await store.listWebhookDeliveries('env_a');
      if (delivery!.status !== 'pending') break;
      clock = Date.parse(delivery!.nextAttemptAt!);
      expect(clock).toBeLessThanOrEqual(created + DELIVERY_WINDOW_MS);
    }
    const [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'failed', lastStatusCode: 500, nextAttemptAt: null });
    expect(delivery!.attempts).toBe(attempts);
    // The schedule: growing delays, then a last attempt at the window's end.
    const log = await store.listWebhookAttempts('env_a', delivery!.id);
    const gaps = log.slice(1).map((a, i) => Date.parse(a.attemptedAt) - Date.parse(log[i]!.attemptedAt));
    expect(gaps.slice(0, 5)).toEqual(RETRY_DELAYS_MS.slice(0, 5));
    expect(Date.parse(log[log.length - 1]!.attemptedAt)).toBe(created + DELIVERY_WINDOW_MS);
    clock += 7 * DELIVERY_WINDOW_MS;
    expect(await d.runOnce()).toBe(0);
  });

  it('during a secret rotation signs with both secrets; after the overlap, only with the new one', async () => {
    const old = newWebhookSecret();
    const ep = await endpoint(null, old);
    const fresh = newWebhookSecret();
    await store.rotateWebhookSecret('env_a', ep.id, fresh, new Date(clock + 60_000).toISOString());
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const d = dispatcher();
    await d.runOnce();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(old).verify(during.body, during.headers)).not.toThrow();
    expect(() => new Webhook(fresh).verify(during.body, during.headers)).not.toThrow();

    clock += 120_000; // the overlap is over (still within the receivers' 5-minute timestamp tolerance)
    await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } });
    await d.runOnce();
    const after = receiver.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(fresh).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow(/signature/i);
  });

  it('does not send to a URL the policy refuses now, and logs why', async () => {
    await endpoint();
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const warnings: Record<string, unknown>[] = [];
    await dispatcher({ urlRefusal: () => 'is not allowed: test policy', logger: { warn: (obj) => warnings.push(obj as Record<string, unknown>) } }).runOnce();
    expect(receiver.received).toEqual([]);
    const [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastError: 'not sent: the endpoint URL is not allowed: test policy' });
    // The service log says why too, not only that an attempt failed with no status.
    expect(warnings).toEqual([expect.objectContaining({ deliveryId: delivery!.id, status: null, error: 'not sent: the endpoint URL is not allowed: test policy', next: 'pending' })]);
  });

  it('logs a refused connection with its reason, and an answered attempt by its status alone', async () => {
    await endpoint();
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const warnings: Record<string, unknown>[] = [];
    const d = dispatcher({ logger: { warn: (obj) => warnings.push(obj as Record<string, unknown>) } });
    await receiver.stop();
    await d.runOnce();
    expect(warnings[0]).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED/) });
    await receiver.start();
    receiver.status = 503;
    clock += RETRY_DELAYS_MS[0]!;
    await d.runOnce();
    expect(warnings[1]).toMatchObject({ status: 503 });
    expect(warnings[1]).not.toHaveProperty('error');
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    await endpoint();
    receiver.status = 307;
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    await dispatcher().runOnce();
    expect(receiver.received).toHaveLength(1);
    expect((await store.listWebhookDeliveries('env_a'))[0]).toMatchObject({ status: 'pending', lastStatusCode: 307 });
  });

  it('a hung receiver costs one attempt, ended by the timeout', async () => {
    await endpoint();
    receiver.hold = true;
    await store.clearTokens(account.id, { event: { type: 'account.disconnected' } });
    const started = performance.now();
    await dispatcher({ timeoutMs: 300 }).runOnce();
    expect(performance.now() - started).toBeLessThan(5000);
    const [delivery] = await store.listWebhookDeliveries('env_a');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(delivery!.lastError).toMatch(/timeout|abort/i);
  });
});
