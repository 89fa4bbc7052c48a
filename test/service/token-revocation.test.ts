import { describe, expect, it } from 'vitest';
import { RevocationCheck } from '../../runtime/service/token-revocation.js';
import type { AppClientRecord } from '../../runtime/store/types.js';

/** A store that counts its reads; every client exists in env_1 at generation 0. */
function countingStore() {
  const reads: string[] = [];
  return {
    reads,
    store: {
      getAppClient: async (clientId: string) => (reads.push(clientId), { clientId, environmentId: 'env_1', tokenGeneration: 0 } as AppClientRecord),
      isTokenRevoked: async (tokenId: string) => (reads.push(tokenId), false),
      revokeToken: async () => undefined,
    },
  };
}

describe('RevocationCheck', () => {
  it('reuses an answer for cacheMs on its clock, then asks the store again', async () => {
    const clock = { now: 0 };
    const { store, reads } = countingStore();
    const check = new RevocationCheck(store, { cacheMs: 1000, now: () => clock.now });
    expect(await check.clientStands('c1', 'env_1', 0)).toBe(true);
    clock.now = 999;
    expect(await check.clientStands('c1', 'env_1', 0)).toBe(true);
    expect(reads).toEqual(['c1']);
    clock.now = 1000;
    await check.clientStands('c1', 'env_1', 0);
    expect(reads).toEqual(['c1', 'c1']);
  });

  it('stays bounded by dropping the oldest answer, not all of them', async () => {
    const { store, reads } = countingStore();
    const check = new RevocationCheck(store, { cacheMs: 60_000, now: () => 0 });
    for (let i = 0; i < 10_001; i++) await check.isRevoked(`t${i}`);
    reads.length = 0;
    await check.isRevoked('t1');
    await check.isRevoked('t10000');
    expect(reads).toEqual([]);
    await check.isRevoked('t0');
    expect(reads).toEqual(['t0']);
  });
});
