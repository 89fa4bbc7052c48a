import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, SQLITE_FILE_NAME } from '../../../runtime/store/open-store.js';
import { storeContract } from './contract.js';
import { keyring1 } from './fixtures.js';
import { newSqliteDatabase } from './harness.js';

storeContract('SQLite', newSqliteDatabase);

describe('SQLite specifics', () => {
  it('creates <dataDir>/agent-connector.db with mode 0600 in WAL mode', async () => {
    const db = await newSqliteDatabase();
    try {
      const store = await openStore({ ...db.options, keyring: keyring1 });
      expect(store.kind).toBe('sqlite');
      const file = join(db.options.dataDir, SQLITE_FILE_NAME);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await db.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      await store.close();
    } finally {
      await db.destroy();
    }
  });
});
