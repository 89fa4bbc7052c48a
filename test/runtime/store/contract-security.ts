/** Contract, part 3: secrets at rest: nothing readable in a dump, ciphertexts bound to their row, key rotation. */
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../runtime/crypto/secret-hash.js';
import { SecretDecryptError } from '../../../runtime/crypto/secret-box.js';
import type { AccountRecord, Store } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';
import { inMinutes, keyring1, keyring21, keyring2only, newConnection, secret, tokens } from './fixtures.js';

const SECRET_COLUMNS: [table: string, key: string, column: string][] = [
  ['connections', 'id', 'client_secret'],
  ['connected_accounts', 'id', 'access_token'],
  ['connected_accounts', 'id', 'refresh_token'],
  ['oauth_states', 'state_hash', 'code_verifier'],
];

/** Seeds two of everything and returns every plaintext secret written. */
async function seed(store: Store): Promise<{ secrets: string[]; connIds: string[]; accountIds: string[] }> {
  const secrets: string[] = [];
  await store.createEnvironment({ id: 'env_a', name: 'A' });
  const appSecret = secret('app');
  secrets.push(appSecret);
  await store.createAppClient({ clientId: 'acl_1', environmentId: 'env_a', secretHash: await hashSecret(appSecret) });
  const connIds: string[] = [];
  const accountIds: string[] = [];
  for (const name of ['calendar', 'notion']) {
    const input = newConnection('env_a', { name });
    secrets.push(input.clientSecret);
    const conn = await store.createConnection(input);
    connIds.push(conn.id);
    for (const who of ['alice', 'bob']) {
      const acc = await store.ensureAccount('env_a', conn.id, who);
      accountIds.push(acc.id);
      // Two writes: the first token set is replaced, and must not linger anywhere either.
      for (let i = 0; i < 2; i++) {
        const t = tokens();
        secrets.push(t.accessToken, t.refreshToken!);
        await store.saveTokens(acc.id, t);
      }
      const verifier = secret('pkce');
      secrets.push(verifier);
      await store.createOAuthState({ stateHash: `${acc.id}-state`, environmentId: 'env_a', connectionId: conn.id, accountId: acc.id, identifier: who, codeVerifier: verifier, browserHash: 'b', redirectUrl: null, expiresAt: inMinutes(10) });
    }
  }
  return { secrets, connIds, accountIds };
}

/**
 * A client secret that does not decrypt fails its credentials read alone: `invalid_request` naming the connection,
 * the decryption error (naming the record, never a value) as its cause, and nothing of any plaintext.
 */
export async function expectUnreadableSecret(promise: Promise<unknown>, connectionName: string, aad: string, reason: RegExp, plaintexts: string[]): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code: 'invalid_request', details: { connection: connectionName, reason: 'client_secret_undecryptable' } });
  const message = (err as Error).message;
  expect(message).toContain(JSON.stringify(connectionName));
  expect(message).toMatch(/cannot be decrypted/);
  const cause = (err as Error).cause;
  expect(cause).toBeInstanceOf(SecretDecryptError);
  expect((cause as Error).message).toContain(aad);
  expect((cause as Error).message).toMatch(reason);
  for (const p of plaintexts) expect(`${message} ${(cause as Error).message} ${JSON.stringify(err)}`).not.toContain(p);
}

/**
 * An account row whose tokens do not decrypt is read, not thrown on (issue 14, item 1): EXPIRED, no tokens, the
 * `undecryptable` reason, and nothing of another row's plaintext.
 */
function expectUndecryptable(account: AccountRecord | null | undefined, plaintexts: string[]): void {
  expect(account).toMatchObject({ status: 'EXPIRED', tokens: null, statusReason: expect.stringMatching(/^undecryptable: /) });
  for (const p of plaintexts) expect(JSON.stringify(account)).not.toContain(p);
}

