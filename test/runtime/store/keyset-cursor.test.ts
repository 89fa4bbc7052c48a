/**
 * The keyset cursors of the paged lists: what encodeCursor writes reads back; nothing else does. A page is cut from
 * the rows read for it, one more than its size, and names its last row when that extra row says another follows.
 */
import { describe, expect, it } from 'vitest';
import { isExecutionId } from '../../../runtime/executions/execution-tracker.js';
import { isIdOf } from '../../../runtime/store/ids.js';
import { decodeCursor, encodeCursor, keysetPage } from '../../../runtime/store/keyset-cursor.js';

const key = { time: '2026-03-01T12:00:00.000Z', id: 'ca_abcdefghijklmnopqrstuvwxyz' };
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('keyset cursors', () => {
  it('round-trip the key, the time normalized to toISOString form', () => {
    expect(decodeCursor(encodeCursor(key), isIdOf('ca'))).toEqual(key);
    expect(decodeCursor(encodeCursor({ time: '2026-03-01T13:00:00+01:00', id: 'ca_x' }), isIdOf('ca'))).toEqual({ time: key.time, id: 'ca_x' });
    const execution = { time: key.time, id: '0190f3c2-7b1e-7000-8000-000000000000' };
    expect(decodeCursor(encodeCursor(execution), isExecutionId)).toEqual(execution);
    expect(encodeCursor(key)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64url JSON', 'forged'],
    ['empty', ''],
    ['padded', `${encodeCursor(key)}=`],
    ['with characters the decoder skips', `${encodeCursor(key).slice(0, 8)}!${encodeCursor(key).slice(8)}`],
    ['standard base64', Buffer.from(JSON.stringify([key.time, 'ca_?>?>'])).toString('base64')],
    ['not an array', b64({ time: key.time, id: key.id })],
    ['three items', b64([key.time, key.id, 'x'])],
    ['a number for the id', b64([key.time, 7])],
    ['a time that is not one', b64(['yesterday', key.id])],
    ['a time not in toISOString form', b64(['2026-03-01T12:00:00Z', key.id])],
    ['another list\'s id', b64([key.time, '0190f3c2-7b1e-7000-8000-000000000000'])],
    ['the prefix alone', b64([key.time, 'ca_'])],
  ])('refuses a cursor %s with invalid_request at /cursor', (_what, cursor) => {
    let thrown: unknown;
    try {
      decodeCursor(cursor, isIdOf('ca'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_request', details: { violations: [{ pointer: '/cursor', keyword: 'format' }] } });
  });

  it.each([
    ['an account id', 'ca_abcdefghijklmnopqrstuvwxyz'],
    ['a delivery id', 'whdl_abcdefghijklmnopqrstuvwxyz'],
    ['a UUID with a prefix', 'exe_0190f3c2-7b1e-7000-8000-000000000000'],
    ['an empty id', ''],
  ])("refuses an execution cursor naming %s (another list's row, or none)", (_what, id) => {
    expect(() => decodeCursor(encodeCursor({ time: key.time, id }), isExecutionId)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('cut a page from limit + 1 rows: a cursor naming the last row kept only when the extra row was read', () => {
    const rows = ['a', 'b', 'c'].map((id) => ({ id: `ca_${id}`, at: key.time }));
    const keyOf = (r: { id: string; at: string }) => ({ time: r.at, id: r.id });
    const full = keysetPage(rows, 2, keyOf);
    expect(full.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(full.nextCursor!, isIdOf('ca'))).toEqual({ time: key.time, id: 'ca_b' });
    expect(keysetPage(rows, 3, keyOf)).toEqual({ items: rows, nextCursor: null });
    expect(keysetPage(rows.slice(0, 1), 2, keyOf)).toEqual({ items: rows.slice(0, 1), nextCursor: null });
    expect(keysetPage([], 2, keyOf)).toEqual({ items: [], nextCursor: null });
  });
});
