/**
 * Row <-> record mapping shared by both databases. SQLite hands back TEXT for times and JSON; PostgreSQL hands back
 * `Date` for timestamptz and parsed objects for jsonb; the readers here accept both so the records are identical.
 */
import { SecretBox, SecretDecryptError, secretAad } from '../crypto/secret-box.js';
import type { ConnectorName } from '../types.js';
import type {
  AccountRecord,
  AccountStatus,
  AuthLinkRecord,
  ConnectionOverrides,
  ConnectionRecord,
  EnvironmentRecord,
  AppClientRecord,
  OAuthStateRecord,
  TokenSet,
} from './types.js';

/** A timestamp column as a driver hands it back: ISO text from SQLite, a `Date` from PostgreSQL's timestamptz. */
export type Time = string | Date;
/** A JSON column as a driver hands it back: text from SQLite, the parsed value from PostgreSQL's jsonb. */
export type Json = string | object;

export interface EnvironmentRow { id: string; name: string; created_at: Time }
export interface AppClientRow { client_id: string; environment_id: string; secret_hash: string; created_at: Time; token_generation?: number | string }
/** A connection row as records are read from it: every column but the sealed client secret. */
export interface ConnectionRow {
  id: string; environment_id: string; name: string; connector: string; client_id: string;
  scopes: Json; overrides: Json; allowed_redirect_urls: Json; created_at: Time; updated_at: Time;
}
export interface AccountRow {
  id: string; environment_id: string; connection_id: string; identifier: string; status: string;
  status_reason: string | null; access_token: string | null; refresh_token: string | null; token_type: string | null;
  expires_at: Time | null; scopes: Json; token_version: number | string; provider_info: Json;
  created_at: Time; updated_at: Time;
}
export interface AuthLinkRow {
  token_hash: string; environment_id: string; connection_id: string; account_id: string; identifier: string;
  redirect_url: string | null; expires_at: Time;
}
export interface OAuthStateRow {
  state_hash: string; environment_id: string; connection_id: string; account_id: string; identifier: string;
  code_verifier: string | null; browser_hash: string; redirect_url: string | null; expires_at: Time;
  link_hash?: string | null; state_value?: string | null;
}

/**
 * Every encrypted column, with the key column its AAD binds. `reencryptAll` walks this list, so a new secret column
 * must be added here.
 */
export const SECRET_COLUMNS = [
  { table: 'connections', key: 'id', columns: ['client_secret'] },
  { table: 'connected_accounts', key: 'id', columns: ['access_token', 'refresh_token'] },
  { table: 'oauth_states', key: 'state_hash', columns: ['code_verifier', 'state_value'] },
  { table: 'webhook_endpoints', key: 'id', columns: ['secret', 'previous_secret'] },
  { table: 'dashboard_form_sends', key: 'id', columns: ['result'] },
] as const;

/** Times are stored as UTC ISO strings with milliseconds, so that text comparison in SQLite orders them. */
export function isoTime(value: Time): string {
  // SQLite rows already hold the normalized string (the store writes only `toISOString()` output).
  return typeof value === 'string' ? value : value.toISOString();
}

