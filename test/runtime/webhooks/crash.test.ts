/**
 * A process killed with SIGKILL between the state change and the delivery loses no event: the event was committed
 * with the change, and another instance delivers it, with the same webhook-id, once the dead process's claim lapses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import type { AccountRecord, Store } from '../../../runtime/store/types.js';
import { WebhookDispatcher } from '../../../runtime/webhooks/dispatcher.js';
import { newWebhookSecret } from '../../../runtime/webhooks/signing.js';
import { KEY_1, keyring1, newConnection, tokens } from '../store/fixtures.js';
import { newSqliteDatabase, type TestDatabase } from '../store/harness.js';
import { Receiver } from './receiver.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

let db: TestDatabase;
let store: Store;
let receiver: Receiver;
let account: AccountRecord;
let secret: string;
let child: ChildProcess | undefined;

function startChild(mode: 'idle' | 'send'): { child: ChildProcess; committed: Promise<void>; exited: Promise<NodeJS.Signals | null> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(db.options), account.id, mode], {
    env: { ...process.env, TEST_KEYRING: KEY_1 },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const committed = new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('committed\n')) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`child exited (${code}) before committing`)));
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  child = proc;
  return { child: proc, committed, exited };
}

beforeEach(async () => {
  db = await newSqliteDatabase();
  store = await openStore({ ...db.options, keyring: keyring1 });
  await store.createEnvironment({ id: 'env_a', name: 'A' });
  const connection = await store.createConnection(newConnection('env_a'));
  account = await store.ensureAccount('env_a', connection.id, 'user-1');
  await store.saveTokens(account.id, tokens());
  receiver = await new Receiver().start();
  secret = newWebhookSecret();
  await store.createWebhookEndpoint({ environmentId: 'env_a', url: receiver.url, events: null, secret });
});

afterEach(async () => {
  child?.kill('SIGKILL');
  await receiver.stop();
  await store.close();
  await db.destroy();
});

describe('kill -9 between the state change and the delivery', () => {
  it('after the commit, before any attempt: a new instance delivers the event', async () => {
    const run = startChild('idle');
    await run.committed;
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe('SIGKILL');
    expect(receiver.received).toEqual([]);

    expect(await store.getAccount('env_a', account.id)).toMatchObject({ status: 'EXPIRED', statusReason: 'invalid_grant' });
    const d = new WebhookDispatcher({ store, urlRefusal: () => null });
    try {
      expect(await d.runOnce()).toBe(1);
    } finally {
      await d.stop();
    }
    expect(receiver.received).toHaveLength(1);
    const payload = new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers);
    expect(payload).toMatchObject({ type: 'account.expired', data: { account_id: account.id, status: 'EXPIRED', status_reason: 'invalid_grant' } });
  });

  it('in the middle of an attempt: the claim lapses and a new instance sends it again with the same id', async () => {
    receiver.hold = true;
    const arrived = new Promise<void>((resolve) => (receiver.onRequest = () => resolve()));
    const run = startChild('send');
    await run.committed;
    await arrived;
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe('SIGKILL');
    receiver.hold = false;
    receiver.onRequest = undefined;

    // The dead process's claim holds until its lease ends: nobody sends it twice meanwhile.
    let clock = Date.now();
    const d = new WebhookDispatcher({ store, urlRefusal: () => null, now: () => clock });
    try {
      expect(await d.runOnce()).toBe(0);
      clock += 90_001;
      expect(await d.runOnce()).toBe(1);
    } finally {
      await d.stop();
    }
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(() => new Webhook(secret).verify(first!.body, first!.headers)).not.toThrow();
    const [delivery] = await store.listWebhookDeliveries('env_a');
    // The killed attempt was never recorded (its process died mid-send); the new one was.
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
  });
});
