/**
 * PostgreSQL schema, as numbered migrations (same tables and columns as SQLite; timestamptz and jsonb where
 * PostgreSQL has them). Applied in order, each once; never edit a released migration, add one.
 */
import type { Migration } from '../sql-driver.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE environments (
        id text PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE app_clients (
        client_id text PRIMARY KEY,
        environment_id text NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE connections (
        id text PRIMARY KEY,
        environment_id text NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        name text NOT NULL,
        connector text NOT NULL,
        client_id text NOT NULL,
        client_secret text NOT NULL,
        scopes jsonb NOT NULL,
        overrides jsonb NOT NULL,
        allowed_redirect_urls jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (environment_id, name)
      );
      CREATE TABLE connected_accounts (
        id text PRIMARY KEY,
        environment_id text NOT NULL,
        connection_id text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        identifier text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED')),
        status_reason text,
        access_token text,
        refresh_token text,
        token_type text,
        expires_at timestamptz,
        scopes jsonb NOT NULL DEFAULT '[]',
        token_version integer NOT NULL DEFAULT 0,
        provider_info jsonb NOT NULL DEFAULT '{}',
        refresh_lease_owner text,
        refresh_lease_until timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (connection_id, identifier)
      );
      CREATE INDEX connected_accounts_env_identifier ON connected_accounts (environment_id, identifier);
      CREATE TABLE auth_links (
        token_hash text PRIMARY KEY,
        environment_id text NOT NULL,
        connection_id text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        account_id text NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
        identifier text NOT NULL,
        redirect_url text,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX auth_links_account ON auth_links (account_id);
      CREATE TABLE oauth_states (
        state_hash text PRIMARY KEY,
        environment_id text NOT NULL,
        connection_id text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        account_id text NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
        identifier text NOT NULL,
        code_verifier text,
        browser_hash text NOT NULL,
        redirect_url text,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX oauth_states_account ON oauth_states (account_id);
    `,
  },
];
