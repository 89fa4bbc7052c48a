import { randomBytes, randomUUID } from 'node:crypto';
import type { OAuthProvider, RegisteredClient } from '../types.js';

/** An authorization code, single-use and short-lived. */
export interface AuthCode {
  code: string;
  provider: OAuthProvider;
  clientId: string;
  user: string;
  scopes: string[];
  /** The redirect_uri sent on the authorize request, or null when it was omitted (Notion allows that). */
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  /** Whether the token response carries a refresh token. */
  issueRefreshToken: boolean;
  expiresAt: number;
  used: boolean;
}

/** One user's consent to one client: the thing refresh tokens and access tokens hang off. */
export interface Grant {
  id: string;
  provider: OAuthProvider;
  clientId: string;
  user: string;
  scopes: string[];
}

export interface AccessTokenRecord {
  token: string;
  grantId: string;
  provider: OAuthProvider;
  clientId: string;
  user: string;
  scopes: string[];
  issuedAt: number;
  /** Ms since epoch, or null for a token that does not expire by time. */
  expiresAt: number | null;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  token: string;
  grantId: string;
  provider: OAuthProvider;
  clientId: string;
  user: string;
  /** Revoked, or (Notion) replaced by a newer token in a rotation. */
  revoked: boolean;
}

export type AccessLookup =
  | { ok: true; record: AccessTokenRecord }
  | { ok: false; why: 'unknown' | 'revoked' }
  | { ok: false; why: 'expired'; record: AccessTokenRecord };

/** Code lifetime: Google documents 10 minutes at most, and RFC 6749 section 4.1.2 recommends the same bound. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

const TOKEN_PREFIX: Record<OAuthProvider, { access: string; refresh: string; code: string }> = {
  notion: { access: 'ntn_', refresh: 'nrt_', code: '' },
  google: { access: 'ya29.', refresh: '1//', code: '4/0A' },
  hubspot: { access: 'CO', refresh: '', code: '' },
};

function opaque(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export interface GrantStoreState {
  clients: Map<string, RegisteredClient>;
  codes: Map<string, AuthCode>;
  grants: Map<string, Grant>;
  access: Map<string, AccessTokenRecord>;
  refresh: Map<string, RefreshTokenRecord>;
  offlineIssued: Set<string>;
  consented: Set<string>;
}

/** All OAuth state of the sandbox: clients, codes, grants and tokens, for the three provider families. */
export class GrantStore {
  private readonly clients = new Map<string, RegisteredClient>();
  private readonly codes = new Map<string, AuthCode>();
  private readonly grants = new Map<string, Grant>();
  private readonly access = new Map<string, AccessTokenRecord>();
  private readonly refresh = new Map<string, RefreshTokenRecord>();
  /** provider|clientId|user that already received an offline refresh token (Google re-issues only on prompt=consent). */
  private readonly offlineIssued = new Set<string>();
  /** provider|clientId|user that consented at least once (Google prompt=none). */
  private readonly consented = new Set<string>();
  readonly tokenRequests: { provider: OAuthProvider; grantType: string }[] = [];

  registerClient(client: RegisteredClient): void {
    this.clients.set(`${client.provider}|${client.clientId}`, {
      ...client,
      redirectUris: [...client.redirectUris],
      ...(client.capabilities ? { capabilities: [...client.capabilities] } : {}),
    });
  }

  client(provider: OAuthProvider, clientId: string | null | undefined): RegisteredClient | undefined {
    return clientId ? this.clients.get(`${provider}|${clientId}`) : undefined;
  }

  firstClient(provider: OAuthProvider): RegisteredClient | undefined {
    for (const c of this.clients.values()) if (c.provider === provider) return c;
    return undefined;
  }

  issueCode(input: Omit<AuthCode, 'code' | 'used' | 'expiresAt'>, now: number): AuthCode {
    const record: AuthCode = { ...input, code: TOKEN_PREFIX[input.provider].code + opaque(), used: false, expiresAt: now + CODE_LIFETIME_MS };
    this.codes.set(record.code, record);
    this.consented.add(`${input.provider}|${input.clientId}|${input.user}`);
    return record;
  }

  /** Looks a code up and marks it used: a code works once, whatever the outcome of the exchange. */
  takeCode(provider: OAuthProvider, code: string, now: number): { ok: true; code: AuthCode } | { ok: false; why: 'unknown' | 'used' | 'expired' } {
    const record = this.codes.get(code);
    if (!record || record.provider !== provider) return { ok: false, why: 'unknown' };
    if (record.used) return { ok: false, why: 'used' };
    record.used = true;
    if (record.expiresAt <= now) return { ok: false, why: 'expired' };
    return { ok: true, code: record };
  }

  hasConsented(provider: OAuthProvider, clientId: string, user: string): boolean {
    return this.consented.has(`${provider}|${clientId}|${user}`);
  }