/** Normalizes a caller-given time before it is written; throws on an unparseable one. */
export function normalizeTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a valid time: ${JSON.stringify(value)}`);
  return date.toISOString();
}

export function readJson<T>(value: Json): T {
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}

export function toEnvironment(row: EnvironmentRow): EnvironmentRecord {
  return { id: row.id, name: row.name, createdAt: isoTime(row.created_at) };
}

export function toAppClient(row: AppClientRow): AppClientRecord {
  return {
    clientId: row.client_id,
    environmentId: row.environment_id,
    secretHash: row.secret_hash,
    createdAt: isoTime(row.created_at),
    tokenGeneration: Number(row.token_generation ?? 0),
  };
}

export function toConnection(row: ConnectionRow): ConnectionRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    name: row.name,
    connector: row.connector as ConnectorName,
    clientId: row.client_id,
    scopes: readJson<string[]>(row.scopes),
    overrides: readJson<ConnectionOverrides>(row.overrides),
    allowedRedirectUrls: readJson<string[]>(row.allowed_redirect_urls),
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/**
 * The token set of an account row. With `lazyRefresh` (the executor's per-call `findAccount`) the refresh token is
 * opened on first read, not here: a tool call needs only the access token, and each AES-GCM open is a large part
 * of a lookup, so a lookup opens one value. The property is an
 * ordinary enumerable one to every reader (spread, JSON, equality); a value that fails to authenticate throws on
 * that read. Every other read, the refresh coordinator's `getAccount` included, opens both at once.
 */
function toTokens(row: AccountRow & { access_token: string }, box: SecretBox, lazyRefresh: boolean): TokenSet {
  const tokens = {
    accessToken: box.open(row.access_token, secretAad('connected_accounts', row.id, 'access_token')),
    refreshToken: null as string | null,
    expiresAt: row.expires_at === null ? null : isoTime(row.expires_at),
    tokenType: row.token_type ?? 'Bearer',
    scopes: readJson<string[]>(row.scopes),
  };
  const sealed = row.refresh_token;
  if (sealed !== null && !lazyRefresh) {
    tokens.refreshToken = box.open(sealed, secretAad('connected_accounts', row.id, 'refresh_token'));
  } else if (sealed !== null) {
    let opened: string | undefined;
    Object.defineProperty(tokens, 'refreshToken', {
      enumerable: true,
      configurable: true,
      // Opened on first use (a refresh); one that does not decrypt reads as absent, so the refresh reports
      // reauthorization_required instead of failing the call (see toAccount for the access token).
      get: () => {
        if (opened === undefined) {
          try {
            opened = box.open(sealed, secretAad('connected_accounts', row.id, 'refresh_token'));
          } catch (error) {
            if (!(error instanceof SecretDecryptError)) throw error;
            return null;
          }
        }
        return opened;
      },
      set: (value: string | null) => Object.defineProperty(tokens, 'refreshToken', { value, enumerable: true, writable: true, configurable: true }),
    });
  }
  return tokens;
}

/** The status reason of an account whose stored tokens cannot be decrypted (see {@link toAccount}). */
export const UNDECRYPTABLE_REASON =
  'undecryptable: the stored tokens cannot be decrypted (damaged, or sealed with a key no longer in AGENT_CONNECTOR_ENCRYPTION_KEY); disconnect or delete the account, or authorize it again';

/**
 * An account row. One whose tokens cannot be decrypted (a damaged value, or a key dropped before re-encryption
 * finished) must not take every list, the dashboard and new links for its identifier down with it: it is read as
 * EXPIRED with no tokens and {@link UNDECRYPTABLE_REASON}, so calls get `reauthorization_required`, and the operator
 * can disconnect it, delete it, or send the user a new link (the callback overwrites the tokens).
 */
export function toAccount(row: AccountRow, box: SecretBox, opts: { lazyRefresh?: boolean } = {}): AccountRecord {
  let tokens: TokenSet | null = null;
  let undecryptable = false;
  try {
    tokens = row.access_token === null ? null : toTokens(row as AccountRow & { access_token: string }, box, opts.lazyRefresh === true);
  } catch (error) {
    if (!(error instanceof SecretDecryptError)) throw error;
    undecryptable = true;
  }
  return {
    id: row.id,
    environmentId: row.environment_id,
    connectionId: row.connection_id,
    identifier: row.identifier,
    status: undecryptable ? 'EXPIRED' : (row.status as AccountStatus),
    tokens,
    providerInfo: readJson<Record<string, unknown>>(row.provider_info),
    statusReason: undecryptable ? UNDECRYPTABLE_REASON : row.status_reason,
    tokenVersion: Number(row.token_version),
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

export function toAuthLink(row: AuthLinkRow): AuthLinkRecord {
  return {
    tokenHash: row.token_hash,
    environmentId: row.environment_id,
    connectionId: row.connection_id,
    accountId: row.account_id,
    identifier: row.identifier,
    redirectUrl: row.redirect_url,
    expiresAt: isoTime(row.expires_at),
  };
}

export function toOAuthState(row: OAuthStateRow, box: SecretBox): OAuthStateRecord {
  return {
    stateHash: row.state_hash,
    environmentId: row.environment_id,
    connectionId: row.connection_id,
    accountId: row.account_id,
    identifier: row.identifier,
    codeVerifier: row.code_verifier === null ? null : box.open(row.code_verifier, secretAad('oauth_states', row.state_hash, 'code_verifier')),
    browserHash: row.browser_hash,
    redirectUrl: row.redirect_url,
    expiresAt: isoTime(row.expires_at),
    ...(typeof row.link_hash === 'string' ? { linkHash: row.link_hash } : {}),
    ...(typeof row.state_value === 'string' ? { state: box.open(row.state_value, secretAad('oauth_states', row.state_hash, 'state_value')) } : {}),
  };
}
