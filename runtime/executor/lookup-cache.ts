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

/**
 * Entries under two string keys, as nested maps: a key concatenated per lookup had to be flattened and hashed on
 * every call (~1 us of a tool call); here only the innermost key (the identifier, or a name) is new per request.
 */
class TwoLevel<T> {
  private readonly outer = new Map<string, Map<string, Entry<T>>>();
  private count = 0;

  get(a: string, b: string): Entry<T> | undefined {
    return this.outer.get(a)?.get(b);
  }

  set(a: string, b: string, entry: Entry<T>): void {
    let inner = this.outer.get(a);
    if (inner === undefined || !inner.has(b)) {
      if (this.count >= MAX_ENTRIES) {
        this.clear();
        inner = undefined;
      }
      this.count++;
    }
    if (inner === undefined) {
      inner = new Map();
      this.outer.set(a, inner);
    }
    inner.set(b, entry);
  }

  delete(a: string, b: string): void {
    const inner = this.outer.get(a);
    if (inner?.delete(b)) {
      this.count--;
      if (inner.size === 0) this.outer.delete(a);
    }
  }

  /** Drops every entry under first key `a`. */
  deleteAll(a: string): void {
    const inner = this.outer.get(a);
    if (inner === undefined) return;
    this.count -= inner.size;
    this.outer.delete(a);
  }

  /** Drops every entry whose first key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const [a, inner] of this.outer) {
      if (!a.startsWith(prefix)) continue;
      this.count -= inner.size;
      this.outer.delete(a);
    }
  }

  clear(): void {
    this.outer.clear();
    this.count = 0;
  }
}

export class LookupCache {
  /** (environment, connection name) */
  private readonly connections = new TwoLevel<ConnectionRecord>();
  /** (environment + connection id, identifier) */
  private readonly accounts = new TwoLevel<AccountRecord>();
  /** (environment + connector, identifier) -> the connection an implicit lookup chose. */
  private readonly sole = new TwoLevel<ConnectionRecord>();

  constructor(private readonly ttlMs: number = LOOKUP_TTL_MS) {}

  private fresh<T>(map: TwoLevel<T>, a: string, b: string): T | undefined {
    const entry = map.get(a, b);
    if (entry === undefined) return undefined;
    if (performance.now() - entry.at > this.ttlMs) {
      map.delete(a, b);
      return undefined;
    }
    return entry.value;
  }

  private put<T>(map: TwoLevel<T>, a: string, b: string, value: T): void {
    if (this.ttlMs <= 0) return;
    map.set(a, b, { value, at: performance.now() });
  }

  connection(environmentId: string, name: string): ConnectionRecord | undefined {
    return this.fresh(this.connections, environmentId, name);
  }

  setConnection(record: ConnectionRecord): void {
    this.put(this.connections, record.environmentId, record.name, record);
  }

  account(environmentId: string, connectionId: string, identifier: string): AccountRecord | undefined {
    return this.fresh(this.accounts, accountScope(environmentId, connectionId), identifier);
  }

  setAccount(record: AccountRecord): void {
    if (record.status !== 'ACTIVE' || record.tokens === null) return;
    this.put(this.accounts, accountScope(record.environmentId, record.connectionId), record.identifier, record);
  }

  /** The connection a call without `connection_name` resolved to for this identifier and connector. */
  soleConnection(environmentId: string, connector: ConnectorName, identifier: string): ConnectionRecord | undefined {
    return this.fresh(this.sole, soleScope(environmentId, connector), identifier);
  }

  /** Only after the lookup found an ACTIVE account on `record` (the caller checks). */
  setSoleConnection(identifier: string, record: ConnectionRecord): void {
    this.put(this.sole, soleScope(record.environmentId, record.connector), identifier, record);
  }

  /** After a connection is changed or deleted in this process. */
  invalidateEnvironment(environmentId: string): void {
    const prefix = `${environmentId.length}:${environmentId}`;
    this.connections.deleteAll(environmentId);
    this.accounts.deletePrefix(prefix);
    this.sole.deletePrefix(prefix);
  }

  /**
   * After an account is authorized, disconnected, refused or failed to refresh. Its identifier's implicit choices
   * go too, for every connector: a new account may have made one ambiguous.
   */
  invalidateAccount(record: Pick<AccountRecord, 'environmentId' | 'connectionId' | 'identifier'>): void {
    this.accounts.delete(accountScope(record.environmentId, record.connectionId), record.identifier);
    for (const connector of CONNECTOR_NAMES) this.sole.delete(soleScope(record.environmentId, connector), record.identifier);
  }
}

/**
 * Outer keys joined from two ids. They repeat across calls, so they are interned in a small map keyed by the pair
 * rather than rebuilt: the same string object comes back and its hash is already computed.
 */
const scopes = new Map<string, Map<string, string>>();

function scopeKey(a: string, b: string): string {
  let inner = scopes.get(a);
  if (inner === undefined) {
    if (scopes.size >= MAX_ENTRIES) scopes.clear();
    inner = new Map();
    scopes.set(a, inner);
  }
  let key = inner.get(b);
  if (key === undefined) {
    // Length-prefixed, so no two pairs make the same key whatever characters the ids hold.
    key = `${a.length}:${a}${b}`;
    if (inner.size < MAX_ENTRIES) inner.set(b, key);
  }
  return key;
}

const accountScope = (environmentId: string, connectionId: string): string => scopeKey(environmentId, connectionId);
const soleScope = (environmentId: string, connector: ConnectorName): string => scopeKey(environmentId, connector);
