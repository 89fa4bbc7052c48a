/**
 * Whether a signed token (application access token or dashboard session) still stands, asked of the store on each
 * request: its client must still exist, in the token's environment, at the token generation the token was issued
 * under (a secret rotation bumps it), and a session's id must not have been signed out. Deleting a client or an
 * environment, rotating a secret and signing out therefore take effect at once on this instance, and within
 * {@link RevocationCheckOptions.cacheMs} on every other instance sharing the database: answers are cached that
 * briefly, per client and per session id, so a busy application costs one primary-key read per second per instance.
 */
import type { AppClientRecord, Store } from '../store/types.js';

export interface RevocationCheckOptions {
  /** How long an answer from the store is reused. Default 1000 ms; 0 asks the store on every request. */
  cacheMs?: number;
  now?: () => number;
}

interface Cached<T> {
  value: T;
  at: number;
}

const MAX_ENTRIES = 10_000;

export class RevocationCheck {
  private readonly clients = new Map<string, Cached<AppClientRecord | null>>();
  private readonly revoked = new Map<string, Cached<boolean>>();
  private readonly cacheMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<Store, 'getAppClient' | 'isTokenRevoked' | 'revokeToken'>,
    options: RevocationCheckOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? 1000;
    this.now = options.now ?? Date.now;
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
    this.revoked.set(tokenId, { value: true, at: this.now() });
  }

  /** Drops what is known of a client, after this process rotated, deleted or recreated it. */
  forgetClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  private async cached<T>(map: Map<string, Cached<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.now();
    const hit = map.get(key);
    if (hit !== undefined && now - hit.at < this.cacheMs) return hit.value;
    const value = await load();
    if (this.cacheMs > 0) {
      if (map.size >= MAX_ENTRIES) map.clear();
      map.set(key, { value, at: now });
    }
    return value;
  }
}
