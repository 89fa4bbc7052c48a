/**
 * The cursors of the keyset-paged lists (execution history, connected accounts, webhook deliveries): the last row's
 * sort key, an ISO time and an id, and the filters the page was read with, as base64url JSON. Opaque to callers, and
 * read back strictly: only text `encodeCursor` wrote decodes (canonical base64url of `[time, id, filters]`, the time in
 * `toISOString()` form, an id of the list's kind), so a guessed, damaged or other list's cursor is refused naming the
 * parameter instead of starting the list somewhere. A cursor is a position in one filtered list: sent with other
 * filters it would skip rows or start mid-list, so it is refused then too, naming the filters that differ. The filters
 * are bound by a short digest of each value, not the value (an identifier may be an e-mail address). The API layer
 * decodes a cursor and hands the store its key; the store never sees cursor text.
 */
import { createHash } from 'node:crypto';
import type { ConnectorError } from '../errors.js';
import { violationError } from '../validation/violation-error.js';
import { normalizeTime } from './records.js';

export interface CursorKey {
  time: string;
  id: string;
}

/** The filters of a page, by query parameter name (`limit` and `cursor` are none); an undefined value is no filter. */
export type CursorFilters = Readonly<Record<string, unknown>>;

function badCursor(): ConnectorError {
  return violationError('invalid_request', 'cursor is not a cursor this list returned.', { pointer: '/cursor', message: 'cursor is not a cursor this list returned', keyword: 'format' });
}

function otherFilters(names: readonly string[]): ConnectorError {
  const message = `cursor was returned for other filters (${names.join(', ')}); send the same filters as the request that returned it, or drop cursor to start from the first page`;
  return violationError('invalid_request', `${message}.`, { pointer: '/cursor', message, keyword: 'filters' });
}

/** Each filter given, by name in sorted order, as 8 base64url characters of the SHA-256 of its value's JSON. */
function filterDigests(filters: CursorFilters): Record<string, string> {
  const names = Object.keys(filters).filter((name) => filters[name] !== undefined).sort();
  return Object.fromEntries(names.map((name) => [name, createHash('sha256').update(JSON.stringify(filters[name])).digest('base64url').slice(0, 8)]));
}

export function encodeCursor(key: CursorKey, filters: CursorFilters): string {
  return Buffer.from(JSON.stringify([normalizeTime(key.time), key.id, filterDigests(filters)])).toString('base64url');
}

/** What `filterDigests` writes: parameter names, each with 8 base64url characters. */
function isDigests(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([name, digest]) => /^[a-z_]{1,40}$/.test(name) && typeof digest === 'string' && /^[A-Za-z0-9_-]{8}$/.test(digest));
}

/**
 * The key `cursor` names; throws `invalid_request` (pointer `/cursor`) for anything `encodeCursor` did not write, or
 * whose id `isListId` does not take for one of the list's rows (`isIdOf('ca')` for accounts), or that was written for
 * other `filters` than these (the message names the filters that differ).
 */
export function decodeCursor(cursor: string, isListId: (id: string) => boolean, filters: CursorFilters): CursorKey {
  let decoded: { key: CursorKey; digests: Record<string, string> } | undefined;
  try {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // Node's base64url decoder skips what it cannot read; only the exact encoding of the text is a cursor.
    if (Buffer.from(text).toString('base64url') === cursor) {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[1] === 'string' && isDigests(value[2])) {
        const [time, id, digests] = value as [string, string, Record<string, string>];
        if (normalizeTime(time) === time && isListId(id)) decoded = { key: { time, id }, digests };
      }
    }
  } catch {
    // Falls through to the refusal: any undecodable cursor is the caller's error, not ours.
  }
  if (decoded === undefined) throw badCursor();
  const wanted = new Map(Object.entries(filterDigests(filters)));
  const given = new Map(Object.entries(decoded.digests));
  const differing = [...new Set([...wanted.keys(), ...given.keys()])].filter((name) => wanted.get(name) !== given.get(name)).sort();
  if (differing.length > 0) throw otherFilters(differing);
  return decoded.key;
}

/**
 * A page of a keyset-paged list from the rows read for it with `filters`. A list reads one row more than its page
 * (`limit + 1`): that row says whether another page follows without a count, and the page's cursor is then its last
 * row's key, bound to `filters`.
 */
export function keysetPage<T>(rows: readonly T[], limit: number, keyOf: (row: T) => CursorKey, filters: CursorFilters): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last), filters) : null };
}
