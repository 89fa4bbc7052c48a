/**
 * A webhook endpoint's host name is judged again by the address it resolves to when the dispatcher connects: a name
 * the text rule accepts that resolves to an address the policy refuses is not contacted (the receiver on 127.0.0.1
 * counts no connection), and the attempt log says why. No real DNS: the dispatcher's resolver answers the made-up
 * name `hooks.example.com` as each test says.
 */
import type { LookupFunction } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readOverridePolicy, type ConnectionOverridePolicy } from '../../../runtime/connection-override-policy.js';
import { openStore } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { WebhookDispatcher } from '../../../runtime/webhooks/dispatcher.js';
import { webhookAddressRefusal, webhookUrlRefusal } from '../../../runtime/webhooks/endpoint-url.js';
import { newWebhookSecret } from '../../../runtime/webhooks/signing.js';
import { keyring1, newConnection, tokens } from '../store/fixtures.js';
import { newSqliteDatabase, type TestDatabase } from '../store/harness.js';
import { Receiver } from './receiver.js';

let db: TestDatabase;
let store: Store;
let receiver: Receiver;
let answer: string;
const dispatchers: WebhookDispatcher[] = [];

/** Answers every name with `answer`. */
const lookup: LookupFunction = (_hostname, options, callback) => {
  if (options.all === true) callback(null, [{ address: answer, family: 4 }]);
  else callback(null, answer, 4);
};

/** One delivery to `url` under `policy`, through a dispatcher wired as the service wires it; returns its log. */
async function deliver(url: string, policy: ConnectionOverridePolicy) {
  expect(webhookUrlRefusal(url, policy)).toBeNull(); // accepted by its text
  await store.createWebhookEndpoint({ environmentId: 'env_a', url, events: null, secret: newWebhookSecret() });
  const connection = await store.createConnection(newConnection('env_a'));
  const account = await store.ensureAccount('env_a', connection.id, 'user-1');
  await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } });
  const logged: object[] = [];
  const d = new WebhookDispatcher({
    store,
    urlRefusal: (u) => webhookUrlRefusal(u, policy),
    addressRefusal: (hostname, address) => webhookAddressRefusal(hostname, address, policy),
    lookup,
    timeoutMs: 2000,
    logger: { warn: (obj) => void logged.push(obj) },
  });
  dispatchers.push(d);
  expect(await d.runOnce()).toBe(1);
  const [delivery] = await store.listWebhookDeliveries('env_a');
  return { delivery: delivery!, attempts: await store.listWebhookAttempts('env_a', delivery!.id), logged };
}

beforeEach(async () => {
  db = await newSqliteDatabase();
  store = await openStore({ ...db.options, keyring: keyring1 });
  await store.createEnvironment({ id: 'env_a', name: 'A' });
  receiver = await new Receiver().start();
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await receiver.stop();
  await store.close();
  await db.destroy();
});

it('production default: a public name resolving to 127.0.0.1 is not contacted, and the attempt says why', async () => {
  answer = '127.0.0.1';
  const { delivery, attempts, logged } = await deliver(`https://hooks.example.com:${receiver.port}/hooks`, readOverridePolicy({}, true));
  expect(receiver.connections).toBe(0);
  expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
  expect(attempts).toHaveLength(1);
  // The attempt log (which the environment's API client reads) does not name the address: a tenant would otherwise
  // learn what internal names resolve to on the service's network. The operator's log line does.
  expect(attempts[0]!.error).toMatch(/^ERR_FORBIDDEN_ADDRESS: hooks\.example\.com resolved to an address that is not allowed: loopback, private and link-local addresses are not webhook targets/);
  expect(attempts[0]!.error).not.toContain('127.0.0.1');
  expect(delivery.lastError).toBe(attempts[0]!.error);
  expect(logged).toEqual([expect.objectContaining({ error: attempts[0]!.error, address: '127.0.0.1' })]);
});

it('a listed origin is not connected to at an unspecified answer (0.0.0.0), which reaches this host', async () => {
  const policy = readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: `http://hooks.example.com:${receiver.port}` }, true);
  answer = '0.0.0.0';
  const refused = await deliver(`http://hooks.example.com:${receiver.port}/hooks`, policy);
  expect(receiver.connections).toBe(0);
  expect(refused.attempts[0]!.error).toMatch(/hooks\.example\.com resolved to an address that is not allowed: link-local and unspecified/);
});

