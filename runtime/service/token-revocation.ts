/**
 * Whether a signed token (application access token or dashboard session) still stands, asked of the store on each
 * request: its client must still exist, in the token's environment, at the token generation the token was issued
 * under (a secret rotation bumps it), and a session's id must not have been signed out. Deleting a client or an
 * environment, rotating a secret and signing out therefore take effect at once on this instance, and within
 * {@link RevocationCheckOptions.cacheMs} on every other instance sharing the database: answers are cached that
 * briefly, per client and per session id, so a busy application costs one primary-key read per second per instance.
 */
import { TtlCache } from '../executor/ttl-cache.js';
import type { AppClientRecord, Store } from '../store/types.js';

export interface RevocationCheckOptions {
  /** How long an answer from the store is reused. Default 1000 ms; 0 asks the store on every request. */
  cacheMs?: number;
  now?: () => number;
}

/** Per kind of answer; past it the oldest goes (the rule of the runtime's caches, `executor/ttl-cache.ts`). */
const MAX_ENTRIES = 10_000;

export class RevocationCheck {
  private readonly clients: TtlCache<string, AppClientRecord | null>;
  private readonly revoked: TtlCache<string, boolean>;

  constructor(
    private readonly store: Pick<Store, 'getAppClient' | 'isTokenRevoked' | 'revokeToken'>,
    options: RevocationCheckOptions = {},
  ) {
    const cache = { ttlMs: options.cacheMs ?? 1000, maxEntries: MAX_ENTRIES, now: options.now ?? Date.now };
    this.clients = new TtlCache(cache);
    this.revoked = new TtlCache(cache);
  }

  /** Whether the client `clientId` still stands in `environmentId` at `generation`. */
  async clientStands(clientId: string, environmentId: string, generation: number): Promise<boolean> {
    const client = await this.cached(this.clients, clientId, () => this.store.getAppClient(clientId));
    return client !== null && client.environmentId === environmentId && client.tokenGeneration === generation;
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return this.cached(this.revoked, tokenId, () => this.store.isTokenRevoked(tokenId));
  }

  /** Records `tokenId` as revoked (until `expiresAt`, when the token would have expired anyway). */
  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await this.store.revokeToken(tokenId, expiresAt.toISOString());
    this.revoked.set(tokenId, true);
  }

  /** Drops what is known of a client, after this process rotated, deleted or recreated it. */
  forgetClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  private async cached<T>(cache: TtlCache<string, T>, key: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    cache.set(key, value);
    return value;
  }
}