export function securityContract(ctx: ContractContext): void {
  describe('secrets at rest', () => {
    it('a raw dump of every table and of the bytes at rest contains no seeded secret', async () => {
      const { secrets } = await seed(ctx.store);
      expect(await ctx.db.tables()).toEqual(
        expect.arrayContaining(['environments', 'app_clients', 'connections', 'connected_accounts', 'auth_links', 'oauth_states']),
      );
      const text = await ctx.db.dumpText();
      const bytes = (await ctx.db.dumpBytes()).toString('latin1');
      // The dumps are real: they contain the non-secret data.
      expect(text).toContain('alice');
      expect(bytes).toContain('alice');
      expect(text).toMatch(/v1\.k1\./);
      for (const s of secrets) {
        expect(text).not.toContain(s);
        expect(bytes).not.toContain(s);
      }
      // Every secret column holds a sealed value.
      for (const [table, , column] of SECRET_COLUMNS) {
        for (const row of await ctx.db.query(`SELECT ${column} AS v FROM ${table}`)) expect(String(row.v)).toMatch(/^v1\.k1\.[\w-]{16}\.[\w-]+$/);
      }
    });

    it('a ciphertext moved to another row or column does not decrypt there (the account reads as undecryptable)', async () => {
      const { connIds, accountIds } = await seed(ctx.store);
      const [a1, a2] = accountIds as [string, string];
      const plain = (await ctx.store.getAccount('env_a', a1))!.tokens!;
      const row1 = (await ctx.db.query('SELECT access_token FROM connected_accounts WHERE id = ?', [a1]))[0]!;
      await ctx.db.query('UPDATE connected_accounts SET access_token = ? WHERE id = ?', [row1.access_token as string, a2]);
      expectUndecryptable(await ctx.store.getAccount('env_a', a2), [plain.accessToken]);
      const listed = await ctx.store.listAccounts('env_a');
      expectUndecryptable(listed.find((a) => a.id === a2), [plain.accessToken]);
      expect(listed.find((a) => a.id === a1)?.tokens?.accessToken).toBe(plain.accessToken);

      // Same row, other column: an access token cannot be served as the refresh token.
      await ctx.db.query('UPDATE connected_accounts SET refresh_token = access_token WHERE id = ?', [a1]);
      expectUndecryptable(await ctx.store.getAccount('env_a', a1), [plain.accessToken]);

      const [c1, c2] = connIds as [string, string];
      const secret1 = (await ctx.store.getClientCredentials('env_a', c1))!.clientSecret;
      await ctx.db.query('UPDATE connections SET client_secret = (SELECT client_secret FROM connections WHERE id = ?) WHERE id = ?', [c1, c2]);
      await expectUnreadableSecret(ctx.store.getClientCredentials('env_a', c2), 'notion', `connections|${c2}|client_secret`, /authentication failed/, [secret1]);
      expect((await ctx.store.getClientCredentials('env_a', c1))!.clientSecret).toBe(secret1);
    });

    it('key rotation: old rows stay readable, new writes and reencryptAll use the new kid', async () => {
      const { connIds, accountIds } = await seed(ctx.store);
      const before = await ctx.store.listAccounts('env_a');
      const connsBefore = await ctx.store.listConnections('env_a');
      const credentialsBefore = await Promise.all(connIds.map((id) => ctx.store.getClientCredentials('env_a', id)));
      const rotated = await ctx.open(keyring21);
      // Readable with the old key still in the ring, before anything is rewritten.
      expect(await rotated.listAccounts('env_a')).toEqual(before);
      const fresh = tokens();
      const saved = await rotated.saveTokens(accountIds[0]!, fresh);
      const [raw] = await ctx.db.query('SELECT access_token, refresh_token FROM connected_accounts WHERE id = ?', [accountIds[0]!]);
      expect(String(raw!.access_token)).toMatch(/^v1\.k2\./);
      expect(String(raw!.refresh_token)).toMatch(/^v1\.k2\./);
      // The old instance (k1 only) cannot read the new write, and says so without leaking anything.
      expectUndecryptable(await ctx.store.getAccount('env_a', accountIds[0]!), [fresh.accessToken]);

      // 1 connection secret x2, 4 accounts x2 tokens (one account already rewritten), 4 verifiers.
      const count = await rotated.reencryptAll();
      expect(count).toBe(2 + 3 * 2 + 4);
      expect(await rotated.reencryptAll()).toBe(0);
      for (const [table, , column] of SECRET_COLUMNS) {
        for (const row of await ctx.db.query(`SELECT ${column} AS v FROM ${table}`)) expect(String(row.v)).toMatch(/^v1\.k2\./);
      }
      // With the old key gone everything still reads, unchanged.
      const newOnly = await ctx.open(keyring2only);
      const after = await newOnly.listAccounts('env_a');
      expect(after.map((a) => a.tokens)).toEqual(before.map((a) => (a.id === accountIds[0] ? saved!.tokens : a.tokens)));
      expect(await newOnly.listConnections('env_a')).toEqual(connsBefore);
      expect(await Promise.all(connIds.map((id) => newOnly.getClientCredentials('env_a', id)))).toEqual(credentialsBefore);
      expect(connIds).toHaveLength(2);
      const states = await Promise.all(accountIds.map((id) => newOnly.consumeOAuthState(`${id}-state`)));
      expect(states.every((s) => s?.codeVerifier?.startsWith('pkce-'))).toBe(true);
      expect(keyring1.current.kid).toBe('k1');
    });

    it('connection records carry no client secret; getClientCredentials opens it, in its own environment only', async () => {
      const { connIds } = await seed(ctx.store);
      const input = newConnection('env_a', { name: 'third' });
      const created = await ctx.store.createConnection(input);
      const reads = [
        created,
        await ctx.store.getConnection('env_a', created.id),
        await ctx.store.getConnectionByName('env_a', 'third'),
        ...(await ctx.store.listConnections('env_a')),
        await ctx.store.updateConnection('env_a', created.id, { scopes: ['x'] }),
      ];
      expect(reads).toHaveLength(3 + 4);
      for (const record of reads) {
        expect(record).not.toBeNull();
        expect(record).not.toHaveProperty('clientSecret');
        expect(JSON.stringify(record)).not.toContain(input.clientSecret);
      }
      expect(await ctx.store.getClientCredentials('env_a', created.id)).toEqual({ clientId: input.clientId, clientSecret: input.clientSecret });
      await ctx.store.updateConnection('env_a', created.id, { clientId: 'cid-2', clientSecret: 'replaced-secret' });
      expect(await ctx.store.getClientCredentials('env_a', created.id)).toEqual({ clientId: 'cid-2', clientSecret: 'replaced-secret' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      expect(await ctx.store.getClientCredentials('env_b', created.id)).toBeNull();
      expect(await ctx.store.getClientCredentials('env_a', 'conn_missing')).toBeNull();
      expect(connIds).toHaveLength(2);
    });

    it('a client secret sealed with a key no longer in the keyring fails its credentials read alone, until it is set again', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const kept = await ctx.store.createConnection(newConnection('env_a', { name: 'kept' }));
      // Written by an instance whose current key (k2) this store (k1 only) does not have.
      const lostInput = newConnection('env_a', { name: 'lost', connector: 'crm' });
      const lost = await (await ctx.open(keyring21)).createConnection(lostInput);
      const account = await ctx.store.ensureAccount('env_a', lost.id, 'user-1');
      await ctx.store.saveTokens(account.id, tokens());

      // Everything but the secret reads as before: lists, lookups, the account on it.
      // (Both may be created in one millisecond, where the list orders them by their random ids.)
      expect((await ctx.store.listConnections('env_a')).map((c) => c.name).sort()).toEqual(['kept', 'lost']);
      expect(await ctx.store.getConnectionByName('env_a', 'lost')).toEqual(lost);
      expect(await ctx.store.getConnection('env_a', lost.id)).toEqual(lost);
      expect((await ctx.store.findAccount('env_a', lost.id, 'user-1'))?.status).toBe('ACTIVE');
      expect((await ctx.store.getClientCredentials('env_a', kept.id))?.clientId).toBe(kept.clientId);
      await expectUnreadableSecret(ctx.store.getClientCredentials('env_a', lost.id), 'lost', `connections|${lost.id}|client_secret`, /key id "k2" is not in the keyring/, [lostInput.clientSecret]);

      // Setting the secret again (sealed with this store's key) makes it readable.
      expect(await ctx.store.updateConnection('env_a', lost.id, { clientSecret: 'set-again' })).toMatchObject({ name: 'lost' });
      expect(await ctx.store.getClientCredentials('env_a', lost.id)).toEqual({ clientId: lostInput.clientId, clientSecret: 'set-again' });
    });

  describe('revocation and link states (migration 6)', () => {
    it('rotating a client secret bumps its token generation; deleting a client or an environment removes it', async () => {
      await seed(ctx.store);
      expect((await ctx.store.getAppClient('acl_1'))?.tokenGeneration).toBe(0);
      const rotated = await ctx.store.rotateAppClientSecret('acl_1', await hashSecret('new-secret'));
      expect(rotated).toMatchObject({ clientId: 'acl_1', environmentId: 'env_a', tokenGeneration: 1 });
      expect(await ctx.store.rotateAppClientSecret('nobody', 'x')).toBeNull();
      expect(await ctx.store.deleteAppClient('acl_1')).toBe(true);
      expect(await ctx.store.getAppClient('acl_1')).toBeNull();
      expect(await ctx.store.deleteAppClient('acl_1')).toBe(false);
      await ctx.store.createAppClient({ clientId: 'acl_2', environmentId: 'env_a', secretHash: 'h' });
      expect(await ctx.store.deleteEnvironment('env_a')).toBe(true);
      expect(await ctx.store.getEnvironment('env_a')).toBeNull();
      expect(await ctx.store.getAppClient('acl_2')).toBeNull();
      expect(await ctx.store.listAccounts('env_a')).toEqual([]);
      expect(await ctx.store.deleteEnvironment('env_a')).toBe(false);
    });

    it('a revoked token id stays revoked until it expires, then the purge forgets it', async () => {
      expect(await ctx.store.isTokenRevoked('jti-1')).toBe(false);
      await ctx.store.revokeToken('jti-1', inMinutes(10));
      await ctx.store.revokeToken('jti-1', inMinutes(10));
      expect(await ctx.store.isTokenRevoked('jti-1')).toBe(true);
      await ctx.store.purgeExpired(inMinutes(20));
      expect(await ctx.store.isTokenRevoked('jti-1')).toBe(false);
    });

    it('a link holds one pending state: a new one replaces it, its raw state is sealed at rest and read back', async () => {
      const { connIds, accountIds } = await seed(ctx.store);
      const base = { environmentId: 'env_a', connectionId: connIds[0]!, accountId: accountIds[0]!, identifier: 'alice', codeVerifier: null, browserHash: 'b', redirectUrl: null, expiresAt: inMinutes(10), linkHash: 'link-1' };
      const first = secret('state');
      await ctx.store.createOAuthState({ ...base, stateHash: 'h-1', state: first });
      expect(await ctx.store.getLinkOAuthState('link-1')).toMatchObject({ stateHash: 'h-1', state: first, linkHash: 'link-1' });
      await ctx.store.createOAuthState({ ...base, stateHash: 'h-1', state: first, browserHash: 'b2' });
      expect(await ctx.store.getLinkOAuthState('link-1')).toMatchObject({ stateHash: 'h-1', browserHash: 'b2' });
      const second = secret('state');
      await ctx.store.createOAuthState({ ...base, stateHash: 'h-2', state: second });
      expect(await ctx.store.getLinkOAuthState('link-1')).toMatchObject({ stateHash: 'h-2', state: second });
      expect(await ctx.store.consumeOAuthState('h-1')).toBeNull();
      expect(await ctx.db.query('SELECT state_hash FROM oauth_states WHERE link_hash = ?', ['link-1'])).toHaveLength(1);
      expect(await ctx.db.dumpText()).not.toContain(second);
      expect((await ctx.store.consumeOAuthState('h-2'))?.state).toBe(second);
      expect(await ctx.store.getLinkOAuthState('link-1')).toBeNull();
    });
  });
});
}
