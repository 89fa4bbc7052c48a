/**
 * Application authentication: OAuth 2.0 client credentials for the service itself, then Bearer tokens.
 *
 * Access tokens are short-lived HS256 JWTs carrying the environment id and the client's token generation; checking
 * one is an HMAC plus a revocation check against the store, cached for a second (token-revocation.ts); and a token already verified is remembered until it expires, so most requests pay
 * a map lookup instead (jose's WebCrypto verify was a tenth of the service's CPU per request). The signing key never leaves the process; app secrets are stored only as salted
 * hashes and checked once per token request.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4 (client credentials grant)
 * @see https://www.rfc-editor.org/rfc/rfc6750 (Bearer token usage)
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Store } from '../store/types.js';
import { hashSecret, verifySecret } from '../crypto/index.js';
import { RevocationCheck } from './token-revocation.js';

export const TOKEN_ISSUER = 'agent-connector';
/** How long a dashboard session (its token and its cookie) lasts: 8 hours (docs/operations.md). */
export const SESSION_TTL_SECONDS = 8 * 3600;
const ACCESS_AUDIENCE = 'agent-connector:api';
const SESSION_AUDIENCE = 'agent-connector:dashboard';

export interface AppAuthOptions {
  /**
   * At least 32 bytes each. One key, or several: the first signs, every one verifies (a token names its key by `kid`),
   * which is how the key is rotated without refusing outstanding tokens. A token whose key is not listed is refused.
   */
  signingKey: Uint8Array | readonly Uint8Array[];
  /** Access token lifetime; default one hour. */
  tokenTtlSeconds?: number;
  /** How long a revocation answer from the store is reused (token-revocation.ts). Default 1000 ms. */
  revocationCacheMs?: number;
  now?: () => number;
}

export interface AccessTokenClaims {
  environmentId: string;
  clientId: string;
  /** The client's token generation when the token was issued; a secret rotation makes older ones stop working. */
  generation: number;
}

export interface SessionClaims extends AccessTokenClaims {
  /** Per-session anti-CSRF value, echoed by every dashboard form. */
  csrf: string;
  /** The session's id (`jti`), recorded as revoked at sign-out. */
  id: string;
  /** When the session would expire by itself. */
  expiresAt: Date;
}

/** Verified tokens remembered per process; an application reuses one token for its hour, so this is plenty. */
const VERIFIED_CACHE_SIZE = 10_000;

interface Verified {
  payload: Record<string, unknown>;
  /** `exp` in ms; past it the entry is dropped and the token refused like any expired one. */
  expiresAtMs: number;
}

export class AppAuth {
  readonly tokenTtlSeconds: number;
  /**
   * Keyed by audience and the whole token, signature included: a hit is a string that already verified with this
   * process's key, so a forged or altered token can only miss. Oldest first out (Map keeps insertion order).
   */
  private readonly verified = new Map<string, Verified>();
  private readonly now: () => number;
  /** The key that signs, and its kid. */
  private readonly current: { kid: string; key: Uint8Array };
  /** Every key that verifies, by kid, the current one first. */
  private readonly keysByKid: ReadonlyMap<string, Uint8Array>;
  /** A real hash to compare against when the client id is unknown, so timing does not reveal which ids exist. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: AppAuthOptions,
  ) {
    const keys = options.signingKey instanceof Uint8Array ? [options.signingKey] : [...options.signingKey];
    if (keys.length === 0) throw new RangeError('at least one token signing key is needed');
    if (keys.some((key) => key.byteLength < 32)) throw new RangeError('the token signing key must be at least 32 bytes');
    this.keysByKid = new Map(keys.map((key) => [signingKeyId(key), key]));
    const [kid, key] = this.keysByKid.entries().next().value as [string, Uint8Array];
    this.current = { kid, key };
    this.tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
    this.now = options.now ?? Date.now;
    this.revocation = new RevocationCheck(store, { cacheMs: options.revocationCacheMs ?? 1000, now: this.now });
  }

  /** Store-backed revocation: deleted clients and environments, rotated secrets, signed-out sessions. */
  readonly revocation: RevocationCheck;

