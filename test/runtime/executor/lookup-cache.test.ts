import { describe, expect, it } from 'vitest';
import { LookupCache, LOOKUP_TTL_MS } from '../../../runtime/executor/lookup-cache.js';
import type { AccountRecord, ConnectionRecord } from '../../../runtime/store/types.js';

const connection = (environmentId: string, name: string, id = `conn_${name}`): ConnectionRecord => ({
  id,
  environmentId,
  name,
  connector: 'crm',
  clientId: 'client',
  scopes: [],
  overrides: {},
  allowedRedirectUrls: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const account = (environmentId: string, connectionId: string, identifier: string, status: AccountRecord['status'] = 'ACTIVE'): AccountRecord => ({
  id: `acct_${identifier}`,
  environmentId,
  connectionId,
  identifier,
  status,
  tokens: status === 'ACTIVE' ? { accessToken: 'a', refreshToken: 'r', expiresAt: null, tokenType: 'Bearer', scopes: [] } : null,
  providerInfo: {},
  statusReason: null,
  tokenVersion: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** A cache on a clock the test moves (the connector hands its own clock to the cache it builds). */
function cacheWithClock(ttlMs?: number): { cache: LookupCache; clock: { now: number } } {
  const clock = { now: 1_000 };
  return { cache: new LookupCache({ now: () => clock.now, ttlMs }), clock };
}

describe('LookupCache', () => {
  it('answers a connection, an account and an implicit choice until the TTL has passed on its clock', () => {
    const { cache, clock } = cacheWithClock();
    const conn = connection('env_1', 'crm');
    cache.setConnection(conn);
    cache.setAccount(account('env_1', conn.id, 'user-1'));
    cache.setSoleConnection('user-1', conn);
    clock.now += LOOKUP_TTL_MS - 1;
    expect(cache.connection('env_1', 'crm')).toBe(conn);
    expect(cache.account('env_1', conn.id, 'user-1')?.identifier).toBe('user-1');
    expect(cache.soleConnection('env_1', 'crm', 'user-1')).toBe(conn);
    clock.now += 1;
    expect(cache.connection('env_1', 'crm')).toBeUndefined();
    expect(cache.account('env_1', conn.id, 'user-1')).toBeUndefined();
    expect(cache.soleConnection('env_1', 'crm', 'user-1')).toBeUndefined();
  });

  it('keeps environments, connections and identifiers apart, including ids that are prefixes of others', () => {
    const { cache } = cacheWithClock();
    cache.setConnection(connection('env_1', 'crm'));
    cache.setAccount(account('env_1', 'conn_a', 'user'));
    expect(cache.connection('env_10', 'crm')).toBeUndefined();
    expect(cache.connection('env_1', 'crm2')).toBeUndefined();
    expect(cache.account('env_1', 'conn_ab', 'user')).toBeUndefined();
    expect(cache.account('env_1', 'conn_a', 'use')).toBeUndefined();
    // A separator inside an id cannot make two different pairs meet.
    cache.setAccount(account('env_1\u0000conn_a', 'x', 'user'));
    expect(cache.account('env_1', 'conn_a\u0000x', 'user')).toBeUndefined();
  });

  it('invalidates exactly one environment', () => {
    const { cache } = cacheWithClock();
    for (const env of ['env_1', 'env_10']) {
      cache.setConnection(connection(env, 'crm'));
      cache.setAccount(account(env, 'conn_crm', 'user'));
      cache.setSoleConnection('user', connection(env, 'crm'));
    }
    cache.invalidateEnvironment('env_1');
    expect(cache.connection('env_1', 'crm')).toBeUndefined();
    expect(cache.account('env_1', 'conn_crm', 'user')).toBeUndefined();
    expect(cache.soleConnection('env_1', 'crm', 'user')).toBeUndefined();
    expect(cache.connection('env_10', 'crm')).toBeDefined();
    expect(cache.account('env_10', 'conn_crm', 'user')).toBeDefined();
    expect(cache.soleConnection('env_10', 'crm', 'user')).toBeDefined();
  });

  it("drops an account and its identifier's implicit choices, and nobody else's", () => {
    const { cache } = cacheWithClock();
    const conn = connection('env_1', 'crm');
    cache.setAccount(account('env_1', conn.id, 'user-1'));
    cache.setAccount(account('env_1', conn.id, 'user-2'));
    cache.setSoleConnection('user-1', conn);
    cache.setSoleConnection('user-2', conn);
    cache.invalidateAccount({ environmentId: 'env_1', connectionId: conn.id, identifier: 'user-1' });
    expect(cache.account('env_1', conn.id, 'user-1')).toBeUndefined();
    expect(cache.soleConnection('env_1', 'crm', 'user-1')).toBeUndefined();
    expect(cache.account('env_1', conn.id, 'user-2')).toBeDefined();
    expect(cache.soleConnection('env_1', 'crm', 'user-2')).toBe(conn);
  });

  it('caches only ACTIVE accounts with tokens, and nothing with a TTL of 0', () => {
    const { cache } = cacheWithClock();
    cache.setAccount(account('env_1', 'c', 'expired', 'EXPIRED'));
    expect(cache.account('env_1', 'c', 'expired')).toBeUndefined();
    const off = cacheWithClock(0).cache;
    off.setConnection(connection('env_1', 'crm'));
    expect(off.connection('env_1', 'crm')).toBeUndefined();
  });

  it('stays bounded: past 10,000 entries the oldest goes, one at a time', () => {
    const { cache } = cacheWithClock();
    for (let i = 0; i < 10_000; i++) cache.setAccount(account('env_1', `conn_${i % 7}`, `user-${i}`));
    expect(cache.account('env_1', 'conn_0', 'user-0')).toBeDefined();
    // Replacing an entry does not count as a new one, and makes it the newest.
    cache.setAccount(account('env_1', 'conn_0', 'user-0'));
    expect(cache.account('env_1', 'conn_1', 'user-1')).toBeDefined();
    cache.setAccount(account('env_1', 'conn_x', 'user-new'));
    expect(cache.account('env_1', 'conn_1', 'user-1')).toBeUndefined();
    expect(cache.account('env_1', 'conn_0', 'user-0')).toBeDefined();
    expect(cache.account('env_1', 'conn_2', 'user-2')).toBeDefined();
    expect(cache.account('env_1', 'conn_x', 'user-new')).toBeDefined();
  });

  it('belongs to its instance: two caches (two connectors) share no entry', () => {
    const one = cacheWithClock().cache;
    const two = cacheWithClock().cache;
    one.setConnection(connection('env_1', 'crm'));
    expect(two.connection('env_1', 'crm')).toBeUndefined();
    expect(one.connection('env_1', 'crm')).toBeDefined();
  });

  it('shares one store read among concurrent misses for the same key, and starts a new one after invalidation', async () => {
    const { cache } = cacheWithClock();
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = async () => {
      reads++;
      await gate;
      return account('env_1', 'conn_a', 'user');
    };
    const first = [cache.loadAccount('env_1', 'conn_a', 'user', read), cache.loadAccount('env_1', 'conn_a', 'user', read)];
    // Another key is its own read.
    const other = cache.loadAccount('env_1', 'conn_a', 'someone-else', read);
    expect(reads).toBe(2);
    cache.invalidateAccount({ environmentId: 'env_1', connectionId: 'conn_a', identifier: 'user' });
    const after = cache.loadAccount('env_1', 'conn_a', 'user', read);
    expect(reads).toBe(3);
    release();
    const [a, b] = await Promise.all(first);
    expect(a).toBe(b);
    await Promise.all([other, after]);
    expect(cache.account('env_1', 'conn_a', 'user')).toBeDefined();
    // Settled reads are not kept: a later miss reads again.
    cache.invalidateAccount({ environmentId: 'env_1', connectionId: 'conn_a', identifier: 'user' });
    await cache.loadAccount('env_1', 'conn_a', 'user', read);
    expect(reads).toBe(4);
  });

  it('shares a connection read the same way and remembers only a connection that exists', async () => {
    const { cache } = cacheWithClock();
    let reads = 0;
    const read = async () => {
      reads++;
      return null;
    };
    expect(await Promise.all([cache.loadConnection('env_1', 'crm', read), cache.loadConnection('env_1', 'crm', read)])).toEqual([null, null]);
    expect(reads).toBe(1);
    expect(cache.connection('env_1', 'crm')).toBeUndefined();
  });
});
