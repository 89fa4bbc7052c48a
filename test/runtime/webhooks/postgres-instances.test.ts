/**
 * Several service instances on one PostgreSQL database: each runs its own dispatcher over the same outbox, and each
 * event reaches the receiver once per attempt (here: a refused first attempt and an accepted second, so exactly two
 * requests per event, never three). On DATABASE_URL; `postgresSuite` (test/server-suites.ts) says what happens
 * without it.
 */
import { Webhook } from 'standardwebhooks';
import { expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import { WebhookDispatcher } from '../../../runtime/webhooks/dispatcher.js';
import { newWebhookSecret } from '../../../runtime/webhooks/signing.js';
import { keyring1, newConnection } from '../store/fixtures.js';
import { newPostgresDatabase } from '../store/harness.js';
import { postgresSuite } from '../../server-suites.js';
import { Receiver } from './receiver.js';

const EVENTS = 40;
const INSTANCES = 3;

postgresSuite('webhook delivery across instances on PostgreSQL', (databaseUrl) => {
  it('sends each event once per attempt, whichever instance claims it', async () => {
    const db = await newPostgresDatabase(databaseUrl);
    const receiver = await new Receiver().start();
    const stores = await Promise.all(Array.from({ length: INSTANCES }, () => openStore({ ...db.options, keyring: keyring1 })));
    let clock = Date.now() + 1000;
    const dispatchers = stores.map((store, i) => new WebhookDispatcher({ store, urlRefusal: () => null, now: () => clock, random: () => 0.5, batchSize: 4, owner: `instance-${i}` }));
    try {
      const [store] = stores;
      await store!.createEnvironment({ id: 'env_a', name: 'A' });
      const connection = await store!.createConnection(newConnection('env_a'));
      const secret = newWebhookSecret();
      await store!.createWebhookEndpoint({ environmentId: 'env_a', url: receiver.url, events: null, secret });
      for (let i = 0; i < EVENTS; i++) {
        const account = await store!.ensureAccount('env_a', connection.id, `user-${i}`);
        await store!.setAccountStatus(account.id, 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired' } });
      }
      // Each event's first request is refused, the second accepted.
      const seen = new Set<string>();
      receiver.onRequest = (d) => {
        const id = d.headers['webhook-id']!;
        receiver.status = seen.has(id) ? 204 : 500;
        seen.add(id);
      };

      let rounds = 0;
      for (;;) {
        const made = await Promise.all(dispatchers.map((d) => d.runOnce()));
        rounds += 1;
        const pending = await store!.listWebhookDeliveries('env_a', { status: 'pending', limit: 200 });
        if (pending.length === 0) break;
        if (made.every((n) => n === 0)) clock += 60_000;
        expect(rounds).toBeLessThan(50);
      }

      const byId = new Map<string, number>();
      for (const r of receiver.received) byId.set(r.headers['webhook-id']!, (byId.get(r.headers['webhook-id']!) ?? 0) + 1);
      expect(byId.size).toBe(EVENTS);
      expect([...byId.values()].every((n) => n === 2)).toBe(true);
      for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();

      const deliveries = await store!.listWebhookDeliveries('env_a', { limit: 200 });
      expect(deliveries).toHaveLength(EVENTS);
      for (const d of deliveries) {
        expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
        expect((await store!.listWebhookAttempts('env_a', d.id)).map((a) => a.statusCode)).toEqual([500, 204]);
      }
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()));
      await receiver.stop();
      await Promise.all(stores.map((s) => s.close()));
      await db.destroy();
    }
  });
});
