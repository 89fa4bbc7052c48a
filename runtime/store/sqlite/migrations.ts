/**
 * SQLite schema, as numbered migrations. Applied in order, each once; never edit a released migration, add one.
 * Times are UTC ISO-8601 TEXT (`toISOString()`), JSON is TEXT. Secret columns hold `SecretBox` sealed values.
 */
import type { Migration } from '../sql-driver.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE environments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE app_clients (
        client_id TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE connections (
        id TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        connector TEXT NOT NULL,
        client_id TEXT NOT NULL,
        client_secret TEXT NOT NULL,
        scopes TEXT NOT NULL,
        overrides TEXT NOT NULL,
        allowed_redirect_urls TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (environment_id, name)
      );
      CREATE TABLE connected_accounts (
        id TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL,
        connection_id TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        identifier TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED')),
        status_reason TEXT,
        access_token TEXT,
        refresh_token TEXT,
        token_type TEXT,
        expires_at TEXT,
        scopes TEXT NOT NULL DEFAULT '[]',
        token_version INTEGER NOT NULL DEFAULT 0,
        provider_info TEXT NOT NULL DEFAULT '{}',
        refresh_lease_owner TEXT,
        refresh_lease_until TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (connection_id, identifier)
      );
      CREATE INDEX connected_accounts_env_identifier ON connected_accounts (environment_id, identifier);
      CREATE TABLE auth_links (
        token_hash TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL,
        connection_id TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
        identifier TEXT NOT NULL,
        redirect_url TEXT,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX auth_links_account ON auth_links (account_id);
      CREATE TABLE oauth_states (
        state_hash TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL,
        connection_id TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
        identifier TEXT NOT NULL,
        code_verifier TEXT,
        browser_hash TEXT NOT NULL,
        redirect_url TEXT,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX oauth_states_account ON oauth_states (account_id);
    `,
  },
];
