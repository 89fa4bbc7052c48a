/**
 * An override's API host is judged again by the address its name resolves to when the connection is made: a name the
 * text rule accepts that resolves to an address the rule refuses (here 0.0.0.0, unspecified, which reaches this
 * host) is not contacted, and the call fails with the error a refused override gets. No real DNS: the connector's
 * resolver answers the made-up name `api.example.com` as each test says.
 */
import { createServer, type AddressInfo, type LookupFunction, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../connector-harness.js';

const answers: Record<string, string> = { localhost: '127.0.0.1' };
/** Answers the names in `answers`; any other name is not found (no test reaches real DNS). */
const lookup: LookupFunction = (hostname, options, callback) => {
  const address = answers[hostname];
  if (address === undefined) return callback(Object.assign(new Error(`${hostname} is not a test name`), { code: 'ENOTFOUND' }), '');
  if (options.all === true) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
};

let h: Harness;
let server: Server;
let connections = 0;
let apiBaseUrl: string;

beforeAll(async () => {
  h = await startHarness({ runtime: { httpHooks: { lookup } } });
  // Counts connections, not requests: the https call to it never gets as far as a request.
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiBaseUrl = `https://api.example.com:${(server.address() as AddressInfo).port}`;
  await h.connection('workspace', 'resolved');
  await h.authorize('resolved', 'dns-user');
  await h.env.updateConnection('resolved', { overrides: { ...(await h.env.getConnection('resolved')).overrides, apiBaseUrl } });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h?.close();
});

const call = () => h.env.proxy({ connection_name: 'resolved', identifier: 'dns-user', method: 'GET', path: '/v1/users/me' });

it('does not contact an override host whose name resolves to a forbidden address, and says why', async () => {
  answers['api.example.com'] = '0.0.0.0';
  connections = 0;
  const error = await call().catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('api.example.com resolved to 0.0.0.0, which is not allowed: link-local and unspecified addresses') });
  // The user's token is in the request, never in the error.
  expect(JSON.stringify(error)).not.toMatch(/Bearer/i);
  expect(connections).toBe(0);
});

it('connects when the same name resolves to an address the development policy allows (loopback)', async () => {
  answers['api.example.com'] = '127.0.0.1';
  connections = 0;
  await expect(call()).rejects.toMatchObject({ code: 'upstream_error' });
  expect(connections).toBeGreaterThan(0);
});
