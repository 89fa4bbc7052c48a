/**
 * Paging back through a keyset-paged list (the execution history, the webhook delivery log) with the API's cursors,
 * which only lead on: a page answers the cursor of the page after it, never the one before. So the dashboard keeps,
 * in the page's address, the cursors of the pages it came through (`back`, oldest first, joined by "."; a cursor is
 * base64url, which has no "."): Newer is the page the last of them starts, Newest the first page. Nothing is stored
 * on the server, the list is read as the API reads it, and a page opened again from its address is the same page.
 *
 * The trail keeps at most {@link MAX_TRAIL} cursors and {@link MAX_TRAIL_CHARS} characters (a cursor carries its
 * list's filters, so a filtered list's are longer), so the address stays well under a request line's limit (8 KB
 * behind nginx) however far the user pages; past that the oldest are dropped, a `~` in their place, and the page where
 * they would be needed offers Newest instead of a Newer it could not find.
 */

/** Cursors kept in an address: 40 pages back, about 4 KB unfiltered. */
export const MAX_TRAIL = 40;
/** The longest trail kept, in characters: 40 cursors of an unfiltered list, fewer of a filtered one. */
export const MAX_TRAIL_CHARS = 4000;
const DROPPED = '~';
const CURSOR_TEXT = /^[A-Za-z0-9_-]+$/;

/** Where a page of a list is: its cursor (none on the first page) and the cursors of the pages before it. */
export interface TrailPosition {
  cursor?: string;
  back: string[];
}

/** The page's position from its query (`cursor`, `back`); a `back` that is no trail is read as none. */
export function readTrail(query: { cursor?: unknown; back?: unknown }): TrailPosition {
  const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? query.cursor : undefined;
  if (cursor === undefined || typeof query.back !== 'string' || query.back === '') return cursor === undefined ? { back: [] } : { cursor, back: [] };
  const back = query.back.split('.');
  const wellFormed = back.length <= MAX_TRAIL && back.every((c, i) => CURSOR_TEXT.test(c) || (c === DROPPED && i === 0));
  return { cursor, back: wellFormed ? back : [] };
}

/**
 * The query string of the page at `at` itself (`?...`, with `filters`; empty for the unfiltered first page): what an
 * item's page puts in its link back to the list, so the operator returns to the page they opened it from.
 */
export function pageQuery(filters: Record<string, string>, at: TrailPosition): string {
  const query = new URLSearchParams({ ...filters, ...(at.cursor === undefined ? {} : { cursor: at.cursor }), ...(at.cursor === undefined || at.back.length === 0 ? {} : { back: at.back.join('.') }) });
  return query.size === 0 ? '' : `?${query}`;
}

/**
 * The list page an item was opened from, as the item's address carries it ({@link pageQuery}): the list's own
 * parameters (`names`: its filters, `cursor`, `back`) and nothing else, each once, for the item page's link back to
 * the list; empty when it was opened from elsewhere. The list checks them when it is read, as ever.
 */
export function listBackQuery(query: Record<string, unknown>, names: readonly string[]): string {
  const kept = new URLSearchParams();
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') kept.set(name, value);
  }
  return kept.size === 0 ? '' : `?${kept}`;
}

/**
 * The query strings (`?...`, with `filters`) of the pages around `at`, null where there is none: Older (from the page's
 * `next_cursor`), Newer, and Newest (the first page) when that is not Newer already.
 */
export function trailLinks(filters: Record<string, string>, at: TrailPosition, nextCursor: string | null): { newest: string | null; newer: string | null; older: string | null } {
  const link = (cursor: string | undefined, back: string[]) =>
    `?${new URLSearchParams({ ...filters, ...(cursor === undefined ? {} : { cursor }), ...(back.length === 0 ? {} : { back: back.join('.') }) })}`;
  if (at.cursor === undefined) return { newest: null, newer: null, older: nextCursor === null ? null : link(nextCursor, []) };
  const before = at.back[at.back.length - 1];
  const newer = before === undefined ? link(undefined, []) : before === DROPPED ? null : link(before, at.back.slice(0, -1));
  let kept = [...at.back, at.cursor];
  // The oldest cursor gives way to the `~` (or goes, after one) until the trail is within both bounds.
  while (kept.length > MAX_TRAIL || kept.join('.').length > MAX_TRAIL_CHARS) kept = [DROPPED, ...kept.slice(kept[0] === DROPPED ? 2 : 1)];
  return { newest: at.back.length === 0 ? null : link(undefined, []), newer, older: nextCursor === null ? null : link(nextCursor, kept) };
}