it('a listed origin resolving to loopback is delivered to', async () => {
  const policy = readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: `http://hooks.example.com:${receiver.port}` }, true);
  answer = '127.0.0.1';
  const { delivery } = await deliver(`http://hooks.example.com:${receiver.port}/hooks`, policy);
  expect(delivery).toMatchObject({ status: 'delivered', lastError: null });
  expect(receiver.received).toHaveLength(1);
});

it('development: a name resolving to loopback is connected to (the text rule allows loopback too)', async () => {
  answer = '127.0.0.1';
  const { attempts } = await deliver(`https://hooks.example.com:${receiver.port}/hooks`, readOverridePolicy({}, false));
  // https to this plain receiver fails after the connection: the address was allowed.
  expect(receiver.connections).toBeGreaterThan(0);
  expect(attempts[0]!.error).not.toMatch(/FORBIDDEN/);
});

it('a dispatcher built without an address refusal applies the strictest one: a name resolving to loopback is not contacted', async () => {
  // Text allowed (development), but the dispatcher is given no addressRefusal: the safe default is the production
  // rule, not "any answer".
  await store.createWebhookEndpoint({ environmentId: 'env_a', url: `https://hooks.example.com:${receiver.port}/hooks`, events: null, secret: newWebhookSecret() });
  const connection = await store.createConnection(newConnection('env_a'));
  const account = await store.ensureAccount('env_a', connection.id, 'user-1');
  await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } });
  answer = '127.0.0.1';
  const d = new WebhookDispatcher({ store, urlRefusal: () => null, lookup, timeoutMs: 2000 });
  dispatchers.push(d);
  expect(await d.runOnce()).toBe(1);
  const [delivery] = await store.listWebhookDeliveries('env_a');
  expect(receiver.connections).toBe(0);
  expect(delivery!.lastError).toMatch(/^ERR_FORBIDDEN_ADDRESS: hooks\.example\.com resolved to an address that is not allowed: loopback/);
});

it('an origin listed under the production default admits its host at that scheme and port only', async () => {
  // A library user's policy: no overrides, one internal receiver listed by origin (default https port).
  const policy: ConnectionOverridePolicy = { mode: 'none', allowedOrigins: ['https://hooks.example.com'] };
  expect(webhookUrlRefusal('https://hooks.example.com/hooks', policy)).toBeNull();
  for (const other of ['https://hooks.example.com:8443/hooks', 'http://hooks.example.com/hooks', 'https://HOOKS.example.com:8443/']) {
    expect(webhookUrlRefusal(other, policy)).toMatch(/^is not allowed: its host is listed in AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES only as https:\/\/hooks\.example\.com/);
  }
  // An unlisted host keeps the production default's rule.
  expect(webhookUrlRefusal('https://other.example.com:8443/hooks', policy)).toBeNull();
  // Stored before (under a laxer policy), the other port of the listed host, resolving to the internal receiver, is
  // not contacted: the text is checked again before the attempt.
  await store.createWebhookEndpoint({ environmentId: 'env_a', url: `https://hooks.example.com:${receiver.port}/hooks`, events: null, secret: newWebhookSecret() });
  const connection = await store.createConnection(newConnection('env_a'));
  const account = await store.ensureAccount('env_a', connection.id, 'user-1');
  await store.saveTokens(account.id, tokens(), { event: { type: 'account.connected' } });
  answer = '127.0.0.1';
  const d = new WebhookDispatcher({ store, urlRefusal: (u) => webhookUrlRefusal(u, policy), addressRefusal: (hostname, address) => webhookAddressRefusal(hostname, address, policy), lookup, timeoutMs: 2000 });
  dispatchers.push(d);
  expect(await d.runOnce()).toBe(1);
  const [delivery] = await store.listWebhookDeliveries('env_a');
  expect(receiver.connections).toBe(0);
  expect(delivery!.lastError).toMatch(/^not sent: the endpoint URL is not allowed: its host is listed/);
});