  /** Google issues a refresh token for an offline grant the first time, then only again with prompt=consent. */
  shouldIssueOfflineRefresh(provider: OAuthProvider, clientId: string, user: string, forceConsent: boolean): boolean {
    const key = `${provider}|${clientId}|${user}`;
    if (forceConsent || !this.offlineIssued.has(key)) {
      this.offlineIssued.add(key);
      return true;
    }
    return false;
  }

  createGrant(provider: OAuthProvider, clientId: string, user: string, scopes: string[]): Grant {
    const grant: Grant = { id: randomUUID(), provider, clientId, user, scopes: [...scopes] };
    this.grants.set(grant.id, grant);
    return grant;
  }

  /** Every scope the user still grants the client: the union over its grants with a live (unrevoked) refresh token. */
  grantedScopes(provider: OAuthProvider, clientId: string, user: string): string[] {
    const live = new Set([...this.refresh.values()].filter((r) => !r.revoked).map((r) => r.grantId));
    const out = new Set<string>();
    for (const g of this.grants.values()) {
      if (g.provider === provider && g.clientId === clientId && g.user === user && live.has(g.id)) for (const s of g.scopes) out.add(s);
    }
    return [...out];
  }

  grant(id: string): Grant | undefined {
    return this.grants.get(id);
  }

  issueAccessToken(grant: Grant, now: number, lifetimeSeconds: number | null): AccessTokenRecord {
    const record: AccessTokenRecord = {
      token: TOKEN_PREFIX[grant.provider].access + opaque(32),
      grantId: grant.id,
      provider: grant.provider,
      clientId: grant.clientId,
      user: grant.user,
      scopes: [...grant.scopes],
      issuedAt: now,
      expiresAt: lifetimeSeconds === null ? null : now + lifetimeSeconds * 1000,
      revoked: false,
    };
    this.access.set(record.token, record);
    return record;
  }

  issueRefreshToken(grant: Grant): RefreshTokenRecord {
    // HubSpot refresh tokens look like UUIDs; the others are opaque strings.
    const body = grant.provider === 'hubspot' ? randomUUID() : opaque(32);
    const record: RefreshTokenRecord = {
      token: TOKEN_PREFIX[grant.provider].refresh + body,
      grantId: grant.id,
      provider: grant.provider,
      clientId: grant.clientId,
      user: grant.user,
      revoked: false,
    };
    this.refresh.set(record.token, record);
    return record;
  }

  lookupAccess(provider: OAuthProvider, token: string, now: number): AccessLookup {
    const record = this.access.get(token);
    if (!record || record.provider !== provider) return { ok: false, why: 'unknown' };
    if (record.revoked) return { ok: false, why: 'revoked' };
    if (record.expiresAt !== null && record.expiresAt <= now) return { ok: false, why: 'expired', record };
    return { ok: true, record };
  }

  lookupRefresh(provider: OAuthProvider, token: string): RefreshTokenRecord | undefined {
    const record = this.refresh.get(token);
    return record && record.provider === provider ? record : undefined;
  }

  findAccess(token: string): AccessTokenRecord | undefined {
    return this.access.get(token);
  }

  /** Revokes a whole grant: every access and refresh token issued under it. */
  revokeGrant(grantId: string): void {
    for (const r of this.access.values()) if (r.grantId === grantId) r.revoked = true;
    for (const r of this.refresh.values()) if (r.grantId === grantId) r.revoked = true;
  }

  expireAccessTokens(provider: OAuthProvider, user: string | undefined, now: number): number {
    let n = 0;
    for (const r of this.access.values()) {
      if (r.provider !== provider || (user !== undefined && r.user !== user)) continue;
      if (r.expiresAt === null || r.expiresAt > now) {
        r.expiresAt = now - 1;
        n += 1;
      }
    }
    return n;
  }

  revokeRefreshTokens(provider: OAuthProvider, user: string | undefined): number {
    let n = 0;
    for (const r of this.refresh.values()) {
      if (r.provider !== provider || (user !== undefined && r.user !== user) || r.revoked) continue;
      r.revoked = true;
      n += 1;
    }
    return n;
  }

  /** What a restart keeps: clients, codes, grants, tokens and consents (not the token-request log, which describes one run). */
  persistentState(): GrantStoreState {
    return { clients: this.clients, codes: this.codes, grants: this.grants, access: this.access, refresh: this.refresh, offlineIssued: this.offlineIssued, consented: this.consented };
  }

  /** Adds saved state (from {@link persistentState} of an earlier run) to this store. */
  restoreState(saved: GrantStoreState): void {
    for (const [k, v] of saved.clients) this.clients.set(k, v);
    for (const [k, v] of saved.codes) this.codes.set(k, v);
    for (const [k, v] of saved.grants) this.grants.set(k, v);
    for (const [k, v] of saved.access) this.access.set(k, v);
    for (const [k, v] of saved.refresh) this.refresh.set(k, v);
    for (const k of saved.offlineIssued) this.offlineIssued.add(k);
    for (const k of saved.consented) this.consented.add(k);
  }

  countTokenRequests(provider: OAuthProvider, grantType?: string): number {
    return this.tokenRequests.filter((t) => t.provider === provider && (grantType === undefined || t.grantType === grantType)).length;
  }
}
