/**
 * Instances that start together on one fresh database all bootstrap the same environment and application client
 * (`ensureAppClient`, run by every start). Each instance here is a store of its own (its own connections), as
 * separate processes are; all of them must start, where the slower ones used to fail on the other's insert
 * (`conflict: app client ... already exists`). Runs on SQLite always, and on PostgreSQL from `DATABASE_URL`
 * (`postgresSuite` in test/server-suites.ts says what happens without it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifySecret } from '../../runtime/crypto/index.js';
import { AppClientMissingError, CredentialMismatchError, ensureAppClient, newClientId, newClientSecret } from '../../runtime/service/environments.js';
import { openStore } from '../../runtime/store/open-store.js';
import type { Store } from '../../runtime/store/types.js';
import { keyring1 } from '../runtime/store/fixtures.js';
import { newPostgresDatabase, newSqliteDatabase, type NewTestDatabase, type TestDatabase } from '../runtime/store/harness.js';
import { postgresSuite } from '../server-suites.js';

const INSTANCES = 4;

function raceSuite(newDatabase: NewTestDatabase): void {
  let db: TestDatabase;
  let stores: Store[];

  beforeEach(async () => {
    db = await newDatabase();
    // Migrate once, then open the others without migrating: the race under test is the bootstrap, not migrations.
    stores = [await openStore({ ...db.options, keyring: keyring1 })];
    for (let i = 1; i < INSTANCES; i++) stores.push(await openStore({ ...db.options, keyring: keyring1, migrate: false }));
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    await db.destroy();
  });

  it('all start with the configured client id and secret, and one client exists', async () => {
    const clientId = newClientId();
    const clientSecret = newClientSecret();
    const input = { environmentId: 'env_development', environmentName: 'development', clientId, clientSecret };
    const results = await Promise.all(stores.map((s) => ensureAppClient(s, input)));
    expect(results).toEqual(stores.map(() => ({ environmentId: 'env_development', clientId })));
    const client = await stores[0]!.getAppClient(clientId);
    expect(client?.environmentId).toBe('env_development');
    expect(await verifySecret(clientSecret, client!.secretHash)).toBe(true);
    expect(await db.query('SELECT client_id FROM app_clients')).toHaveLength(1);
    expect(await db.query('SELECT id FROM environments')).toHaveLength(1);
  });

  it('without a secret, exactly one start generates it, and it is the stored one', async () => {
    const clientId = newClientId();
    const input = { environmentId: 'env_development', environmentName: 'development', clientId };
    const results = await Promise.all(stores.map((s) => ensureAppClient(s, input)));
    const generated = results.flatMap((r) => (r.clientSecret === undefined ? [] : [r.clientSecret]));
    expect(generated).toHaveLength(1);
    const client = await stores[0]!.getAppClient(clientId);
    expect(await verifySecret(generated[0]!, client!.secretHash)).toBe(true);
  });

  it('with create: false (production without both variables), every start refuses and none writes a row', async () => {
    const clientId = newClientId();
    const input = { environmentId: 'env_development', environmentName: 'development', clientId, create: false };
    const results = await Promise.allSettled(stores.map((s) => ensureAppClient(s, input)));
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppClientMissingError);
    expect(await db.query('SELECT client_id FROM app_clients')).toHaveLength(0);
    expect(await db.query('SELECT id FROM environments')).toHaveLength(0);
    // A client that exists (made by a start given both variables) is taken as it is, by every instance.
    const clientSecret = newClientSecret();
    await ensureAppClient(stores[0]!, { ...input, clientSecret, create: true });
    const taken = await Promise.all(stores.map((s) => ensureAppClient(s, input)));
    expect(taken).toEqual(stores.map(() => ({ environmentId: 'env_development', clientId })));
    expect(await db.query('SELECT client_id FROM app_clients')).toHaveLength(1);
  });

  it('a start with another secret for the client still fails, raced or not', async () => {
    const clientId = newClientId();
    const base = { environmentId: 'env_development', environmentName: 'development', clientId };
    const results = await Promise.allSettled(stores.map((s, i) => ensureAppClient(s, { ...base, clientSecret: i === 0 ? 'acs_first' : 'acs_other' })));
    const failed = results.filter((r) => r.status === 'rejected');
    // Whichever secret was stored first wins; every start with the other one is refused by name.
    expect(failed.length === 1 || failed.length === INSTANCES - 1).toBe(true);
    for (const f of failed) expect((f as PromiseRejectedResult).reason).toBeInstanceOf(CredentialMismatchError);
  });
}

describe('instances bootstrapping together on SQLite', () => raceSuite(newSqliteDatabase));
postgresSuite('instances bootstrapping together on PostgreSQL', (databaseUrl) => raceSuite(() => newPostgresDatabase(databaseUrl)));
