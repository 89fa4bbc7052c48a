import { describe, expect, it } from 'vitest';
import { PrecheckCache } from '../../../runtime/executor/precheck-cache.js';
import { closestMatch } from '../../../runtime/validation/closest-match.js';

describe('PrecheckCache', () => {
  it('keeps a value per account for its TTL, then forgets it', () => {
    const clock = { now: 0 };
    const cache = new PrecheckCache(() => clock.now, 1000);
    cache.set('acc-1', 'k', 'v1');
    cache.set('acc-2', 'k', 'v2');
    expect(cache.get('acc-1', 'k')).toBe('v1');
    expect(cache.get('acc-2', 'k')).toBe('v2');
    clock.now = 999;
    expect(cache.get('acc-1', 'k')).toBe('v1');
    clock.now = 1000;
    expect(cache.get('acc-1', 'k')).toBeUndefined();
  });

  it('drops only the refused account', () => {
    const cache = new PrecheckCache(() => 0, 1000);
    cache.set('acc-1', 'a', 1);
    cache.set('acc-1', 'b', 2);
    cache.set('acc-2', 'a', 3);
    cache.invalidateAccount('acc-1');
    expect([cache.get('acc-1', 'a'), cache.get('acc-1', 'b'), cache.get('acc-2', 'a')]).toEqual([undefined, undefined, 3]);
  });

  it('stays bounded: past 10,000 entries the oldest entry goes, not the rest of its account', () => {
    const cache = new PrecheckCache(() => 0, 1000);
    cache.set('acc-old', 'first', 1);
    cache.set('acc-old', 'second', 2);
    for (let i = 2; i < 10_000; i++) cache.set(`acc-${i}`, 'k', i);
    expect(cache.get('acc-old', 'first')).toBe(1);
    cache.set('acc-new', 'k', 'new');
    expect([cache.get('acc-old', 'first'), cache.get('acc-old', 'second'), cache.get('acc-2', 'k'), cache.get('acc-new', 'k')]).toEqual([undefined, 2, 2, 'new']);
  });

  it('keeps accounts and keys apart whatever characters they hold', () => {
    const cache = new PrecheckCache(() => 0, 1000);
    cache.set('a:b', 'c', 1);
    expect(cache.get('a', 'b:c')).toBeUndefined();
  });

  it('a TTL of 0 caches nothing', () => {
    const cache = new PrecheckCache(() => 0, 0);
    cache.set('acc', 'k', 1);
    expect(cache.get('acc', 'k')).toBeUndefined();
  });
});

describe('closestMatch', () => {
  it.each([
    ['status', ['Name', 'Status', 'Stats'], 'Status'],
    ['Prority', ['Priority', 'Due'], 'Priority'],
    ['Deadline', ['Priority', 'Due'], undefined],
    ['x', ['Due'], undefined],
  ])('%s in %j -> %s', (wanted, known, want) => {
    expect(closestMatch(wanted, known)).toBe(want);
  });
});
