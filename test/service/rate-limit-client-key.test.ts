/**
 * The per-address budgets (credentials, link opens) key a client by its address: every spelling of one IPv6 /64 is one
 * key and another /64 another; IPv4 and its IPv4-mapped IPv6 forms are the IPv4 address.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../runtime/errors.js';
import { clientKey, registerRateLimits } from '../../runtime/service/rate-limits.js';

describe('clientKey', () => {
  it('gives every spelling of one /64 one key, the four groups without leading zeros', () => {
    const spellings = ['2001:db8:a:b::1', '2001:DB8:A:B::1', '2001:0db8:000a:000b:0000:0000:0000:0001', '2001:db8:a:b:ffff:ffff:ffff:ffff', '2001:Db8:a:B::', '2001:db8:a:b:1:2:3.4.5.6'];
    expect(new Set(spellings.map(clientKey))).toEqual(new Set(['2001:db8:a:b::/64']));
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('gives another /64 another key', () => {
    expect(clientKey('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(clientKey('2001:db8:a:b::1')).not.toBe(clientKey('2001:db8:a:c::1'));
    expect(clientKey('2001:db9:a:b::1')).not.toBe(clientKey('2001:db8:a:b::1'));
  });

  it('keys IPv4 and IPv4-mapped IPv6, dotted or hex, by the IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('::ffff:7f00:1')).toBe('127.0.0.1');
  });

  it('leaves what is not an address as it is', () => {
    expect(clientKey('not-an-address')).toBe('not-an-address');
    expect(clientKey('')).toBe('');
  });
});

/**
 * A service with the credentials budget alone, one request a minute per client key, held in memory: `allowed(address)`
 * spends it from that address and says whether the request was let through.
 */
async function credentialsBudget(): Promise<{ app: FastifyInstance; allowed(remoteAddress: string): Promise<boolean> }> {
  const app = Fastify();
  const limits = await registerRateLimits(app, { credentials: { max: 1, windowMs: 60_000 }, api: false, linkOpens: false });
  app.get('/check', async (request) => {
    try {
      await limits.credentials(request);
      return { allowed: true };
    } catch (error) {
      if (isConnectorError(error) && error.code === 'rate_limited') return { allowed: false };
      throw error;
    }
  });
  const allowed = async (remoteAddress: string) => ((await app.inject({ method: 'GET', url: '/check', remoteAddress })).json() as { allowed: boolean }).allowed;
  return { app, allowed };
}

describe('the credentials budget, per client key', () => {
  it('one /64 spends one budget whatever its spelling; another /64 and an IPv4 client have their own', async () => {
    const { app, allowed } = await credentialsBudget();
    try {
      expect(await allowed('2001:db8:a:b::1')).toBe(true);
      expect(await allowed('2001:0DB8:000A:000B:0:0:0:2')).toBe(false);
      expect(await allowed('2001:db8:a:c::1')).toBe(true);
      expect(await allowed('203.0.113.7')).toBe(true);
      expect(await allowed('::ffff:cb00:7107')).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('the in-memory counters', () => {
  it('keep 10,000 clients per budget: a client refused stays refused after 6,000 others (the plugin sized each budget for 5,000)', async () => {
    const { app, allowed } = await credentialsBudget();
    try {
      expect(await allowed('198.51.100.1')).toBe(true);
      expect(await allowed('198.51.100.1')).toBe(false);
      for (let i = 0; i < 6000; i++) await allowed(`10.0.${i >> 8}.${i & 255}`);
      expect(await allowed('198.51.100.1')).toBe(false);
    } finally {
      await app.close();
    }
  }, 30_000);
});
