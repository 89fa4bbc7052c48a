/**
 * A store that cannot be opened says which database before the driver's reason: `connect ECONNREFUSED` or
 * `file is not a database` alone names neither the variable nor the place, and the URL's credentials stay out.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadKeyring } from '../../../runtime/crypto/keyring.js';
import { openStore, SQLITE_FILE_NAME, StoreOpenError } from '../../../runtime/store/open-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-open-store-'));
  dirs.push(dataDir);
  const { keyring } = loadKeyring({ encryptionKeys: `k1:${randomBytes(32).toString('base64')}`, dataDir, production: false });
  return { dataDir, keyring };
}

async function refusal(open: Promise<unknown>): Promise<Error> {
  return open.then(
    () => {
      throw new Error('the store opened');
    },
    (error: unknown) => error as Error,
  );
}

describe('openStore: a database it cannot open', () => {
  it('names the PostgreSQL database (host, port, name), never its user, password or parameters', async () => {
    const { dataDir, keyring } = setup();
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const error = await refusal(openStore({ databaseUrl: 'postgres://app:s3cret-pw@127.0.0.1:1/agent_connector?sslmode=disable', dataDir, keyring }));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error.message).toMatch(/^could not open the PostgreSQL database postgres:\/\/127\.0\.0\.1:1\/agent_connector: connect ECONNREFUSED/);
    expect(error.message).not.toMatch(/s3cret|app@|sslmode/);
    expect((error as StoreOpenError).cause).toBeInstanceOf(Error);
  });

  it('names the SQLite file', async () => {
    const { dataDir, keyring } = setup();
    writeFileSync(join(dataDir, SQLITE_FILE_NAME), 'not a database, but long enough to be read as a header '.repeat(20));
    const error = await refusal(openStore({ dataDir, keyring }));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error.message).toContain(`could not open the SQLite database ${join(dataDir, SQLITE_FILE_NAME)}: `);
  });
});
