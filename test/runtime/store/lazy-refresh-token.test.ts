import { describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import { keyring1, newConnection, tokens } from './fixtures.js';
import { newSqliteDatabase } from './harness.js';

describe('findAccount opens the refresh token only when it is read', () => {
  it('gives the same record as getAccount; a refresh token that does not authenticate reads as absent there, and getAccount reports the account undecryptable', async () => {
    const db = await newSqliteDatabase();
    try {
      const store = await openStore({ ...db.options, keyring: keyring1 });
      await store.migrate();
      await store.createEnvironment({ id: 'env_a', name: 'a' });
      const conn = await store.createConnection(newConnection('env_a'));
      const [a1, a2] = [await store.ensureAccount('env_a', conn.id, 'u1'), await store.ensureAccount('env_a', conn.id, 'u2')];
      const set = tokens();
      await store.saveTokens(a1.id, set);
      await store.saveTokens(a2.id, tokens());

      const found = await store.findAccount('env_a', conn.id, 'u1');
      expect(found).toEqual(await store.getAccount('env_a', a1.id));
      expect(found!.tokens!.refreshToken).toBe(set.refreshToken);
      expect({ ...found!.tokens }).toEqual(set);

      // u2's refresh token copied onto u1: the access token still opens; the refresh token does not. On the lazy
      // read it is absent (a refresh then asks for reauthorization instead of failing the call); the eager read
      // (getAccount, the refresh coordinator's) reports the whole account undecryptable, EXPIRED, with no tokens.
      await db.query('UPDATE connected_accounts SET refresh_token = (SELECT refresh_token FROM connected_accounts WHERE id = ?) WHERE id = ?', [a2.id, a1.id]);
      const moved = await store.findAccount('env_a', conn.id, 'u1');
      expect(moved!.tokens!.accessToken).toBe(set.accessToken);
      expect(moved!.tokens!.refreshToken).toBeNull();
      const eager = await store.getAccount('env_a', a1.id);
      expect(eager).toMatchObject({ status: 'EXPIRED', tokens: null });
      expect(eager!.statusReason).toMatch(/^undecryptable:/);
      await store.close();
    } finally {
      await db.destroy();
    }
  });
});
