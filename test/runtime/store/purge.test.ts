/**
 * `Store.purgeExpired` on real rows: expired OAuth states and authorization links go, live ones (and everything
 * else) stay, checked through the store and with raw SQL. Runs on SQLite always, and on PostgreSQL from `DATABASE_URL`
 * (`postgresSuite` in test/server-suites.ts says what happens without it).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import type { AuthLinkRecord, OAuthStateRecord, Store } from '../../../runtime/store/types.js';
import { inMinutes, keyring1, newConnection, secret, tokens } from './fixtures.js';
import { newPostgresDatabase, newSqliteDatabase, type NewTestDatabase, type TestDatabase } from './harness.js';
import { postgresSuite } from '../../server-suites.js';

const hash = (): string => randomBytes(32).toString('hex');

/** An ISO time `minutes` from now written with a +05:00 offset, so its text sorts after the UTC form of "now". */
function withOffset(minutes: number): string {
  const t = new Date(Date.now() + minutes * 60_000 + 5 * 3600_000).toISOString().slice(0, 23);
  return `${t}+05:00`;
}

function purgeSuite(newDatabase: NewTestDatabase): void {
  let db: TestDatabase;
  let store: Store;
  const opened: Store[] = [];

  beforeEach(async () => {
    db = await newDatabase();
    store = await openStore({ ...db.options, keyring: keyring1 });
    opened.push(store);
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    await db.destroy();
  });

  /** One environment with a connection and an account holding tokens; returns the record factories. */
  async function flows(envId: string) {
    await store.createEnvironment({ id: envId, name: envId });
    const conn = await store.createConnection(newConnection(envId));
    const acc = await store.ensureAccount(envId, conn.id, `user-${envId}`);
    const saved = await store.saveTokens(acc.id, tokens());
    const base = { environmentId: envId, connectionId: conn.id, accountId: acc.id, identifier: `user-${envId}`, redirectUrl: 'https://app.example/done' };
    const state = (expiresAt: string): OAuthStateRecord => ({ ...base, stateHash: hash(), codeVerifier: secret('verifier'), browserHash: hash(), expiresAt });
    const link = (expiresAt: string): AuthLinkRecord => ({ ...base, tokenHash: hash(), expiresAt });
    return { conn, acc, saved, state, link };
  }

  async function rawHashes(): Promise<{ states: string[]; links: string[] }> {
    const states = (await db.query('SELECT state_hash FROM oauth_states')).map((r) => String(r.state_hash)).sort();
    const links = (await db.query('SELECT token_hash FROM auth_links')).map((r) => String(r.token_hash)).sort();
    return { states, links };
  }

  it('deletes the expired states and links of every environment and keeps the live ones intact', async () => {
    const a = await flows('env_a');
    const b = await flows('env_b');
    const expiredStates = [a.state(inMinutes(-1)), a.state(inMinutes(-60 * 24 * 3)), b.state(inMinutes(-5)), b.state(withOffset(-2))];
    const liveStates = [a.state(inMinutes(10)), b.state(inMinutes(60)), b.state(withOffset(15))];
    const expiredLinks = [a.link(inMinutes(-1)), b.link(inMinutes(-60 * 24 * 30)), a.link(withOffset(-3))];
    const liveLinks = [a.link(inMinutes(5)), b.link(inMinutes(60 * 24))];
    for (const s of [...expiredStates, ...liveStates]) await store.createOAuthState(s);
    for (const l of [...expiredLinks, ...liveLinks]) await store.createAuthLink(l);
    expect((await rawHashes()).states).toHaveLength(7);
    expect((await rawHashes()).links).toHaveLength(5);

    expect(await store.purgeExpired()).toBe(expiredStates.length + expiredLinks.length);

    expect(await rawHashes()).toEqual({ states: liveStates.map((s) => s.stateHash).sort(), links: liveLinks.map((l) => l.tokenHash).sort() });
    for (const l of expiredLinks) expect(await store.getAuthLink(l.tokenHash)).toBeNull();
    for (const l of liveLinks) expect(await store.getAuthLink(l.tokenHash)).toEqual({ ...l, expiresAt: new Date(l.expiresAt).toISOString() });
    for (const s of expiredStates) expect(await store.consumeOAuthState(s.stateHash)).toBeNull();
    // A live state still decrypts to its verifier and can be consumed once.
    for (const s of liveStates) expect(await store.consumeOAuthState(s.stateHash)).toEqual({ ...s, expiresAt: new Date(s.expiresAt).toISOString() });

    // Nothing else was touched: connections, accounts and their tokens.
    for (const f of [a, b]) {
      expect(await store.getConnection(f.conn.environmentId, f.conn.id)).not.toBeNull();
      const acc = await store.getAccount(f.conn.environmentId, f.acc.id);
      expect(acc?.tokens).toEqual(f.saved?.tokens);
    }
    expect(await store.purgeExpired()).toBe(0);
  });

  it('with an explicit cutoff removes only what expired strictly before it', async () => {
    const f = await flows('env_a');
    const cutoff = new Date(Date.now() + 30 * 60_000);
    const at = (deltaMs: number) => new Date(cutoff.getTime() + deltaMs).toISOString();
    const justBefore = f.state(at(-1));
    const exactly = f.state(at(0));
    const after = f.state(at(1));
    const linkBefore = f.link(at(-1000));
    const linkAfter = f.link(at(1000));
    for (const s of [justBefore, exactly, after]) await store.createOAuthState(s);
    for (const l of [linkBefore, linkAfter]) await store.createAuthLink(l);

    // The same instant written with an offset is the same cutoff.
    const offsetCutoff = `${new Date(cutoff.getTime() - 2 * 3600_000).toISOString().slice(0, 23)}-02:00`;
    expect(await store.purgeExpired(offsetCutoff)).toBe(2);
    expect(await rawHashes()).toEqual({ states: [exactly.stateHash, after.stateHash].sort(), links: [linkAfter.tokenHash] });
  });

  it('two store instances purging at once remove each row once', async () => {
    const f = await flows('env_a');
    const other = await openStore({ ...db.options, keyring: keyring1 });
    opened.push(other);
    const expired = Array.from({ length: 40 }, (_, i) => f.state(inMinutes(-1 - i)));
    const expiredLinks = Array.from({ length: 25 }, (_, i) => f.link(inMinutes(-1 - i)));
    const live = [f.state(inMinutes(10)), f.state(inMinutes(20))];
    const liveLink = f.link(inMinutes(10));
    for (const s of [...expired, ...live]) await store.createOAuthState(s);
    for (const l of [...expiredLinks, liveLink]) await store.createAuthLink(l);

    const counts = await Promise.all([store.purgeExpired(), other.purgeExpired(), store.purgeExpired(), other.purgeExpired()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(expired.length + expiredLinks.length);
    expect(await rawHashes()).toEqual({ states: live.map((s) => s.stateHash).sort(), links: [liveLink.tokenHash] });
  });

  it('refuses a cutoff that is not a time', async () => {
    await expect(store.purgeExpired('not a time')).rejects.toThrow(RangeError);
  });
}

describe('purgeExpired on SQLite', () => purgeSuite(newSqliteDatabase));
postgresSuite('purgeExpired on PostgreSQL', (databaseUrl) => purgeSuite(() => newPostgresDatabase(databaseUrl)));