  /** Checks client credentials; returns the environment they belong to, or null. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<AccessTokenClaims | null> {
    const client = await this.store.getAppClient(clientId);
    if (!client) {
      await verifySecret(clientSecret, await this.decoy());
      return null;
    }
    const ok = await verifySecret(clientSecret, client.secretHash);
    return ok ? { environmentId: client.environmentId, clientId: client.clientId, generation: client.tokenGeneration } : null;
  }

  async issueAccessToken(claims: AccessTokenClaims): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const token = await this.sign({ env: claims.environmentId, cid: claims.clientId, gen: claims.generation }, ACCESS_AUDIENCE, this.tokenTtlSeconds);
    return { access_token: token, token_type: 'Bearer', expires_in: this.tokenTtlSeconds };
  }

  /**
   * The claims of a valid, unexpired access token whose client still stands (not deleted, environment not deleted,
   * secret not rotated since), or null. Tokens signed before generations existed count as generation 0.
   */
  async verifyAccessToken(token: string): Promise<AccessTokenClaims | null> {
    const payload = await this.verify(token, ACCESS_AUDIENCE);
    if (!payload || typeof payload.env !== 'string' || typeof payload.cid !== 'string') return null;
    const claims = { environmentId: payload.env, clientId: payload.cid, generation: typeof payload.gen === 'number' ? payload.gen : 0 };
    return (await this.revocation.clientStands(claims.clientId, claims.environmentId, claims.generation)) ? claims : null;
  }

  async issueSession(claims: AccessTokenClaims, ttlSeconds = SESSION_TTL_SECONDS): Promise<{ token: string; csrf: string }> {
    const csrf = randomBytes(24).toString('base64url');
    const token = await this.sign({ env: claims.environmentId, cid: claims.clientId, gen: claims.generation, csrf, jti: randomBytes(16).toString('base64url') }, SESSION_AUDIENCE, ttlSeconds);
    return { token, csrf };
  }

  /** A session stands like an access token, and also until it is signed out ({@link revokeSession}). */
  async verifySession(token: string): Promise<SessionClaims | null> {
    const payload = await this.verify(token, SESSION_AUDIENCE);
    if (!payload || typeof payload.env !== 'string' || typeof payload.cid !== 'string' || typeof payload.csrf !== 'string') return null;
    if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
    const generation = typeof payload.gen === 'number' ? payload.gen : 0;
    if (!(await this.revocation.clientStands(payload.cid, payload.env, generation)) || (await this.revocation.isRevoked(payload.jti))) return null;
    return { environmentId: payload.env, clientId: payload.cid, generation, csrf: payload.csrf, id: payload.jti, expiresAt: new Date(payload.exp * 1000) };
  }

  /** Signs a session out everywhere: its id is recorded as revoked until it would have expired. */
  async revokeSession(session: SessionClaims): Promise<void> {
    await this.revocation.revoke(session.id, session.expiresAt);
  }

  private async sign(claims: Record<string, string | number>, audience: string, ttlSeconds: number): Promise<string> {
    const nowSeconds = Math.floor(this.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: this.current.kid })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + ttlSeconds)
      .sign(this.current.key);
  }

  private async verify(token: string, audience: string): Promise<Record<string, unknown> | null> {
    const key = `${audience} ${token}`;
    const nowMs = this.now();
    const hit = this.verified.get(key);
    if (hit !== undefined) {
      if (nowMs < hit.expiresAtMs) return hit.payload;
      this.verified.delete(key);
    }
    try {
      const { payload } = await jwtVerify(token, (header) => this.keyFor(header.kid), {
        issuer: TOKEN_ISSUER,
        audience,
        algorithms: ['HS256'],
        currentDate: new Date(nowMs),
      });
      // Every token this class signs has `exp`; one without is verified each time rather than kept forever.
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
        this.verified.set(key, { payload: payload as Record<string, unknown>, expiresAtMs: payload.exp * 1000 });
      }
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  /**
   * The key a token names by its `kid`; a kid not listed is refused (jose's no-matching-key error). A token without
   * a kid was signed before keys had ids, with the then only key: it is checked against the current key.
   */
  private keyFor(kid: string | undefined): Uint8Array {
    if (kid === undefined) return this.current.key;
    const key = this.keysByKid.get(kid);
    if (key === undefined) throw new joseErrors.JWKSNoMatchingKey();
    return key;
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= Promise.resolve(hashSecret(randomBytes(16).toString('hex')));
    return this.decoyHash;
  }
}

/**
 * A signing key's `kid`: the first 12 characters of base64url HMAC-SHA256(key, "agent-connector token kid"). It lets
 * a verifier pick the key directly, and reveals nothing about the key; the same key gets the same kid on every instance.
 */
export function signingKeyId(key: Uint8Array): string {
  return createHmac('sha256', key).update('agent-connector token kid').digest('base64url').slice(0, 12);
}

/** Constant-time string comparison (for CSRF tokens). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
