/**
 * The connect-time check of a host name's answer (`http/guarded-lookup.ts`) and the rules it applies: the policy's
 * own text rules judging the resolved address as a URL's host. No real DNS: the wrapped resolver answers made-up names.
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readOverridePolicy, resolvedAddressRefusal } from '../../../runtime/connection-override-policy.js';
import { FORBIDDEN_ADDRESS, ForbiddenAddressError, guardedLookup } from '../../../runtime/http/guarded-lookup.js';
import { webhookAddressRefusal } from '../../../runtime/webhooks/endpoint-url.js';

/** A resolver that answers every name with `addresses`, in whichever form it is asked for. */
function answering(...addresses: string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const all: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all === true) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  };
}

/** What the guarded lookup hands the connect step, or the error it fails with. */
function resolve(lookup: LookupFunction, hostname: string, all: boolean): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }> {
  return new Promise((done) => lookup(hostname, { all }, (error, address, family) => done({ error, address, family })));
}

const development = readOverridePolicy({}, false);
const production = readOverridePolicy({}, true);
const listed = readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'https://hooks.example.com' }, true);

describe('guardedLookup', () => {
  const strictWebhooks = guardedLookup((hostname, address) => webhookAddressRefusal(hostname, address, production), answering('203.0.113.10'));

  it('passes a public answer on to the connect step, in both forms', async () => {
    await expect(resolve(strictWebhooks, 'hooks.example.com', false)).resolves.toEqual({ error: null, address: '203.0.113.10', family: 4 });
    await expect(resolve(strictWebhooks, 'hooks.example.com', true)).resolves.toEqual({ error: null, address: [{ address: '203.0.113.10', family: 4 }], family: undefined });
  });

  it('refuses a name whose answer the policy forbids, naming the host, the address and the rule', async () => {
    const lookup = guardedLookup((hostname, address) => webhookAddressRefusal(hostname, address, production), answering('203.0.113.10', '127.0.0.1'));
    const { error } = await resolve(lookup, 'hooks.example.com', true);
    expect(error).toBeInstanceOf(ForbiddenAddressError);
    expect(error).toMatchObject({ code: FORBIDDEN_ADDRESS, hostname: 'hooks.example.com', address: '127.0.0.1' });
    expect(error!.message).toMatch(/^hooks\.example\.com resolved to 127\.0\.0\.1, which is not allowed: loopback, private and link-local addresses are not webhook targets/);
  });

  it('passes a resolver error through unchanged', async () => {
    const failing: LookupFunction = (_h, _o, callback) => callback(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }), '');
    const { error } = await resolve(guardedLookup(() => null, failing), 'nowhere.example', false);
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('the rules on resolved addresses', () => {
  const cases: [string, RegExp | null][] = [
    ['127.0.0.1', null],
    ['10.1.2.3', null],
    ['203.0.113.10', null],
    ['169.254.169.254', /link-local/],
    ['0.0.0.0', /unspecified/],
    ['::ffff:169.254.169.254', /link-local/],
    ['64:ff9b::a9fe:a9fe', /link-local/],
    ['64:ff9b:1::808:808', /local-use NAT64/],
  ];
  it.each(cases)('upstream answer %s', (address, refused) => {
    const verdict = resolvedAddressRefusal('api.example.com', address);
    if (refused === null) expect(verdict).toBeNull();
    else expect(verdict).toMatch(refused);
  });

  it('a loopback name (allowed over http by its text) is answered by a loopback address only', () => {
    // A search domain with a wildcard (api.localhost.corp.example.com) can answer it with any address: the request,
    // sent over plain http with the user's token, must then not leave the machine.
    for (const address of ['10.1.2.3', '203.0.113.10', '172.17.0.2']) {
      expect(resolvedAddressRefusal('api.localhost', address), address).toMatch(/api\.localhost is a loopback name: only a loopback address may answer it/);
      expect(resolvedAddressRefusal('localhost', address), address).toMatch(/loopback name/);
      expect(webhookAddressRefusal('hooks.localhost', address, development), address).toMatch(/loopback name/);
    }
    expect(resolvedAddressRefusal('api.localhost', '127.0.0.1')).toBeNull();
    expect(resolvedAddressRefusal('localhost', '::1')).toBeNull();
    expect(webhookAddressRefusal('hooks.localhost', '127.0.0.1', development)).toBeNull();
  });

  it('webhooks under the production default refuse every internal answer, as the text rule does', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '100.64.0.1', '::1', 'fd00::1', '::ffff:7f00:1', '64:ff9b::7f00:1', '169.254.169.254']) {
      expect(webhookAddressRefusal('hooks.example.com', address, production), address).toMatch(/not webhook targets/);
    }
    expect(webhookAddressRefusal('hooks.example.com', '203.0.113.10', production)).toBeNull();
  });

  it('a listed origin keeps its internal answers, never a link-local one; development allows loopback', () => {
    expect(webhookAddressRefusal('hooks.example.com', '10.1.2.3', listed)).toBeNull();
    expect(webhookAddressRefusal('hooks.example.com', '169.254.169.254', listed)).toMatch(/link-local/);
    // The production default with an origin added to it (as the development start adds the sandbox's).
    const productionListing = { mode: 'none' as const, allowedOrigins: ['https://hooks.example.com'] };
    expect(webhookAddressRefusal('hooks.example.com', '10.1.2.3', productionListing)).toBeNull();
    expect(webhookAddressRefusal('other.example.com', '10.1.2.3', productionListing)).toMatch(/not webhook targets/);
    expect(webhookAddressRefusal('hooks.example.com', '127.0.0.1', development)).toBeNull();
    expect(webhookAddressRefusal('hooks.example.com', '169.254.169.254', development)).toMatch(/link-local/);
  });
});
