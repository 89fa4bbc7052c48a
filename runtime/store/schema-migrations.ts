/**
 * The store's schema, written once for both databases as numbered migrations: the same tables and columns, with the
 * column types that differ (timestamps, JSON) supplied by each dialect (`sqlite/migrations.ts`,
 * `postgres/migrations.ts`). Applied in order, each once, by the driver's `migrate()`; never edit a released
 * migration, add one.
 */
import type { Migration } from './sql-driver.js';

/** How a dialect spells each kind of column. */
export interface ColumnTypes {
  text: string;
  integer: string;
  /** A UTC instant: `timestamptz` in PostgreSQL, ISO-8601 TEXT (`toISOString()`) in SQLite. */
  timestamp: string;
  /** A JSON document: `jsonb` in PostgreSQL, TEXT in SQLite. */
  json: string;
}

/** The migrations, in the given dialect's column types. */
export function storeMigrations(t: ColumnTypes): readonly Migration[] {
  return [
    {
      version: 1,
      name: 'initial schema',
      sql: `
        CREATE TABLE environments (
          id ${t.text} PRIMARY KEY,
          name ${t.text} NOT NULL,
          created_at ${t.timestamp} NOT NULL
        );
        CREATE TABLE app_clients (
          client_id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          secret_hash ${t.text} NOT NULL,
          created_at ${t.timestamp} NOT NULL
        );
        CREATE TABLE connections (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          name ${t.text} NOT NULL,
          connector ${t.text} NOT NULL,
          client_id ${t.text} NOT NULL,
          client_secret ${t.text} NOT NULL,
          scopes ${t.json} NOT NULL,
          overrides ${t.json} NOT NULL,
          allowed_redirect_urls ${t.json} NOT NULL,
          created_at ${t.timestamp} NOT NULL,
          updated_at ${t.timestamp} NOT NULL,
          UNIQUE (environment_id, name)
        );
        CREATE TABLE connected_accounts (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL,
          connection_id ${t.text} NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
          identifier ${t.text} NOT NULL,
          status ${t.text} NOT NULL CHECK (status IN ('PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED')),
          status_reason ${t.text},
          access_token ${t.text},
          refresh_token ${t.text},
          token_type ${t.text},
          expires_at ${t.timestamp},
          scopes ${t.json} NOT NULL DEFAULT '[]',
          token_version ${t.integer} NOT NULL DEFAULT 0,
          provider_info ${t.json} NOT NULL DEFAULT '{}',
          refresh_lease_owner ${t.text},
          refresh_lease_until ${t.timestamp},
          created_at ${t.timestamp} NOT NULL,
          updated_at ${t.timestamp} NOT NULL,
          UNIQUE (connection_id, identifier)
        );
        CREATE INDEX connected_accounts_env_identifier ON connected_accounts (environment_id, identifier);
        CREATE TABLE auth_links (
          token_hash ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL,
          connection_id ${t.text} NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
          account_id ${t.text} NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
          identifier ${t.text} NOT NULL,
          redirect_url ${t.text},
          expires_at ${t.timestamp} NOT NULL,
          created_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX auth_links_account ON auth_links (account_id);
        CREATE TABLE oauth_states (
          state_hash ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL,
          connection_id ${t.text} NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
          account_id ${t.text} NOT NULL REFERENCES connected_accounts(id) ON DELETE CASCADE,
          identifier ${t.text} NOT NULL,
          code_verifier ${t.text},
          browser_hash ${t.text} NOT NULL,
          redirect_url ${t.text},
          expires_at ${t.timestamp} NOT NULL,
          created_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX oauth_states_account ON oauth_states (account_id);
      `,
    },
    {
      version: 2,
      name: 'auth link browser binding',
      // Null until the first browser opens the link (bindAuthLink); links made before this migration bind then too.
      sql: `ALTER TABLE auth_links ADD COLUMN browser_hash ${t.text};`,
    },
    {
      version: 3,
      name: 'mcp sessions',
      // read_only is an integer (0/1) in both databases, so one statement reads and writes it the same way.
      sql: `
        CREATE TABLE mcp_sessions (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          identifier ${t.text} NOT NULL,
          token_hash ${t.text} NOT NULL UNIQUE,
          connections ${t.json},
          tools ${t.json},
          read_only ${t.integer} NOT NULL DEFAULT 0,
          mode ${t.text} NOT NULL CHECK (mode IN ('tools', 'search')),
          expires_at ${t.timestamp} NOT NULL,
          revoked_at ${t.timestamp},
          created_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX mcp_sessions_env_identifier ON mcp_sessions (environment_id, identifier);
        CREATE INDEX mcp_sessions_expires ON mcp_sessions (expires_at);
      `,
    },
    {
      version: 4,
      name: 'execution history',
      // No foreign keys: the history outlives the connection or account it names, until retention deletes it.
      sql: `
        CREATE TABLE executions (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL,
          started_at ${t.timestamp} NOT NULL,
          kind ${t.text} NOT NULL CHECK (kind IN ('tool', 'proxy')),
          connection_id ${t.text},
          connection_name ${t.text},
          identifier ${t.text},
          operation ${t.text} NOT NULL,
          outcome ${t.text} NOT NULL CHECK (outcome IN ('success', 'error')),
          error_code ${t.text},
          upstream_status ${t.integer},
          attempts ${t.integer} NOT NULL,
          duration_ms ${t.integer} NOT NULL,
          input ${t.json}
        );
        CREATE INDEX executions_env_started ON executions (environment_id, started_at, id);
        CREATE INDEX executions_started ON executions (started_at);
      `,
    },
    {
      version: 5,
      name: 'account events outbox and webhook endpoints',
      // The outbox: account_events rows are written in the transaction of the account change they report, with one
      // webhook_deliveries row per endpoint subscribed then. No foreign key to the account: an event outlives a
      // deleted connection's accounts (account.disconnected is written as they are deleted).
      sql: `
        CREATE TABLE webhook_endpoints (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          url ${t.text} NOT NULL,
          events ${t.json},
          secret ${t.text} NOT NULL,
          previous_secret ${t.text},
          previous_secret_expires_at ${t.timestamp},
          created_at ${t.timestamp} NOT NULL,
          updated_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX webhook_endpoints_env ON webhook_endpoints (environment_id);
        CREATE TABLE account_events (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          account_id ${t.text} NOT NULL,
          type ${t.text} NOT NULL,
          payload ${t.text} NOT NULL,
          dedupe_key ${t.text} UNIQUE,
          created_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX account_events_env_created ON account_events (environment_id, created_at);
        CREATE TABLE webhook_deliveries (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL,
          endpoint_id ${t.text} NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
          event_id ${t.text} NOT NULL REFERENCES account_events(id) ON DELETE CASCADE,
          status ${t.text} NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
          attempts ${t.integer} NOT NULL DEFAULT 0,
          next_attempt_at ${t.timestamp},
          lease_owner ${t.text},
          lease_until ${t.timestamp},
          last_status_code ${t.integer},
          last_error ${t.text},
          created_at ${t.timestamp} NOT NULL,
          updated_at ${t.timestamp} NOT NULL,
          UNIQUE (endpoint_id, event_id)
        );
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
        CREATE INDEX webhook_deliveries_env_created ON webhook_deliveries (environment_id, created_at);
        CREATE TABLE webhook_attempts (
          id ${t.text} PRIMARY KEY,
          delivery_id ${t.text} NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
          attempted_at ${t.timestamp} NOT NULL,
          status_code ${t.integer},
          duration_ms ${t.integer} NOT NULL,
          error ${t.text}
        );
        CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);
      `,
    },
    {
      version: 6,
      name: 'security: one pending state per link, revocable app tokens and sessions',
      // oauth_states.link_hash: at most one pending state per authorization link (reused while valid, so its raw
      // state is kept, sealed, in state_value). app_clients.token_generation: tokens carry the generation they were
      // issued under; rotating the secret bumps it. revoked_tokens: signed-out dashboard sessions, until they expire.
      sql: `
        ALTER TABLE oauth_states ADD COLUMN link_hash ${t.text};
        ALTER TABLE oauth_states ADD COLUMN state_value ${t.text};
        CREATE UNIQUE INDEX oauth_states_link ON oauth_states (link_hash);
        ALTER TABLE app_clients ADD COLUMN token_generation ${t.integer} NOT NULL DEFAULT 0;
        CREATE TABLE revoked_tokens (
          id ${t.text} PRIMARY KEY,
          expires_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);
      `,
    },
    {
      version: 7,
      name: 'auth link step-up scopes',
      // The scopes a link asks the provider for when it asks for more than the connection's (step-up); null: the
      // connection's own. Links made before this migration have none.
      sql: `ALTER TABLE auth_links ADD COLUMN scopes ${t.json};`,
    },
    {
      version: 8,
      name: 'account list order index',
      // The dashboard pages an environment's accounts in list order (created_at, id): with this index a page reads
      // its own rows instead of sorting the environment's every account.
      sql: `CREATE INDEX connected_accounts_env_created ON connected_accounts (environment_id, created_at, id);`,
    },
    {
      version: 9,
      name: 'webhook delivery log order index',
      // The delivery log pages an environment's deliveries newest first by keyset on (created_at, id); with id in the
      // index a page is one range search from the cursor's key, in index order. It replaces the (environment_id,
      // created_at) index, whose every use it serves.
      sql: `
        CREATE INDEX webhook_deliveries_env_created_id ON webhook_deliveries (environment_id, created_at, id);
        DROP INDEX webhook_deliveries_env_created;
      `,
    },
    {
      version: 10,
      name: 'dashboard one-time form sends',
      // A dashboard form that makes something is sent once per token (sql-form-sends.ts): id is the SHA-256 of the
      // session id and the token; result, sealed, is what the first send made; kept until the session would end.
      sql: `
        CREATE TABLE dashboard_form_sends (
          id ${t.text} PRIMARY KEY,
          environment_id ${t.text} NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
          action ${t.text} NOT NULL,
          result ${t.text},
          created_at ${t.timestamp} NOT NULL,
          expires_at ${t.timestamp} NOT NULL
        );
        CREATE INDEX dashboard_form_sends_expires ON dashboard_form_sends (expires_at);
      `,
    },
    {
      version: 11,
      name: 'execution error message',
      // The message a failed call's caller got (secrets already scrubbed, redacted and clipped by the tracker: see
      // `executions/error-message.ts`); null on success and in records written before this migration.
      sql: `ALTER TABLE executions ADD COLUMN error_message ${t.text};`,
    },
  ];
}
