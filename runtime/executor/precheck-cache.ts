/**
 * What tool pre-checks cache (e.g. a Notion database's schema), per connected account, on the connector instance.
 *
 * Entries live a short time (default {@link PRECHECK_TTL_MS}): a column renamed in the provider's UI shows within
 * that, and the executor drops an account's entries as soon as the upstream refuses a pre-checked call, since a
 * refusal may mean the cached schema is stale. Bounded: past {@link MAX_ENTRIES} the oldest account's entries go.
 */
export const PRECHECK_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: unknown;
  at: number;
}

export class PrecheckCache {
  private readonly byAccount = new Map<string, Map<string, Entry>>();
  private count = 0;

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number = PRECHECK_TTL_MS,
  ) {}

  get(account: string, key: string): unknown {
    const entry = this.byAccount.get(account)?.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.delete(account, key);
      return undefined;
    }
    return entry.value;
  }

  set(account: string, key: string, value: unknown): void {
    if (this.ttlMs <= 0) return;
    let inner = this.byAccount.get(account);
    if (inner === undefined || !inner.has(key)) {
      if (this.count >= MAX_ENTRIES) this.evictOldestAccount();
      this.count++;
    }
    if (inner === undefined) {
      inner = new Map();
      this.byAccount.set(account, inner);
    }
    inner.set(key, { value, at: this.now() });
  }

  /** Drops everything cached for an account (the upstream refused one of its calls). */
  invalidateAccount(account: string): void {
    const inner = this.byAccount.get(account);
    if (inner === undefined) return;
    this.count -= inner.size;
    this.byAccount.delete(account);
  }

  private delete(account: string, key: string): void {
    const inner = this.byAccount.get(account);
    if (inner?.delete(key)) {
      this.count--;
      if (inner.size === 0) this.byAccount.delete(account);
    }
  }

  private evictOldestAccount(): void {
    // Maps iterate in insertion order: the first account is the one cached longest ago.
    const first = this.byAccount.keys().next();
    if (!first.done) this.invalidateAccount(first.value);
  }
}
