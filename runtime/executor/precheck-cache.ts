/**
 * What tool pre-checks cache (e.g. a Notion database's schema), per connected account, on the connector instance.
 *
 * Entries live a short time (default {@link PRECHECK_TTL_MS}, by the connector's clock; see {@link TtlCache}): a column
 * renamed in the provider's UI shows within that, and the executor drops an account's entries as soon as the
 * upstream refuses a pre-checked call, since a refusal may mean the cached schema is stale. Bounded: past
 * {@link MAX_ENTRIES} the oldest entry goes.
 */
import { TtlCache } from './ttl-cache.js';

export const PRECHECK_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class PrecheckCache {
  /** [account, key] -> the value, with its account for {@link invalidateAccount}. */
  private readonly entries: TtlCache<string, { account: string; value: unknown }>;

  constructor(now: () => number, ttlMs: number = PRECHECK_TTL_MS) {
    this.entries = new TtlCache({ ttlMs, maxEntries: MAX_ENTRIES, now });
  }

  get(account: string, key: string): unknown {
    return this.entries.get(JSON.stringify([account, key]))?.value;
  }

  set(account: string, key: string, value: unknown): void {
    this.entries.set(JSON.stringify([account, key]), { account, value });
  }

  /** Drops everything cached for an account (the upstream refused one of its calls). */
  invalidateAccount(account: string): void {
    this.entries.deleteWhere((entry) => entry.account === account);
  }
}
