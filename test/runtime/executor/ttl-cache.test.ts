import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../../runtime/executor/ttl-cache.js';

function cacheWithClock(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 5_000 };
  const cache = new TtlCache<string, number>({ ttlMs: options.ttlMs ?? 1_000, maxEntries: options.maxEntries ?? 100, now: () => clock.now });
  return { clock, cache };
}

describe('TtlCache', () => {
  it('keeps an entry for ttlMs by the injected clock, then forgets it', () => {
    const { clock, cache } = cacheWithClock();
    cache.set('a', 1);
    clock.now += 999;
    expect(cache.get('a')).toBe(1);
    clock.now += 1;
    expect(cache.get('a')).toBeUndefined();
    // Read stale, it was dropped: a clock set back does not bring it back.
    clock.now -= 500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('takes an entry written in the future of the clock (the clock was set back) as stale', () => {
    const { clock, cache } = cacheWithClock();
    cache.set('a', 1);
    clock.now -= 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('rewriting a key restarts its lifetime', () => {
    const { clock, cache } = cacheWithClock();
    cache.set('a', 1);
    clock.now += 600;
    cache.set('a', 2);
    clock.now += 600;
    expect(cache.get('a')).toBe(2);
  });

  it('at capacity a new key pushes out the entry written longest ago; a rewritten key counts as new', () => {
    const { cache } = cacheWithClock({ maxEntries: 3 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.set('a', 10); // rewritten: now the newest, and no eviction (still 3 keys)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([10, 2, 3]);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([10, undefined, 3, 4]);
    cache.set('e', 5);
    expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([10, undefined, 4, 5]);
    cache.set('f', 6);
    expect([cache.get('a'), cache.get('d'), cache.get('e'), cache.get('f')]).toEqual([undefined, 4, 5, 6]);
  });

  it('deletes one key, or every entry whose value is picked', () => {
    const { cache } = cacheWithClock();
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) cache.set(k, v);
    cache.delete('a');
    cache.deleteWhere((v) => v % 2 === 0);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, undefined, 3, undefined]);
  });

  it('a TTL of 0 caches nothing', () => {
    const { cache } = cacheWithClock({ ttlMs: 0 });
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds no state outside the instance: two caches share nothing', () => {
    const one = cacheWithClock().cache;
    const two = cacheWithClock().cache;
    one.set('a', 1);
    expect(two.get('a')).toBeUndefined();
    expect(one.get('a')).toBe(1);
  });
});
