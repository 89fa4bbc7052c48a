/**
 * `POST /api/v1/webhook_deliveries/{id}/retry`: a delivery that failed while its receiver was down is sent again at
 * the next poll once the receiver is back, signed as docs/webhooks.md says (verified with `standardwebhooks`), with
 * the same webhook-id and its earlier attempts kept. Refused: a delivered one (409), one being attempted right now
 * (409), an unknown id (404), another environment's (404, and left as it was). The typed client's
 * `retryWebhookDelivery` does the same. The receiver is a real local HTTP server (test/runtime/webhooks/receiver.ts);
 * the dispatcher is run by hand, so each attempt is the test's, and the service's clock is moved past the 24 hours
 * for the delivery to fail for good.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../runtime/client/index.js';
import { DELIVERY_WINDOW_MS } from '../../runtime/webhooks/retry-schedule.js';
import type { Receiver } from '../runtime/webhooks/receiver.js';
import { connectSandboxUser, webhookReceiverHarness, type Harness } from './harness.js';
import { conformanceProblems } from './openapi-conformance.js';

let h: Harness;
let token: string;
let receiver: Receiver;
let secret: string;
/** Added to the service's clock (the dispatcher's): past the delivery window, a failed attempt is the last. */
let skew = 0;

const TEMPLATE = '/api/v1/webhook_deliveries/{id}/retry';

async function retry(id: string, as = token) {
  const res = await h.call('POST', `/api/v1/webhook_deliveries/${encodeURIComponent(id)}/retry`, { token: as });
  expect(conformanceProblems('POST', TEMPLATE, res), JSON.stringify(res.body)).toEqual([]);
  return res;
}

async function delivery(id: string, as = token) {
  return h.call('GET', `/api/v1/webhook_deliveries/${id}`, { token: as });
}

/** The newest delivery of environment A (of the event just emitted). */
async function newest(): Promise<{ id: string; event_id: string; event_type: string }> {
  return (await h.call('GET', '/api/v1/webhook_deliveries?limit=1', { token })).body.webhook_deliveries[0];
}

beforeAll(async () => {
  ({ h, token, receiver, secret } = await webhookReceiverHarness({ now: () => Date.now() + skew }));
});

afterAll(async () => {
  await receiver?.stop();
  await h?.close();
});

