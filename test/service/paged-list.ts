/**
 * What the route tests of the cursor-paged lists share (`GET /api/v1/connected_accounts`, `GET
 * /api/v1/webhook_deliveries`, `GET /api/v1/executions`): one page read and checked against the OpenAPI document,
 * every page followed to the last, a refused query checked for its code and pointer, and the queries every list
 * refuses.
 */
import { expect } from 'vitest';
import { conformanceProblems } from './openapi-conformance.js';
import type { Harness } from './harness.js';

/**
 * @param harness the test file's harness (a getter: it is started in `beforeAll`)
 * @param path the list's route
 * @param items the answer's array of rows (`connected_accounts`, `webhook_deliveries`)
 */
export function pagedList(harness: () => Harness, path: string, items: string) {
  async function list(query: string, token: string) {
    const res = await harness().call('GET', `${path}${query}`, { token });
    expect(conformanceProblems('GET', path, res), JSON.stringify(res.body).slice(0, 300)).toEqual([]);
    return res;
  }

  /** Follows `next_cursor` from the first page to the last: the ids of each page. */
  async function walk(query: Record<string, string>, token: string): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    // Bounded, so a cursor that does not advance fails instead of looping.
    for (let n = 0; n < 100; n++) {
      const params = new URLSearchParams({ ...query, ...(cursor === null ? {} : { cursor }) });
      const res = await list(`?${params}`, token);
      expect(res.status).toBe(200);
      pages.push(res.body[items].map((row: { id: string }) => row.id));
      cursor = res.body.next_cursor;
      if (cursor === null) return pages;
    }
    throw new Error('next_cursor never became null');
  }

  /**
   * At each page size in `limits`, following `next_cursor` gives `all` (the whole list's ids in its order): every row
   * once, every page full but the last, as many pages as the size makes.
   */
  async function expectWalksAll(all: readonly string[], limits: readonly number[], token: string): Promise<void> {
    for (const limit of limits) {
      const pages = await walk({ limit: String(limit) }, token);
      expect(pages.flat(), `limit ${limit}`).toEqual(all);
      expect(new Set(pages.flat()).size).toBe(all.length);
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
      expect(pages.length).toBe(Math.ceil(all.length / limit));
    }
  }

  /** `query` is refused 400 `invalid_request`, with one violation at `pointer` and the parameter named in the message. */
  async function expectRefused(query: string, pointer: string, token: string): Promise<void> {
    const res = await list(`?${query}`, token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual([pointer]);
    expect(res.body.error.message).toContain(pointer.slice(1));
  }

  /**
   * A cursor holds only for the filters of the page that returned it: the first page of `filtered` (`limit=1`) gives a
   * cursor that reads on with the same filters at another `limit` (the next rows of `filtered`'s whole list, which
   * must hold 2 or more), and is refused with each of `others` at `/cursor`, the message naming the filters that
   * differ (`[query, names]`). The cursor does not carry the identifier filtered by (an e-mail address, often).
   */
  async function expectCursorBoundToFilters(filtered: Record<string, string>, others: readonly [Record<string, string>, string][], token: string): Promise<void> {
    const all = (await walk({ ...filtered, limit: '200' }, token)).flat();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await list(`?${new URLSearchParams({ ...filtered, limit: '1' })}`, token);
    const cursor = first.body.next_cursor as string;
    expect(typeof cursor).toBe('string');
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    if (filtered.identifier !== undefined) expect(text).not.toContain(filtered.identifier);
    const next = await list(`?${new URLSearchParams({ ...filtered, limit: '2', cursor })}`, token);
    expect(next.status).toBe(200);
    expect(next.body[items].map((row: { id: string }) => row.id)).toEqual(all.slice(1, 3));
    for (const [query, names] of others) {
      const res = await list(`?${new URLSearchParams({ ...query, limit: '1', cursor })}`, token);
      const message = `cursor was returned for other filters (${names}); send the same filters as the request that returned it, or drop cursor to start from the first page`;
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toBe(`${message}.`);
      expect(res.body.error.details.violations).toEqual([{ pointer: '/cursor', message, keyword: 'filters' }]);
    }
  }

  return { list, walk, expectWalksAll, expectRefused, expectCursorBoundToFilters };
}

/**
 * A cursor as the lists write one (base64url JSON of its time, its id and the digests of its filters, here none): for
 * cursors well formed but not a page's.
 */
export const cursorOf = (time: string, id: string): string => Buffer.from(JSON.stringify([time, id, {}])).toString('base64url');

/**
 * What every cursor-paged list refuses, each with the pointer it must name: a `limit` out of range or not an integer,
 * a `cursor` that is none, one of another list (`foreignIds`: ids of other lists' rows) and one whose time is not one
 * (`ownId`: an id of this list's kind). Add the list's own cases beside them.
 */
export function refusedPageQueries(ownId: string, foreignIds: readonly string[]): [query: string, pointer: string][] {
  return [
    ['limit=0', '/limit'],
    ['limit=201', '/limit'],
    ['limit=1000000', '/limit'],
    ['limit=abc', '/limit'],
    ['limit=1.5', '/limit'],
    ['limit=-1', '/limit'],
    ['limit=', '/limit'],
    ['cursor=forged', '/cursor'],
    ['cursor=', '/cursor'],
    [`cursor=${'a'.repeat(501)}`, '/cursor'],
    ...foreignIds.map((id): [string, string] => [`cursor=${cursorOf('2026-05-01T08:00:00.000Z', id)}`, '/cursor']),
    [`cursor=${cursorOf('soon', ownId)}`, '/cursor'],
  ];
}
