/**
 * A short-lived cache of the store reads every tool call and proxy request makes (connection by name, account by
 * identifier, and for a tool call without `connection_name` the environment's connections and the one of the tool's
 * connector the identifier has an account on), so that the hot path does not pay queries and decryptions for each:
 * a miss on a user's account is then one query and one decrypt, with or without `connection_name`.
 *
 * Why it is safe:
 * - entries live {@link LOOKUP_TTL_MS} by the connector's clock at most ({@link TtlCache}), so a change made by
 *   another process shows within that;
 * - this process invalidates on its own writes (connection update/delete, authorization, disconnect);
 * - only ACTIVE accounts are cached, and an account whose token needs a refresh is always re-read, so an account
 *   that became usable is never hidden by a stale EXPIRED entry and a refresh always starts from the database;
 * - whatever the cache says, a 401 re-reads the row (the refresh coordinator works on the database), and drops the
 *   entry, so a token revoked or rotated elsewhere costs at most one refused upstream call;
 * - the implicit choice of connection is remembered only after it led to an ACTIVE account, and is dropped with that
 *   account's entry. An account created on a second connection of the same connector (which would make the call
 *   ambiguous) shows within the TTL, like any change made elsewhere; authorizing it in this process shows at once.
 *
 * A miss is one store read however many calls want the same record at once: concurrent misses for one key share the
 * first one's read (single flight), so a burst of calls for a user whose entry just expired makes one query. The
 * store, for its part, reads the misses of different users made in one turn of the event loop with one query.
 */
import type { AccountRecord, ConnectionRecord } from '../store/types.js';
import { CONNECTOR_NAMES, type ConnectorName } from '../types.js';
import { TtlCache } from './ttl-cache.js';

export const LOOKUP_TTL_MS = 1_000;
/** Per kind of entry; past it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

/** A key made of several ids; JSON keeps the parts apart whatever characters they hold. */
const key = (...parts: string[]): string => JSON.stringify(parts);

export class LookupCache {
  /** [environment, connection name] */
  private readonly connections: TtlCache<string, ConnectionRecord>;
  /** [environment, connection id, identifier] */
  private readonly accounts: TtlCache<string, AccountRecord>;
  /** [environment, connector, identifier] -> the connection an implicit lookup chose. */
  private readonly sole: TtlCache<string, ConnectionRecord>;
  /** [environment] -> its connections, for the implicit lookup. */
  private readonly lists: TtlCache<string, { environmentId: string; records: readonly ConnectionRecord[] }>;
  /** Store reads in flight, by the key of the entry they will fill. */
  private readonly loads = new Map<string, Promise<unknown>>();

  /** `ttlMs` 0 caches nothing (concurrent misses still share one read). */
  constructor(options: { now: () => number; ttlMs?: number | undefined }) {
    const cache = { ttlMs: options.ttlMs ?? LOOKUP_TTL_MS, maxEntries: MAX_ENTRIES, now: options.now };
    this.connections = new TtlCache(cache);
    this.accounts = new TtlCache(cache);
    this.sole = new TtlCache(cache);
    this.lists = new TtlCache(cache);
  }

  /** Runs `load` unless a read for the same key is already in flight, in which case its answer is shared. */
  private shared<T>(k: string, load: () => Promise<T>): Promise<T> {
    let flight = this.loads.get(k) as Promise<T> | undefined;
    if (flight === undefined) {
      flight = load().finally(() => {
        if (this.loads.get(k) === flight) this.loads.delete(k);
      });
      this.loads.set(k, flight);
    }
    return flight;
  }

  connection(environmentId: string, name: string): ConnectionRecord | undefined {
    return this.connections.get(key(environmentId, name));
  }

  setConnection(record: ConnectionRecord): void {
    this.connections.set(key(record.environmentId, record.name), record);
  }

  /** The connection read from the store (one read for concurrent callers), remembered when found. */
  loadConnection(environmentId: string, name: string, read: () => Promise<ConnectionRecord | null>): Promise<ConnectionRecord | null> {
    return this.shared(`connection ${key(environmentId, name)}`, async () => {
      const record = await read();
      if (record !== null) this.setConnection(record);
      return record;
    });
  }

  account(environmentId: string, connectionId: string, identifier: string): AccountRecord | undefined {
    return this.accounts.get(key(environmentId, connectionId, identifier));
  }

  setAccount(record: AccountRecord): void {
    if (record.status !== 'ACTIVE' || record.tokens === null) return;
    this.accounts.set(key(record.environmentId, record.connectionId, record.identifier), record);
  }

  /** The account read from the store (one read for concurrent callers), remembered when ACTIVE. */
  loadAccount(environmentId: string, connectionId: string, identifier: string, read: () => Promise<AccountRecord | null>): Promise<AccountRecord | null> {
    return this.shared(`account ${key(environmentId, connectionId, identifier)}`, async () => {
      const record = await read();
      if (record !== null) this.setAccount(record);
      return record;
    });
  }

  /** The environment's connections (one read for concurrent callers), remembered. */
  connectionList(environmentId: string, read: () => Promise<readonly ConnectionRecord[]>): Promise<readonly ConnectionRecord[]> {
    const cached = this.lists.get(key(environmentId));
    if (cached !== undefined) return Promise.resolve(cached.records);
    return this.shared(`connections ${key(environmentId)}`, async () => {
      const records = await read();
      this.lists.set(key(environmentId), { environmentId, records });
      return records;
    });
  }

  /** The connection a call without `connection_name` resolved to for this identifier and connector. */
  soleConnection(environmentId: string, connector: ConnectorName, identifier: string): ConnectionRecord | undefined {
    return this.sole.get(key(environmentId, connector, identifier));
  }

  /** Only after the lookup found an ACTIVE account on `record` (the caller checks). */
  setSoleConnection(identifier: string, record: ConnectionRecord): void {
    this.sole.set(key(record.environmentId, record.connector, identifier), record);
  }

  /** After a connection is created, changed or deleted in this process. */
  invalidateEnvironment(environmentId: string): void {
    const inEnvironment = (record: { environmentId: string }) => record.environmentId === environmentId;
    this.connections.deleteWhere(inEnvironment);
    this.accounts.deleteWhere(inEnvironment);
    this.sole.deleteWhere(inEnvironment);
    this.lists.deleteWhere(inEnvironment);
    // A read in flight may have started before the change: later callers start their own.
    this.loads.clear();
  }

  /**
   * After an account is authorized, disconnected, refused or failed to refresh. Its identifier's implicit choices
   * go too, for every connector: a new account may have made one ambiguous.
   */
  invalidateAccount(record: Pick<AccountRecord, 'environmentId' | 'connectionId' | 'identifier'>): void {
    const k = key(record.environmentId, record.connectionId, record.identifier);
    this.accounts.delete(k);
    this.loads.delete(`account ${k}`);
    for (const connector of CONNECTOR_NAMES) this.sole.delete(key(record.environmentId, connector, record.identifier));
  }
}