describe('POST /api/v1/webhook_deliveries/{id}/retry', () => {
  let failedId: string;

  it('sends a delivery that failed while the receiver was down again, once it is back: delivered and verifiable', async () => {
    await receiver.stop();
    await connectSandboxUser(h, { connection: 'cal', identifier: 'u-1' });
    const { id, event_id } = await newest();
    failedId = id;
    await h.app.webhookDispatcher!.runOnce();
    // Still down past the 24 hours: the last attempt fails, and the delivery with it.
    skew = DELIVERY_WINDOW_MS + 60_000;
    await h.app.webhookDispatcher!.runOnce();
    skew = 0;
    const failed = (await delivery(id)).body;
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null, last_status_code: null });
    expect(failed.attempt_log).toHaveLength(2);
    expect(receiver.received).toHaveLength(0);
    // Nothing sends it again by itself.
    await h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(0);

    // The receiver is back; sent again, the delivery is pending and due now, its attempts and log kept.
    await receiver.start();
    const before = Date.now();
    const res = await retry(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, event_id, status: 'pending', attempts: 2, payload: { type: 'account.connected' } });
    expect(Date.parse(res.body.next_attempt_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.body.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(res.body.attempt_log).toEqual(failed.attempt_log);

    await h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.headers['webhook-id']).toBe(event_id);
    const event = new Webhook(secret).verify(got!.body, got!.headers) as { type: string; data: { identifier: string } };
    expect(event).toMatchObject({ type: 'account.connected', data: { identifier: 'u-1' } });
    const done = (await delivery(id)).body;
    expect(done).toMatchObject({ status: 'delivered', attempts: 3, next_attempt_at: null, last_status_code: 204 });
    // Three attempts logged: two refused connections and the 204 (the window's last was timed by the moved clock, so
    // it sorts last).
    expect(done.attempt_log.map((a: { status_code: number | null }) => a.status_code).sort()).toEqual([204, null, null]);
  });

  it('refuses a delivered one with 409 conflict, saying so, and leaves it as it was', async () => {
    const res = await retry(failedId);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: `Webhook delivery ${failedId} was delivered: there is nothing to send again.`, request_id: res.headers.get('x-request-id') });
    expect((await delivery(failedId)).body).toMatchObject({ status: 'delivered', attempts: 3, next_attempt_at: null });
    await h.app.webhookDispatcher!.runOnce();
    expect(receiver.received).toHaveLength(1);
  });

  it('answers an unknown id with 404 not_found in the usual error body', async () => {
    for (const id of ['whdl_missing', 'not-a-delivery']) {
      const res = await retry(id);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: `No webhook delivery ${JSON.stringify(id)} in this environment.`, request_id: res.headers.get('x-request-id') });
    }
  });

  it('does not see another environment\'s delivery: 404, and the delivery is left alone', async () => {
    await receiver.stop();
    await connectSandboxUser(h, { connection: 'cal', identifier: 'u-2', user: 'bob@example.com' });
    const { id } = await newest();
    await h.app.webhookDispatcher!.runOnce();
    const before = (await delivery(id)).body;
    expect(before).toMatchObject({ status: 'pending', attempts: 1 });
    const tokenB = await h.token(h.b);
    const res = await retry(id, tokenB);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', message: `No webhook delivery ${JSON.stringify(id)} in this environment.` });
    await expect(createClient({ envUrl: h.url, clientId: h.b.clientId, clientSecret: h.b.clientSecret }).retryWebhookDelivery(id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect((await delivery(id)).body).toEqual(before);
    await receiver.start();
  });

  it('through the typed client: a pending delivery is due at once and delivered; a delivered one is a conflict', async () => {
    const client = createClient({ envUrl: h.url, clientId: h.a.clientId, clientSecret: h.a.clientSecret });
    const { id, event_id } = await newest();
    const from = receiver.received.length;
    const again = await client.retryWebhookDelivery(id);
    expect(again).toMatchObject({ id, status: 'pending', attempts: 1 });
    expect(Date.parse(again.next_attempt_at!)).toBeLessThanOrEqual(Date.now());
    await h.app.webhookDispatcher!.runOnce();
    expect(receiver.received.slice(from).map((r) => r.headers['webhook-id'])).toEqual([event_id]);
    expect(new Webhook(secret).verify(receiver.received[from]!.body, receiver.received[from]!.headers)).toMatchObject({ type: 'account.connected' });
    expect(await client.getWebhookDelivery(id)).toMatchObject({ status: 'delivered', attempts: 2 });
    await expect(client.retryWebhookDelivery(id)).rejects.toMatchObject({ code: 'conflict', status: 409, message: expect.stringContaining('was delivered') });
  });

  it('refuses one being attempted right now with 409 conflict; once that attempt is over it may be sent again', async () => {
    receiver.hold = true;
    await connectSandboxUser(h, { connection: 'cal', identifier: 'u-3', user: 'carol@example.com' });
    const { id } = await newest();
    const from = receiver.received.length;
    const round = h.app.webhookDispatcher!.runOnce();
    await vi.waitFor(() => expect(receiver.received.length).toBe(from + 1));
    const res = await retry(id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: `Webhook delivery ${id} is being attempted right now; see its attempt_log in a moment.` });
    // The held attempt ends without an answer (the receiver drops it): a failed attempt, and the lease is released.
    receiver.hold = false;
    await receiver.stop();
    await round;
    await receiver.start();
    expect((await retry(id)).body).toMatchObject({ status: 'pending', attempts: 1 });
    await h.app.webhookDispatcher!.runOnce();
    expect((await delivery(id)).body).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
