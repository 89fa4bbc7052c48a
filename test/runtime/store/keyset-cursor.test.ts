/**
 * The keyset cursors of the paged lists: what encodeCursor writes reads back, with the filters it was written for;
 * nothing else does. A page is cut from the rows read for it, one more than its size, and names its last row when that
 * extra row says another follows.
 */
import { describe, expect, it } from 'vitest';
import { isExecutionId } from '../../../runtime/executions/execution-tracker.js';
import { isIdOf } from '../../../runtime/store/ids.js';
import { decodeCursor, encodeCursor, keysetPage } from '../../../runtime/store/keyset-cursor.js';

const key = { time: '2026-03-01T12:00:00.000Z', id: 'ca_abcdefghijklmnopqrstuvwxyz' };
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const none = {};

describe('keyset cursors', () => {
  it('round-trip the key, the time normalized to toISOString form', () => {
    expect(decodeCursor(encodeCursor(key, none), isIdOf('ca'), none)).toEqual(key);
    expect(decodeCursor(encodeCursor({ time: '2026-03-01T13:00:00+01:00', id: 'ca_x' }, none), isIdOf('ca'), none)).toEqual({ time: key.time, id: 'ca_x' });
    const execution = { time: key.time, id: '0190f3c2-7b1e-7000-8000-000000000000' };
    expect(decodeCursor(encodeCursor(execution, none), isExecutionId, none)).toEqual(execution);
    expect(encodeCursor(key, none)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('round-trip with the same filters, in any order, an undefined one being none; without their values', () => {
    const filters = { status: 'ACTIVE', identifier: 'ana@example.com', connection_name: undefined };
    const cursor = encodeCursor(key, filters);
    expect(decodeCursor(cursor, isIdOf('ca'), { identifier: 'ana@example.com', status: 'ACTIVE' })).toEqual(key);
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toMatch(/ana|example|ACTIVE/);
  });

  it.each([
    ['a value changed', { status: 'ACTIVE' }, { status: 'EXPIRED' }, 'status'],
    ['a filter dropped', { status: 'ACTIVE', identifier: 'a' }, { identifier: 'a' }, 'status'],
    ['a filter added', {}, { identifier: 'a' }, 'identifier'],
    ['two changed', { identifier: 'a', status: 'ACTIVE' }, { identifier: 'b' }, 'identifier, status'],
    ['an empty value for none', {}, { identifier: '' }, 'identifier'],
  ])('refuses a cursor sent with other filters (%s) at /cursor, naming them', (_what, given, sent, names) => {
    const message = `cursor was returned for other filters (${names}); send the same filters as the request that returned it, or drop cursor to start from the first page`;
    expect(() => decodeCursor(encodeCursor(key, given), isIdOf('ca'), sent)).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: `${message}.`, details: { violations: [{ pointer: '/cursor', message, keyword: 'filters' }] } }),
    );
  });

  it.each([
    ['not base64url JSON', 'forged'],
    ['empty', ''],
    ['padded', `${encodeCursor(key, none)}=`],
    ['with characters the decoder skips', `${encodeCursor(key, none).slice(0, 8)}!${encodeCursor(key, none).slice(8)}`],
    ['standard base64', Buffer.from(JSON.stringify([key.time, 'ca_?>?>'])).toString('base64')],
    ['not an array', b64({ time: key.time, id: key.id })],
    ['without filters (as written before cursors held them)', b64([key.time, key.id])],
    ['four items', b64([key.time, key.id, {}, 'x'])],
    ['filters that are a list', b64([key.time, key.id, []])],
    ['a filter digest that is none', b64([key.time, key.id, { status: 'x' }])],
    ['a filter name that is none', b64([key.time, key.id, { 'St atus!': 'abcdefgh' }])],
    ['a number for the id', b64([key.time, 7, {}])],
    ['a time that is not one', b64(['yesterday', key.id, {}])],
    ['a time not in toISOString form', b64(['2026-03-01T12:00:00Z', key.id, {}])],
    ['another list\'s id', b64([key.time, '0190f3c2-7b1e-7000-8000-000000000000', {}])],
    ['the prefix alone', b64([key.time, 'ca_', {}])],
  ])('refuses a cursor %s with invalid_request at /cursor', (_what, cursor) => {
    let thrown: unknown;
    try {
      decodeCursor(cursor, isIdOf('ca'), none);
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
    expect(() => decodeCursor(encodeCursor({ time: key.time, id }, none), isExecutionId, none)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('cut a page from limit + 1 rows: a cursor naming the last row kept only when the extra row was read', () => {
    const rows = ['a', 'b', 'c'].map((id) => ({ id: `ca_${id}`, at: key.time }));
    const keyOf = (r: { id: string; at: string }) => ({ time: r.at, id: r.id });
    const filters = { status: 'ACTIVE' };
    const full = keysetPage(rows, 2, keyOf, filters);
    expect(full.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(full.nextCursor!, isIdOf('ca'), filters)).toEqual({ time: key.time, id: 'ca_b' });
    expect(keysetPage(rows, 3, keyOf, filters)).toEqual({ items: rows, nextCursor: null });
    expect(keysetPage(rows.slice(0, 1), 2, keyOf, filters)).toEqual({ items: rows.slice(0, 1), nextCursor: null });
    expect(keysetPage([], 2, keyOf, filters)).toEqual({ items: [], nextCursor: null });
  });
});
