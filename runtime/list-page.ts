/**
 * How the cursor-paged lists (`GET /api/v1/executions`, `GET /api/v1/connected_accounts`,
 * `GET /api/v1/webhook_deliveries`) are read: one page size and one way to read a page, for all three. The OpenAPI
 * document states the page size (codegen/emit/emit-openapi.ts), so the HTTP service refuses a `limit` outside it; an
 * in-process caller's `limit` is clamped into it, so no list reads more than `max` rows for one answer.
 */
import { decodeCursor, keysetPage, type CursorKey } from './store/keyset-cursor.js';

export const PAGE_SIZE = { default: 50, max: 200 } as const;

/** `limit` as a page size: the default when absent (or not a number), else within 1 to the maximum. */
function pageLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return PAGE_SIZE.default;
  return Math.min(Math.max(Math.floor(limit), 1), PAGE_SIZE.max);
}

/** What a caller asks a cursor-paged list for. */
export interface PageQuery {
  /** 1 to 200, default 50 ({@link PAGE_SIZE}); an in-process value outside it is clamped into it. May change between pages. */
  limit?: number;
  /** The `next_cursor` of the previous page, sent with the same filters as that page (else refused). */
  cursor?: string;
}

/**
 * One page of a keyset-paged list. The cursor is read first, so a bad one is refused whatever the filter matches
 * (`isListId` says which ids are this list's). Every other parameter of `query` than `limit` and `cursor` is a filter:
 * the page's cursor is bound to them, and a cursor is refused with other filters than those it was returned for.
 * `read` is asked for one row more than the page, from the cursor's key on: that row says whether another page
 * follows without a count. The page is cut from what it returns.
 */
export async function readKeysetPage<T>(
  query: PageQuery,
  isListId: (id: string) => boolean,
  keyOf: (row: T) => CursorKey,
  read: (limit: number, from: CursorKey | undefined) => Promise<readonly T[]>,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const { limit: asked, cursor, ...filters } = query as PageQuery & Record<string, unknown>;
  const limit = pageLimit(asked);
  const from = cursor === undefined ? undefined : decodeCursor(cursor, isListId, filters);
  return keysetPage(await read(limit + 1, from), limit, keyOf, filters);
}
