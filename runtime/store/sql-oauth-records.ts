/**
 * The short-lived records of the OAuth flow: authorization links (`auth_links`, keyed by the link token's hash, bound
 * to the first browser that opens them) and
 * pending states (`oauth_states`, keyed by the state's hash, the PKCE verifier sealed with AAD
 * `oauth_states|<hash>|code_verifier`), and their purge once expired.
 */
import { secretAad } from '../crypto/secret-box.js';
import { normalizeTime, readJson, toAuthLink, toOAuthState, type AuthLinkRow, type Json, type OAuthStateRow } from './records.js';
import type { SqlContext } from './sql-context.js';
import type { AuthLinkRecord, OAuthStateRecord } from './types.js';

/** `auth_links` since migration 2: the browser binding, null until the first open; since 7: step-up scopes. */
type BoundAuthLinkRow = AuthLinkRow & { browser_hash?: string | null; scopes?: Json | null };

function toBoundAuthLink(row: BoundAuthLinkRow): AuthLinkRecord {
  const link: AuthLinkRecord = toAuthLink(row);
  if (typeof row.browser_hash === 'string') link.browserHash = row.browser_hash;
  if (row.scopes !== null && row.scopes !== undefined) link.scopes = readJson<string[]>(row.scopes);
  return link;
}

export class SqlOAuthRecords {
  constructor(private readonly ctx: SqlContext) {}

  async createAuthLink(rec: AuthLinkRecord): Promise<void> {
    await this.ctx.db.run(
      `INSERT INTO auth_links (token_hash, environment_id, connection_id, account_id, identifier, redirect_url, expires_at, created_at, browser_hash, scopes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        rec.tokenHash,
        rec.environmentId,
        rec.connectionId,
        rec.accountId,
        rec.identifier,
        rec.redirectUrl,
        normalizeTime(rec.expiresAt),
        new Date().toISOString(),
        rec.browserHash ?? null,
        rec.scopes === undefined ? null : JSON.stringify(rec.scopes),
      ],
    );
  }

  async getAuthLink(tokenHash: string): Promise<AuthLinkRecord | null> {
    const row = await this.ctx.db.get<BoundAuthLinkRow>('SELECT * FROM auth_links WHERE token_hash = ?', [tokenHash]);
    return row ? toBoundAuthLink(row) : null;
  }

  /** UPDATE ... RETURNING with COALESCE: the first binding wins and every caller reads the winner, in one statement. */
  async bindAuthLink(tokenHash: string, browserHash: string): Promise<AuthLinkRecord | null> {
    const row = await this.ctx.db.get<BoundAuthLinkRow>(
      'UPDATE auth_links SET browser_hash = COALESCE(browser_hash, ?) WHERE token_hash = ? RETURNING *',
      [browserHash, tokenHash],
    );
    return row ? toBoundAuthLink(row) : null;
  }

  /**
   * A state with a `linkHash` replaces the link's pending one in the same statement (ON CONFLICT on the unique
   * `link_hash`), so a link never holds more than one however often or concurrently it is opened.
   */
  async createOAuthState(rec: OAuthStateRecord): Promise<void> {
    await this.ctx.db.run(
      `INSERT INTO oauth_states (state_hash, environment_id, connection_id, account_id, identifier, code_verifier, browser_hash,
         redirect_url, expires_at, created_at, link_hash, state_value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (link_hash) DO UPDATE SET state_hash = excluded.state_hash, environment_id = excluded.environment_id,
         connection_id = excluded.connection_id, account_id = excluded.account_id, identifier = excluded.identifier,
         code_verifier = excluded.code_verifier, browser_hash = excluded.browser_hash, redirect_url = excluded.redirect_url,
         expires_at = excluded.expires_at, created_at = excluded.created_at, state_value = excluded.state_value`,
      [
        rec.stateHash,
        rec.environmentId,
        rec.connectionId,
        rec.accountId,
        rec.identifier,
        rec.codeVerifier === null ? null : this.ctx.box.seal(rec.codeVerifier, secretAad('oauth_states', rec.stateHash, 'code_verifier')),
        rec.browserHash,
        rec.redirectUrl,
        normalizeTime(rec.expiresAt),
        new Date().toISOString(),
        rec.linkHash ?? null,
        rec.state === undefined ? null : this.ctx.box.seal(rec.state, secretAad('oauth_states', rec.stateHash, 'state_value')),
      ],
    );
  }

  async getLinkOAuthState(linkHash: string): Promise<OAuthStateRecord | null> {
    const row = await this.ctx.db.get<OAuthStateRow>('SELECT * FROM oauth_states WHERE link_hash = ?', [linkHash]);
    return row ? toOAuthState(row, this.ctx.box) : null;
  }

  /** DELETE ... RETURNING: the read and the removal are one statement, so two callbacks cannot both get the state. */
  async consumeOAuthState(stateHash: string): Promise<OAuthStateRecord | null> {
    const row = await this.ctx.db.get<OAuthStateRow>('DELETE FROM oauth_states WHERE state_hash = ? RETURNING *', [stateHash]);
    return row ? toOAuthState(row, this.ctx.box) : null;
  }

  async purgeExpired(before: string = new Date().toISOString()): Promise<number> {
    const cutoff = normalizeTime(before);
    const states = await this.ctx.db.run('DELETE FROM oauth_states WHERE expires_at < ?', [cutoff]);
    const links = await this.ctx.db.run('DELETE FROM auth_links WHERE expires_at < ?', [cutoff]);
    const revoked = await this.ctx.db.run('DELETE FROM revoked_tokens WHERE expires_at < ?', [cutoff]);
    return states + links + revoked;
  }
}
