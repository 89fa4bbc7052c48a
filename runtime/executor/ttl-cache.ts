/**
 * The one rule of the runtime's short-lived caches (the lookup cache, the pre-check cache, the service's revocation
 * check), each owned by its instance (a connector, a service) and read on that instance's clock (the connector's
 * environment scopes use only the bound: an infinite `ttlMs` on a fixed clock):
 * - an entry is fresh while `now() - written` is at least 0 and under `ttlMs` (a clock set back makes it stale,
 *   never longer-lived); a stale entry is dropped when read;
 * - at `maxEntries`, a new key pushes the oldest entry out (a Map keeps insertion order, and rewriting a key moves it
 *   to the end, so the first entry is the one written longest ago);
 * - a `ttlMs` of 0 or less caches nothing.
 *
 * toad-cache (already installed with fastify) has a FIFO cache with a TTL, but reads `Date.now()` itself, which
 * would leave the connector's injected clock out.
 */
export interface TtlCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();

  constructor(private readonly options: TtlCacheOptions) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.options.now() - entry.at;
    if (age >= 0 && age < this.options.ttlMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V): void {
    if (this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, at: this.options.now() });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry, fresh or not, whose value `drop` picks. */
  deleteWhere(drop: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (drop(entry.value)) this.entries.delete(key);
  }
}
