/** Contract, part 1: every record operation, and environment isolation. */
import { describe, expect, it, vi } from 'vitest';
import { ConnectorError } from '../../../runtime/errors.js';
import { PgDriver } from '../../../runtime/store/postgres/pg-driver.js';
import { SqliteDriver } from '../../../runtime/store/sqlite/sqlite-driver.js';
import type { AccountStatus } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';
import { inMinutes, newConnection, tokens } from './fixtures.js';

export function recordsContract(ctx: ContractContext): void {
  describe('environments and app clients', () => {
    it('creates, gets and lists environments; refuses a duplicate id', async () => {
      const a = await ctx.store.createEnvironment({ id: 'env_a', name: 'Production' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'Staging' });
      expect(a).toMatchObject({ id: 'env_a', name: 'Production' });
      expect(Date.parse(a.createdAt)).not.toBeNaN();
      expect(await ctx.store.getEnvironment('env_a')).toEqual(a);
      expect(await ctx.store.getEnvironment('env_zz')).toBeNull();
      expect((await ctx.store.listEnvironments()).map((e) => e.id)).toEqual(['env_a', 'env_b']);
      await expect(ctx.store.createEnvironment({ id: 'env_a', name: 'again' })).rejects.toMatchObject({ code: 'conflict' });
    });

    it('stores app clients with their hash and refuses unknown environments', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const client = await ctx.store.createAppClient({ clientId: 'acl_1', environmentId: 'env_a', secretHash: 'scrypt$x' });
      expect(await ctx.store.getAppClient('acl_1')).toEqual(client);
      expect(await ctx.store.getAppClient('acl_2')).toBeNull();
      await expect(ctx.store.createAppClient({ clientId: 'acl_1', environmentId: 'env_a', secretHash: 'h' })).rejects.toMatchObject({ code: 'conflict' });
      await expect(ctx.store.createAppClient({ clientId: 'acl_3', environmentId: 'env_nope', secretHash: 'h' })).rejects.toBeInstanceOf(ConnectorError);
    });
  });

  describe('connections', () => {
    it('creates with a prefixed random id and reads back by id, by name and in a list', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const input = newConnection('env_a');
      const created = await ctx.store.createConnection(input);
      expect(created.id).toMatch(/^conn_[a-z2-7]{26}$/);
      const { clientSecret, ...fields } = input;
      expect(created).toMatchObject({ ...fields, environmentId: 'env_a' });
      expect(created).not.toHaveProperty('clientSecret');
      expect(await ctx.store.getClientCredentials('env_a', created.id)).toEqual({ clientId: input.clientId, clientSecret });
      expect(created.createdAt).toBe(created.updatedAt);
      expect(await ctx.store.getConnection('env_a', created.id)).toEqual(created);
      expect(await ctx.store.getConnectionByName('env_a', input.name)).toEqual(created);
      expect(await ctx.store.getConnectionByName('env_a', 'other')).toBeNull();
      const second = await ctx.store.createConnection(newConnection('env_a', { name: 'notion', connector: 'workspace', overrides: undefined, allowedRedirectUrls: undefined }));
      expect(second).toMatchObject({ overrides: {}, allowedRedirectUrls: [] });
      // Oldest first; two connections made in one millisecond are ordered by their (random) ids.
      const listed = await ctx.store.listConnections('env_a');
      expect(listed.map((c) => c.name).sort()).toEqual(['google-calendar', 'notion']);
      const key = (c: { createdAt: string; id: string }) => `${c.createdAt} ${c.id}`;
      expect(key(listed[0]!) < key(listed[1]!)).toBe(true);
    });

    it('refuses a duplicate name in one environment but allows it in another', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      await ctx.store.createConnection(newConnection('env_a'));
      await expect(ctx.store.createConnection(newConnection('env_a'))).rejects.toMatchObject({
        code: 'conflict',
        details: { violations: [{ pointer: '/name', keyword: 'unique', message: expect.stringContaining('already used') }] },
      });
      await expect(ctx.store.createConnection(newConnection('env_b'))).resolves.toMatchObject({ environmentId: 'env_b' });
      await expect(ctx.store.createConnection(newConnection('env_missing'))).rejects.toBeInstanceOf(ConnectorError);
    });

    it('updates only the given fields, re-encrypting a new secret', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const c = await ctx.store.createConnection(newConnection('env_a'));
      await ctx.store.createConnection(newConnection('env_a', { name: 'taken' }));
      await new Promise((r) => setTimeout(r, 5));
      const updated = await ctx.store.updateConnection('env_a', c.id, {
        clientSecret: 'new-secret-value',
        scopes: ['a', 'b'],
        overrides: { apiBaseUrl: 'http://127.0.0.1:1/api' },
        allowedRedirectUrls: ['https://x.example/cb'],
      });
      expect(updated).toMatchObject({ name: c.name, clientId: c.clientId, scopes: ['a', 'b'] });
      expect(await ctx.store.getClientCredentials('env_a', c.id)).toEqual({ clientId: c.clientId, clientSecret: 'new-secret-value' });
      expect(updated!.overrides).toEqual({ apiBaseUrl: 'http://127.0.0.1:1/api' });
      expect(updated!.updatedAt > c.updatedAt).toBe(true);
      expect(await ctx.store.getConnection('env_a', c.id)).toEqual(updated);
      const renamed = await ctx.store.updateConnection('env_a', c.id, { name: 'renamed', clientId: 'cid-2' });
      expect(renamed).toMatchObject({ name: 'renamed', clientId: 'cid-2' });
      expect(await ctx.store.getClientCredentials('env_a', c.id)).toEqual({ clientId: 'cid-2', clientSecret: 'new-secret-value' });
      await expect(ctx.store.updateConnection('env_a', c.id, { name: 'taken' })).rejects.toMatchObject({
        code: 'conflict',
        details: { violations: [{ pointer: '/name', keyword: 'unique', message: 'name "taken" is already used by another connection in this environment' }] },
      });
      expect(await ctx.store.updateConnection('env_a', 'conn_missing', { name: 'x' })).toBeNull();
    });

    it('deletes a connection with its accounts, links and states', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const c = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', c.id, 'user-1');
      await ctx.store.saveTokens(acc.id, tokens());
      await ctx.store.createAuthLink({ tokenHash: 'l1', environmentId: 'env_a', connectionId: c.id, accountId: acc.id, identifier: 'user-1', redirectUrl: null, expiresAt: inMinutes(10) });
      await ctx.store.createOAuthState({ stateHash: 's1', environmentId: 'env_a', connectionId: c.id, accountId: acc.id, identifier: 'user-1', codeVerifier: 'v', browserHash: 'b', redirectUrl: null, expiresAt: inMinutes(10) });
      expect(await ctx.store.deleteConnection('env_a', c.id)).toBe(true);
      expect(await ctx.store.deleteConnection('env_a', c.id)).toBe(false);
      expect(await ctx.store.getConnection('env_a', c.id)).toBeNull();
      expect(await ctx.store.getAccount('env_a', acc.id)).toBeNull();
      expect(await ctx.store.getAuthLink('l1')).toBeNull();
      expect(await ctx.store.consumeOAuthState('s1')).toBeNull();
      expect(await ctx.db.query('SELECT id FROM connected_accounts')).toEqual([]);
    });
  });

  describe('connected accounts', () => {
    async function setup() {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      return { conn };
    }

    it('ensureAccount creates PENDING_AUTH once, then returns the same account', async () => {
      const { conn } = await setup();
      const a = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      expect(a).toMatchObject({ environmentId: 'env_a', connectionId: conn.id, identifier: 'user-1', status: 'PENDING_AUTH', tokens: null, providerInfo: {}, statusReason: null, tokenVersion: 0 });
      expect(a.id).toMatch(/^ca_[a-z2-7]{26}$/);
      expect(await ctx.store.ensureAccount('env_a', conn.id, 'user-1')).toEqual(a);
      const twice = await Promise.all([ctx.store.ensureAccount('env_a', conn.id, 'user-2'), ctx.store.ensureAccount('env_a', conn.id, 'user-2')]);
      expect(twice[0].id).toBe(twice[1].id);
      expect(await ctx.store.getAccount('env_a', a.id)).toEqual(a);
      expect(await ctx.store.findAccount('env_a', conn.id, 'user-1')).toEqual(a);
      expect(await ctx.store.findAccount('env_a', conn.id, 'nobody')).toBeNull();
      await expect(ctx.store.ensureAccount('env_a', 'conn_missing', 'user-1')).rejects.toMatchObject({ code: 'connection_not_found' });
    });

    it('findAccount: lookups made together are read with one query per connection, each answered with its own account', async () => {
      const { conn } = await setup();
      const other = await ctx.store.createConnection(newConnection('env_a', { name: 'second' }));
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      const connB = await ctx.store.createConnection(newConnection('env_b'));
      const u1 = await ctx.store.saveTokens((await ctx.store.ensureAccount('env_a', conn.id, 'user-1')).id, tokens({ accessToken: 'at-1' }));
      const u2 = await ctx.store.ensureAccount('env_a', conn.id, 'user-2');
      const o1 = await ctx.store.saveTokens((await ctx.store.ensureAccount('env_a', other.id, 'user-1')).id, tokens({ accessToken: 'at-o1' }));
      await ctx.store.ensureAccount('env_b', connB.id, 'user-1');
      const reads = [SqliteDriver, PgDriver].flatMap((driver) => [vi.spyOn(driver.prototype, 'get'), vi.spyOn(driver.prototype, 'all')]);
      try {
        const found = await Promise.all([
          ctx.store.findAccount('env_a', conn.id, 'user-1'),
          ctx.store.findAccount('env_a', conn.id, 'user-2'),
          ctx.store.findAccount('env_a', conn.id, 'user-1'),
          ctx.store.findAccount('env_a', conn.id, 'USER-1'),
          ctx.store.findAccount('env_a', conn.id, 'nobody'),
          ctx.store.findAccount('env_a', other.id, 'user-1'),
          // Another environment's connection id is never an account of this one.
          ctx.store.findAccount('env_a', connB.id, 'user-1'),
        ]);
        expect(found).toEqual([u1, u2, u1, null, null, o1, null]);
        expect(found[0]!.tokens!.accessToken).toBe('at-1');
        expect(found[5]!.tokens!.accessToken).toBe('at-o1');
        const lookups = reads.flatMap((spy) => spy.mock.calls).filter(([sql]) => String(sql).includes('FROM connected_accounts'));
        expect(lookups).toHaveLength(3);
      } finally {
        for (const spy of reads) spy.mockRestore();
      }
    });

    it('saveTokens stores the token set, marks ACTIVE and bumps the version', async () => {
      const { conn } = await setup();
      const a = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      await ctx.store.setAccountStatus(a.id, 'EXPIRED', 'invalid_grant');
      const t = tokens({ expiresAt: '2030-01-02T03:04:05Z' });
      const saved = await ctx.store.saveTokens(a.id, t, { providerInfo: { workspace_name: 'Acme', bot_id: 'b1' } });
      expect(saved).toMatchObject({ status: 'ACTIVE', statusReason: null, tokenVersion: 1, providerInfo: { workspace_name: 'Acme', bot_id: 'b1' } });
      expect(saved!.tokens).toEqual({ ...t, expiresAt: '2030-01-02T03:04:05.000Z' });
      expect(await ctx.store.findAccount('env_a', conn.id, 'user-1')).toEqual(saved);
      // No providerInfo keeps the stored one; a null refresh token and expiry are stored as given.
      const again = await ctx.store.saveTokens(a.id, tokens({ refreshToken: null, expiresAt: null, tokenType: 'bearer', scopes: [] }));
      expect(again).toMatchObject({ tokenVersion: 2, providerInfo: { workspace_name: 'Acme', bot_id: 'b1' } });
      expect(again!.tokens).toMatchObject({ refreshToken: null, expiresAt: null, tokenType: 'bearer', scopes: [] });
      expect(await ctx.store.saveTokens('ca_missing', tokens())).toBeNull();
    });

    it('setAccountStatus, clearTokens and deleteAccount', async () => {
      const { conn } = await setup();
      const a = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      await ctx.store.saveTokens(a.id, tokens());
      await ctx.store.setAccountStatus(a.id, 'EXPIRED', 'invalid_grant');
      expect(await ctx.store.getAccount('env_a', a.id)).toMatchObject({ status: 'EXPIRED', statusReason: 'invalid_grant', tokenVersion: 1 });
      expect((await ctx.store.getAccount('env_a', a.id))!.tokens).not.toBeNull();
      await ctx.store.setAccountStatus(a.id, 'ACTIVE');
      expect(await ctx.store.getAccount('env_a', a.id)).toMatchObject({ status: 'ACTIVE', statusReason: null });
      await ctx.store.clearTokens(a.id);
      const cleared = await ctx.store.getAccount('env_a', a.id);
      expect(cleared).toMatchObject({ status: 'DISCONNECTED', tokens: null, tokenVersion: 2 });
      const [raw] = await ctx.db.query('SELECT access_token, refresh_token FROM connected_accounts WHERE id = ?', [a.id]);
      expect(raw).toEqual({ access_token: null, refresh_token: null });
      expect(await ctx.store.deleteAccount('env_a', a.id)).toBe(true);
      expect(await ctx.store.deleteAccount('env_a', a.id)).toBe(false);
      expect(await ctx.store.getAccount('env_a', a.id)).toBeNull();
    });

    it('lists accounts with filters', async () => {
      const { conn } = await setup();
      const other = await ctx.store.createConnection(newConnection('env_a', { name: 'notion', connector: 'workspace' }));
      const a1 = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      const a2 = await ctx.store.ensureAccount('env_a', other.id, 'user-1');
      const a3 = await ctx.store.ensureAccount('env_a', conn.id, 'user-2');
      await ctx.store.saveTokens(a2.id, tokens());
      const ids = async (f?: Parameters<typeof ctx.store.listAccounts>[1]) => (await ctx.store.listAccounts('env_a', f)).map((a) => a.id).sort();
      expect(await ids()).toEqual([a1.id, a2.id, a3.id].sort());
      expect(await ids({ identifier: 'user-1' })).toEqual([a1.id, a2.id].sort());
      expect(await ids({ connectionId: conn.id })).toEqual([a1.id, a3.id].sort());
      expect(await ids({ status: 'ACTIVE' })).toEqual([a2.id]);
      expect(await ids({ identifier: 'user-1', connectionId: conn.id, status: 'PENDING_AUTH' })).toEqual([a1.id]);
      expect((await ctx.store.listAccounts('env_a', { status: 'ACTIVE' }))[0]!.tokens).not.toBeNull();
    });

    it('pages a filtered list in list order and counts it', async () => {
      const { conn } = await setup();
      const other = await ctx.store.createConnection(newConnection('env_a', { name: 'notion', connector: 'workspace' }));
      for (let i = 0; i < 7; i++) await ctx.store.ensureAccount('env_a', conn.id, `user-${i}`);
      await ctx.store.ensureAccount('env_a', other.id, 'user-0');
      const active = await ctx.store.ensureAccount('env_a', conn.id, 'user-active');
      await ctx.store.saveTokens(active.id, tokens());
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      await ctx.store.ensureAccount('env_b', (await ctx.store.createConnection(newConnection('env_b'))).id, 'user-0');

      const whole = await ctx.store.listAccounts('env_a', { connectionId: conn.id });
      expect(whole).toHaveLength(8);
      expect(await ctx.store.countAccounts('env_a', { connectionId: conn.id })).toBe(whole.length);
      // Consecutive pages are the whole list, in its order, without overlap.
      const pages = [];
      for (let offset = 0; offset < whole.length + 3; offset += 3) pages.push(await ctx.store.listAccounts('env_a', { connectionId: conn.id }, { limit: 3, offset }));
      expect(pages.map((p) => p.length)).toEqual([3, 3, 2, 0]);
      expect(pages.flat()).toEqual(whole);
      expect(await ctx.store.listAccounts('env_a', { connectionId: conn.id }, { limit: 3 })).toEqual(whole.slice(0, 3));

      expect(await ctx.store.countAccounts('env_a')).toBe(9);
      expect(await ctx.store.countAccounts('env_a', { identifier: 'user-0' })).toBe(2);
      expect(await ctx.store.countAccounts('env_a', { status: 'ACTIVE' })).toBe(1);
      expect((await ctx.store.listAccounts('env_a', { status: 'ACTIVE' }, { limit: 5 }))[0]!.tokens).not.toBeNull();
      expect(await ctx.store.countAccounts('env_b')).toBe(1);
      expect(await ctx.store.countAccounts('env_c')).toBe(0);
    });

    it('counts a filtered list per status in one answer, every status present, each as listAccounts finds it', async () => {
      const { conn } = await setup();
      const other = await ctx.store.createConnection(newConnection('env_a', { name: 'notion', connector: 'workspace' }));
      const wanted = { PENDING_AUTH: 3, ACTIVE: 2, EXPIRED: 1, DISCONNECTED: 0 } as const;
      let n = 0;
      for (const [status, count] of Object.entries(wanted) as [AccountStatus, number][]) {
        for (let i = 0; i < count; i++) {
          const account = await ctx.store.ensureAccount('env_a', conn.id, `user-${n++}`);
          if (status !== 'PENDING_AUTH') await ctx.store.setAccountStatus(account.id, status);
        }
      }
      await ctx.store.setAccountStatus((await ctx.store.ensureAccount('env_a', other.id, 'user-0')).id, 'DISCONNECTED');
      const counts = await ctx.store.countAccountsByStatus('env_a', { connectionId: conn.id });
      expect(counts).toEqual(wanted);
      for (const status of Object.keys(wanted) as AccountStatus[]) {
        expect(counts[status]).toBe((await ctx.store.listAccounts('env_a', { connectionId: conn.id, status })).length);
      }
      expect(await ctx.store.countAccountsByStatus('env_a')).toEqual({ ...wanted, DISCONNECTED: 1 });
      expect(await ctx.store.countAccountsByStatus('env_a', { identifier: 'user-0' })).toEqual({ PENDING_AUTH: 1, ACTIVE: 0, EXPIRED: 0, DISCONNECTED: 1 });
      expect(await ctx.store.countAccountsByStatus('env_missing')).toEqual({ PENDING_AUTH: 0, ACTIVE: 0, EXPIRED: 0, DISCONNECTED: 0 });
    });

    it('pages by keyset after an account: ties on createdAt broken by id, filters kept, no row twice or missed', async () => {
      const { conn } = await setup();
      const other = await ctx.store.createConnection(newConnection('env_a', { name: 'notion', connector: 'workspace' }));
      const made = [];
      for (let i = 0; i < 9; i++) made.push(await ctx.store.ensureAccount('env_a', conn.id, `user-${i}`));
      await ctx.store.ensureAccount('env_a', other.id, 'user-0');
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      await ctx.store.ensureAccount('env_b', (await ctx.store.createConnection(newConnection('env_b'))).id, 'user-0');
      // Five accounts of one instant (their order is the id's alone) between two of an earlier and two of a later
      // one, so ties cross page boundaries.
      const instant = '2000-03-01T12:00:00.000Z';
      const createdAt = (a: { id: string }, at: string) => ctx.db.query('UPDATE connected_accounts SET created_at = ? WHERE id = ?', [at, a.id]);
      for (const a of made.slice(2, 7)) await createdAt(a, instant);
      for (const a of made.slice(7)) await createdAt(a, '2000-02-01T00:00:00.000Z');
      for (const a of made.slice(0, 2)) await createdAt(a, '2000-04-01T00:00:00.000Z');
      for (const a of [made[1]!, made[3]!, made[5]!]) await ctx.store.saveTokens(a.id, tokens());

      const walk = async (filter: Parameters<typeof ctx.store.listAccounts>[1], limit: number) => {
        const pages: string[][] = [];
        let after: { createdAt: string; id: string } | undefined;
        // Bounded, so a page that repeats its key fails the test instead of looping.
        for (let n = 0; n <= 20; n++) {
          const page = await ctx.store.listAccounts('env_a', filter, { limit, ...(after ? { after } : {}) });
          if (page.length === 0) return pages;
          expect(page.length).toBeLessThanOrEqual(limit);
          pages.push(page.map((a) => a.id));
          after = { createdAt: page[page.length - 1]!.createdAt, id: page[page.length - 1]!.id };
        }
        throw new Error(`more than 20 pages of ${limit}: the keyset does not advance`);
      };
      const whole = await ctx.store.listAccounts('env_a', { connectionId: conn.id });
      expect(whole).toHaveLength(9);
      expect(whole.filter((a) => a.createdAt === instant)).toHaveLength(5);
      for (let i = 1; i < whole.length; i++) expect(whole[i - 1]!.createdAt <= whole[i]!.createdAt).toBe(true);
      for (const limit of [1, 2, 3, 4, 9, 10]) {
        const pages = await walk({ connectionId: conn.id }, limit);
        expect(pages.flat(), `limit ${limit}`).toEqual(whole.map((a) => a.id));
      }
      const active = await ctx.store.listAccounts('env_a', { connectionId: conn.id, status: 'ACTIVE' });
      expect(active).toHaveLength(3);
      expect((await walk({ connectionId: conn.id, status: 'ACTIVE' }, 1)).flat()).toEqual(active.map((a) => a.id));
      expect((await walk({ identifier: 'user-0' }, 1)).flat()).toHaveLength(2);
      expect((await walk({}, 4)).flat()).toEqual((await ctx.store.listAccounts('env_a')).map((a) => a.id));

      // The key alone places the page: after an account since deleted, the rest of the list is as it was.
      const tiedMiddle = whole.findIndex((a) => a.createdAt === instant) + 2;
      const key = { createdAt: whole[tiedMiddle]!.createdAt, id: whole[tiedMiddle]!.id };
      await ctx.store.deleteAccount('env_a', key.id);
      expect((await ctx.store.listAccounts('env_a', { connectionId: conn.id }, { limit: 20, after: key })).map((a) => a.id)).toEqual(whole.slice(tiedMiddle + 1).map((a) => a.id));
      // An account created meanwhile comes last, on a later page; the pages before it do not move.
      const late = await ctx.store.ensureAccount('env_a', conn.id, 'user-late');
      const last = whole[whole.length - 1]!;
      expect((await ctx.store.listAccounts('env_a', { connectionId: conn.id }, { limit: 5, after: { createdAt: last.createdAt, id: last.id } })).map((a) => a.id)).toEqual([late.id]);
      // A key and an offset together: the offset counts from the key.
      expect((await ctx.store.listAccounts('env_a', { connectionId: conn.id }, { limit: 2, offset: 1, after: { createdAt: whole[0]!.createdAt, id: whole[0]!.id } })).map((a) => a.id)).toEqual(whole.slice(2, 4).map((a) => a.id));
    });
  });

  describe('authorization links and OAuth states', () => {
    it('stores and reads links (expired ones too, with their expiry)', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      const link = { tokenHash: 'a'.repeat(64), environmentId: 'env_a', connectionId: conn.id, accountId: acc.id, identifier: 'user-1', redirectUrl: 'https://app.example/done', expiresAt: '2020-01-01T00:00:00.000Z' };
      await ctx.store.createAuthLink(link);
      expect(await ctx.store.getAuthLink(link.tokenHash)).toEqual(link);
      expect(await ctx.store.getAuthLink('b'.repeat(64))).toBeNull();
      // A step-up link keeps the scopes it asks for, in order; binding it keeps them too.
      const stepUp = { ...link, tokenHash: 'c'.repeat(64), scopes: ['calendar.readonly', 'calendar.events'] };
      await ctx.store.createAuthLink(stepUp);
      expect(await ctx.store.getAuthLink(stepUp.tokenHash)).toEqual(stepUp);
      expect(await ctx.store.bindAuthLink(stepUp.tokenHash, 'd'.repeat(64))).toEqual({ ...stepUp, browserHash: 'd'.repeat(64) });
    });

    it('binds a link to the first browser only, atomically, and keeps the binding', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      const link = { tokenHash: 'f'.repeat(64), environmentId: 'env_a', connectionId: conn.id, accountId: acc.id, identifier: 'user-1', redirectUrl: null, expiresAt: inMinutes(10) };
      await ctx.store.createAuthLink(link);
      expect(await ctx.store.getAuthLink(link.tokenHash)).toEqual(link);
      const other = await ctx.open();
      const raced = await Promise.all(['1', '2', '3', '4'].map((d, i) => (i % 2 ? other : ctx.store).bindAuthLink(link.tokenHash, d.repeat(64))));
      const winner = raced[0]!.browserHash!;
      expect(['1', '2', '3', '4'].map((d) => d.repeat(64))).toContain(winner);
      expect(raced.map((r) => r?.browserHash)).toEqual([winner, winner, winner, winner]);
      expect(await ctx.store.bindAuthLink(link.tokenHash, '9'.repeat(64))).toEqual({ ...link, browserHash: winner });
      expect(await ctx.store.getAuthLink(link.tokenHash)).toEqual({ ...link, browserHash: winner });
      expect(await ctx.store.bindAuthLink('0'.repeat(64), '9'.repeat(64))).toBeNull();
    });

    it('consumes a state exactly once and returns its verifier', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      const state = { stateHash: 'c'.repeat(64), environmentId: 'env_a', connectionId: conn.id, accountId: acc.id, identifier: 'user-1', codeVerifier: 'verifier-xyz', browserHash: 'd'.repeat(64), redirectUrl: null, expiresAt: inMinutes(10) };
      await ctx.store.createOAuthState(state);
      await ctx.store.createOAuthState({ ...state, stateHash: 'e'.repeat(64), codeVerifier: null });
      const results = await Promise.all([ctx.store.consumeOAuthState(state.stateHash), ctx.store.consumeOAuthState(state.stateHash)]);
      expect(results.filter((r) => r !== null)).toEqual([state]);
      expect(await ctx.store.consumeOAuthState(state.stateHash)).toBeNull();
      expect(await ctx.store.consumeOAuthState('e'.repeat(64))).toMatchObject({ codeVerifier: null });
      expect(await ctx.store.consumeOAuthState('unknown')).toBeNull();
    });
  });

  describe('purgeExpired', () => {
    it('removes expired states and links only', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      const base = { environmentId: 'env_a', connectionId: conn.id, accountId: acc.id, identifier: 'user-1', redirectUrl: null };
      await ctx.store.createAuthLink({ ...base, tokenHash: 'old-link', expiresAt: inMinutes(-1) });
      await ctx.store.createAuthLink({ ...base, tokenHash: 'new-link', expiresAt: inMinutes(10) });
      await ctx.store.createOAuthState({ ...base, stateHash: 'old-state', codeVerifier: 'v', browserHash: 'b', expiresAt: inMinutes(-1) });
      await ctx.store.createOAuthState({ ...base, stateHash: 'new-state', codeVerifier: 'v', browserHash: 'b', expiresAt: inMinutes(10) });
      expect(await ctx.store.purgeExpired()).toBe(2);
      expect(await ctx.store.purgeExpired()).toBe(0);
      expect(await ctx.store.getAuthLink('old-link')).toBeNull();
      expect(await ctx.store.getAuthLink('new-link')).not.toBeNull();
      expect(await ctx.store.consumeOAuthState('old-state')).toBeNull();
      expect(await ctx.store.consumeOAuthState('new-state')).not.toBeNull();
      expect(await ctx.store.purgeExpired(inMinutes(20))).toBe(1);
    });
  });

  describe('environment isolation', () => {
    it('no read, update or delete reaches another environment', async () => {
      await ctx.store.createEnvironment({ id: 'env_a', name: 'A' });
      await ctx.store.createEnvironment({ id: 'env_b', name: 'B' });
      const conn = await ctx.store.createConnection(newConnection('env_a'));
      const acc = await ctx.store.ensureAccount('env_a', conn.id, 'user-1');
      await ctx.store.saveTokens(acc.id, tokens());
      const s = ctx.store;
      expect(await s.getConnection('env_b', conn.id)).toBeNull();
      expect(await s.getConnectionByName('env_b', conn.name)).toBeNull();
      expect(await s.listConnections('env_b')).toEqual([]);
      expect(await s.getClientCredentials('env_b', conn.id)).toBeNull();
      expect(await s.updateConnection('env_b', conn.id, { name: 'hijack', clientSecret: 'x' })).toBeNull();
      expect(await s.deleteConnection('env_b', conn.id)).toBe(false);
      await expect(s.ensureAccount('env_b', conn.id, 'user-1')).rejects.toMatchObject({ code: 'connection_not_found' });
      await expect(s.ensureAccount('env_b', conn.id, 'user-9')).rejects.toMatchObject({ code: 'connection_not_found' });
      expect(await s.getAccount('env_b', acc.id)).toBeNull();
      expect(await s.findAccount('env_b', conn.id, 'user-1')).toBeNull();
      expect(await s.listAccounts('env_b')).toEqual([]);
      expect(await s.listAccounts('env_b', { connectionId: conn.id })).toEqual([]);
      expect(await s.deleteAccount('env_b', acc.id)).toBe(false);
      // Everything is still there, untouched, for its own environment.
      expect(await s.getConnection('env_a', conn.id)).toEqual(conn);
      expect(await s.getAccount('env_a', acc.id)).toMatchObject({ status: 'ACTIVE' });
      expect(await s.listAccounts('env_a')).toHaveLength(1);
    });
  });
}
