/**
 * The Store contract: one suite every backend passes. `sqlite.test.ts` and `postgres.test.ts` call it with a factory
 * for a fresh, empty database.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { Keyring } from '../../../runtime/crypto/keyring.js';
import { openStore } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { concurrencyContract } from './contract-concurrency.js';
import { executionsContract } from './contract-executions.js';
import { eventsContract } from './contract-events.js';
import { formSendsContract } from './contract-form-sends.js';
import { mcpSessionsContract } from './contract-mcp-sessions.js';
import { recordsContract } from './contract-records.js';
import { securityContract } from './contract-security.js';
import { keyring1 } from './fixtures.js';
import type { NewTestDatabase, TestDatabase } from './harness.js';

/** What each part of the suite gets: the database, a default store on it, and a way to open more stores. */
export interface ContractContext {
  db: TestDatabase;
  /** Opened (and migrated) with `keyring1`. */
  store: Store;
  /** Another store instance on the same database (a stand-in for another process), closed after the test. */
  open(keyring?: Keyring, opts?: { migrate?: boolean }): Promise<Store>;
}

export function storeContract(name: string, newDatabase: NewTestDatabase): void {
  describe(`Store contract: ${name}`, () => {
    const ctx = {} as ContractContext;
    let opened: Store[] = [];

    beforeEach(async () => {
      opened = [];
      ctx.db = await newDatabase();
      ctx.open = async (keyring = keyring1, opts = {}) => {
        const store = await openStore({ ...ctx.db.options, keyring, ...opts });
        opened.push(store);
        return store;
      };
      ctx.store = await ctx.open();
    });

    afterEach(async () => {
      // A failed close must not leave the schema or file behind.
      try {
        await Promise.allSettled(opened.map((s) => s.close()));
      } finally {
        await ctx.db.destroy();
      }
    });

    recordsContract(ctx);
    concurrencyContract(ctx);
    securityContract(ctx);
    executionsContract(ctx);
    eventsContract(ctx);
    mcpSessionsContract(ctx);
    formSendsContract(ctx);
  });
}
