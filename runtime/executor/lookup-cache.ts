/**
 * A short-lived cache of the store reads every tool call and proxy request makes (connection by name, account by
 * identifier, and for a tool call without `connection_name` the one connection of the tool's connector the
 * identifier has an account on), so that the hot path does not pay queries and decryptions for each.
 *
 * Why it is safe:
 * - entries live {@link LOOKUP_TTL_MS} of wall time at most, so a change made by another process shows within that;
 * - this process invalidates on its own writes (connection update/delete, authorization, disconnect);
 * - only ACTIVE accounts are cached, and an account whose token needs a refresh is always re-read, so an account
 *   that became usable is never hidden by a stale EXPIRED entry and a refresh always starts from the database;
 * - whatever the cache says, a 401 re-reads the row (the refresh coordinator works on the database), and drops the
 *   entry, so a token revoked or rotated elsewhere costs at most one refused upstream call;
 * - the implicit choice of connection is remembered only after it led to an ACTIVE account, and is dropped with that
 *   account's entry. An account created on a second connection of the same connector (which would make the call
 *   ambiguous) shows within the TTL, like any change made elsewhere; authorizing it in this process shows at once.
 */
import type { AccountRecord, ConnectionRecord } from '../store/types.js';
import { CONNECTOR_NAMES, type ConnectorName } from '../types.js';

export const LOOKUP_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  at: number;
}

export class LookupCache {
  private readonly connections = new Map<string, Entry<ConnectionRecord>>();
  private readonly accounts = new Map<string, Entry<AccountRecord>>();
  /** `env|identifier|connector` -> the connection an implicit lookup chose. */
  private readonly sole = new Map<string, Entry<ConnectionRecord>>();

  constructor(private readonly ttlMs: number = LOOKUP_TTL_MS) {}

  private fresh<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (performance.now() - entry.at > this.ttlMs) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  private put<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
    if (this.ttlMs <= 0) return;
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { value, at: performance.now() });
  }

  connection(environmentId: string, name: string): ConnectionRecord | undefined {
    return this.fresh(this.connections, `${environmentId}\u0000${name}`);
  }

  setConnection(record: ConnectionRecord): void {
    this.put(this.connections, `${record.environmentId}\u0000${record.name}`, record);
  }

  account(environmentId: string, connectionId: string, identifier: string): AccountRecord | undefined {
    return this.fresh(this.accounts, `${environmentId}\u0000${connectionId}\u0000${identifier}`);
  }

  setAccount(record: AccountRecord): void {
    if (record.status !== 'ACTIVE' || record.tokens === null) return;
    this.put(this.accounts, `${record.environmentId}\u0000${record.connectionId}\u0000${record.identifier}`, record);
  }

  /** The connection a call without `connection_name` resolved to for this identifier and connector. */
  soleConnection(environmentId: string, connector: ConnectorName, identifier: string): ConnectionRecord | undefined {
    return this.fresh(this.sole, `${environmentId}\u0000${identifier}\u0000${connector}`);
  }

  /** Only after the lookup found an ACTIVE account on `record` (the caller checks). */
  setSoleConnection(identifier: string, record: ConnectionRecord): void {
    this.put(this.sole, `${record.environmentId}\u0000${identifier}\u0000${record.connector}`, record);
  }

  /** After a connection is changed or deleted in this process. */
  invalidateEnvironment(environmentId: string): void {
    const prefix = `${environmentId}\u0000`;
    for (const map of [this.connections, this.accounts, this.sole] as Map<string, unknown>[]) {
      for (const key of map.keys()) if (key.startsWith(prefix)) map.delete(key);
    }
  }

  /**
   * After an account is authorized, disconnected, refused or failed to refresh. Its identifier's implicit choices
   * go too, for every connector: a new account may have made one ambiguous.
   */
  invalidateAccount(record: Pick<AccountRecord, 'environmentId' | 'connectionId' | 'identifier'>): void {
    this.accounts.delete(`${record.environmentId}\u0000${record.connectionId}\u0000${record.identifier}`);
    if (this.sole.size === 0) return;
    const prefix = `${record.environmentId}\u0000${record.identifier}\u0000`;
    for (const connector of CONNECTOR_NAMES) this.sole.delete(prefix + connector);
  }
}
