/**
 * `agent-connector environments create|list`: environments (tenants) and their application clients, written straight
 * to the store. There is no HTTP route for this on purpose: creating a tenant is an operator's act, done with the
 * database and the encryption key at hand, resolved exactly as `start` resolves them.
 */
import { KeyringError, loadKeyring } from '../crypto/index.js';
import { ConfigError, readStoreConfig, type StoreConfig } from '../service/config.js';
import { hashSecret } from '../crypto/index.js';
import { readDevState } from '../service/dev-state.js';
import { createEnvironment, newClientSecret } from '../service/environments.js';
import { openStore, requireExistingStore, StoreMissingError } from '../store/index.js';
import type { Store } from '../store/types.js';
import { UsageError, type CliIo } from './io.js';
import { formatTable } from './table.js';

const MAX_NAME_LENGTH = 100;

/**
 * Opens the store `start` would use (`DATABASE_URL`, `AGENT_CONNECTOR_DATA_DIR`, `AGENT_CONNECTOR_ENCRYPTION_KEY`).
 * Unless `create` (the `create` command only), a SQLite store that does not exist is refused before anything is
 * written: no data directory, key file or empty database is left where the service's store is not.
 */
async function openConfiguredStore(io: CliIo, create: boolean): Promise<Store> {
  try {
    const config = readStoreConfig(io.env);
    if (!create) requireServiceStore(config, io.env);
    const { keyring } = loadKeyring({ encryptionKeys: config.encryptionKeys, dataDir: config.dataDir, production: config.production, warn: (m) => io.err(`warning: ${m}`) });
    return await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, keyring, pgPoolSize: config.databasePoolSize });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof KeyringError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Refuses (a usage error, exit 2) when the SQLite store `config` names does not exist, creating nothing; under
 * DATABASE_URL it does nothing. What every CLI command that works on the service's existing store calls first.
 */
export function requireServiceStore(config: StoreConfig, env: NodeJS.ProcessEnv): void {
  try {
    requireExistingStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, dataDirNote: dataDirSource(env) });
  } catch (error) {
    if (error instanceof StoreMissingError) throw new UsageError(error.message);
    throw error;
  }
}

async function withStore<T>(io: CliIo, run: (store: Store) => Promise<T>, create = false): Promise<T> {
  const store = await openConfiguredStore(io, create);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

/** Creates an environment with one application client and prints its credentials: the only time the secret exists. */
export async function createEnvironmentCommand(io: CliIo, rawName: string, json: boolean): Promise<void> {
  const name = rawName.trim();
  if (name === '' || name.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new UsageError(`--name must be 1 to ${MAX_NAME_LENGTH} printable characters (got ${JSON.stringify(rawName)})`);
  }
  const created = await withStore(io, async (store) => {
    if ((await store.listEnvironments()).some((e) => e.name === name)) {
      throw new Error(`an environment named ${JSON.stringify(name)} already exists; pick another name (agent-connector environments list shows them)`);
    }
    return createEnvironment(store, { name });
  }, true);
  if (json) {
    io.out(JSON.stringify({ id: created.environmentId, name, client_id: created.clientId, client_secret: created.clientSecret }, null, 2));
    return;
  }
  io.out(
    [
      `Created environment ${name} (${created.environmentId}).`,
      `  client id     ${created.clientId}`,
      `  client secret ${created.clientSecret}`,
      'The secret is shown once: only its hash is stored. Give both to the application',
      '(AGENT_CONNECTOR_CLIENT_ID and AGENT_CONNECTOR_CLIENT_SECRET); it exchanges them at POST /oauth/token.',
    ].join('\n'),
  );
}

export async function listEnvironmentsCommand(io: CliIo, json: boolean): Promise<void> {
  const list = await withStore(io, (store) => store.listEnvironments());
  const rows = list.map((e) => ({ id: e.id, name: e.name, created_at: e.createdAt }));
  io.out(json ? JSON.stringify(rows, null, 2) : formatTable(rows, ['name', 'id', 'created_at']));
}

/**
 * Deletes an environment and everything in it (clients, connections, accounts and their tokens, links, sessions).
 * Its access tokens and dashboard sessions stop working at once on every instance (within a second: see
 * service/token-revocation.ts). Provider tokens are deleted, not revoked at the provider: disconnect accounts first
 * (`accounts disconnect`) where that matters.
 */
export async function deleteEnvironmentCommand(io: CliIo, id: string, json: boolean): Promise<void> {
  const config = readStoreConfigForCli(io);
  const deleted = await withStore(io, (store) => store.deleteEnvironment(id));
  if (!deleted) throw new Error(`no environment ${JSON.stringify(id)} in the store this command opened, ${whichStore(config, io.env)} (agent-connector environments list shows them)`);
  io.out(json ? JSON.stringify({ id, deleted: true }) : `Deleted environment ${id}; its access tokens and dashboard sessions no longer work.`);
}

/**
 * Gives an application client a new secret and prints it: the only time it exists. The store replaces the hash and
 * bumps the client's token generation, so the old secret and every token issued with it stop working at once.
 */
export async function rotateSecretCommand(io: CliIo, clientId: string | undefined, json: boolean): Promise<void> {
  const config = readStoreConfigForCli(io);
  requireServiceStore(config, io.env);
  const id = clientId ?? readDevState(config.dataDir)?.clientId;
  if (id === undefined) {
    throw new UsageError('which client? pass --client <id> (or set AGENT_CONNECTOR_CLIENT_ID); npm start prints its client id');
  }
  const secret = newClientSecret();
  const rotated = await withStore(io, async (store) => store.rotateAppClientSecret(id, await hashSecret(secret)));
  if (rotated === null) throw new Error(`no application client ${JSON.stringify(id)} in the store this command opened, ${whichStore(config, io.env)} (agent-connector environments list shows the environments)`);
  if (json) {
    io.out(JSON.stringify({ client_id: rotated.clientId, environment_id: rotated.environmentId, client_secret: secret }, null, 2));
    return;
  }
  io.out(
    [
      `New secret for client ${rotated.clientId} (environment ${rotated.environmentId}):`,
      `  client secret ${secret}`,
      'The secret is shown once: only its hash is stored. The old secret and the access tokens issued with it no',
      'longer work. If AGENT_CONNECTOR_CLIENT_SECRET holds the old one, update it before the next start.',
    ].join('\n'),
  );
}

/**
 * The store a command opened, as an operator can check it: the SQLite directory (and, when the variable is unset, that
 * its default was resolved against the working directory), or that DATABASE_URL chose PostgreSQL (never the URL,
 * which may hold a password). A client or environment that is not there is most often in another data directory.
 */
function whichStore(config: StoreConfig, env: NodeJS.ProcessEnv): string {
  if (config.databaseUrl !== undefined) return 'PostgreSQL (DATABASE_URL)';
  return `SQLite in ${config.dataDir} (${dataDirSource(env)}; to reach the service's store, run with its AGENT_CONNECTOR_DATA_DIR or DATABASE_URL)`;
}

/** Where the SQLite directory came from: the variable, or its default resolved against the working directory. */
function dataDirSource(env: NodeJS.ProcessEnv): string {
  return env.AGENT_CONNECTOR_DATA_DIR !== undefined && env.AGENT_CONNECTOR_DATA_DIR !== ''
    ? 'AGENT_CONNECTOR_DATA_DIR'
    : 'AGENT_CONNECTOR_DATA_DIR unset: ./.agent-connector in the working directory';
}

function readStoreConfigForCli(io: CliIo): StoreConfig {
  try {
    return readStoreConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
