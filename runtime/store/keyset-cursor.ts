/**
 * The cursors of the keyset-paged lists (execution history, connected accounts, webhook deliveries): the last row's
 * sort key, an ISO time and an id, as base64url JSON. Opaque to callers, and read back strictly: only text
 * `encodeCursor` wrote decodes (canonical base64url of a two-string array, the time in `toISOString()` form, an id of
 * the list's kind), so a guessed, damaged or other list's cursor is refused naming the parameter instead of starting
 * the list somewhere. The API layer decodes a cursor and hands the store its key; the store never sees cursor text.
 */
import type { ConnectorError } from '../errors.js';
import { violationError } from '../validation/violation-error.js';
import { normalizeTime } from './records.js';

export interface CursorKey {
  time: string;
  id: string;
}

function badCursor(): ConnectorError {
  return violationError('invalid_request', 'cursor is not a cursor this list returned.', { pointer: '/cursor', message: 'cursor is not a cursor this list returned', keyword: 'format' });
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([normalizeTime(key.time), key.id])).toString('base64url');
}

/**
 * The key `cursor` names; throws `invalid_request` (pointer `/cursor`) for anything `encodeCursor` did not write, or
 * whose id `isListId` does not take for one of the list's rows (`isIdOf('ca')` for accounts).
 */
export function decodeCursor(cursor: string, isListId: (id: string) => boolean): CursorKey {
  try {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // Node's base64url decoder skips what it cannot read; only the exact encoding of the text is a cursor.
    if (Buffer.from(text).toString('base64url') === cursor) {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
        const [time, id] = value as [string, string];
        if (normalizeTime(time) === time && isListId(id)) return { time, id };
      }
    }
  } catch {
    // Falls through to the refusal: any undecodable cursor is the caller's error, not ours.
  }
  throw badCursor();
}

/**
 * A page of a keyset-paged list from the rows read for it. A list reads one row more than its page (`limit + 1`): that
 * row says whether another page follows without a count, and the page's cursor is then its last row's key.
 */
export function keysetPage<T>(rows: readonly T[], limit: number, keyOf: (row: T) => CursorKey): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
