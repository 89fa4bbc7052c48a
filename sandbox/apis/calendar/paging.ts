/**
 * Page tokens and sync tokens for the Calendar fake.
 *
 * Page tokens carry the offset into a listing (opaque to clients; a token that does not decode is 400). Sync tokens
 * are random strings recorded with the change number they were issued at: an unknown token, one from another
 * listing, or one older than {@link SYNC_TOKEN_TTL_MS} is 410 `fullSyncRequired`, as Google answers when a client must
 * wipe its store and sync again.
 * @see https://developers.google.com/calendar/api/guides/sync
 */
import { GoogleApiError } from '../google-common/errors.js';
import { opaqueToken } from '../google-common/ids.js';
import type { CalendarUserState } from './calendar-store.js';

/** Sync tokens older than this (by the sandbox clock) have expired. */
export const SYNC_TOKEN_TTL_MS = 7 * 86_400_000;

interface PageState {
  offset: number;
  /** Set when paging through a sync listing: the change number the sync started from. */
  sinceSeq?: number;
}

export function encodePageToken(state: PageState): string {
  return Buffer.from(JSON.stringify({ o: state.offset, s: state.sinceSeq })).toString('base64url');
}

export function decodePageToken(token: string): PageState {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0) {
      const out: PageState = { offset: parsed.o };
      if (typeof parsed.s === 'number') out.sinceSeq = parsed.s;
      return out;
    }
  } catch {
    // fall through to the 400 below
  }
  throw new GoogleApiError(400, 'Invalid Value', { reason: 'invalid', locationType: 'parameter', location: 'pageToken' });
}

export function issueSyncToken(state: CalendarUserState, scope: string, now: number): string {
  const token = `C${opaqueToken(18)}`;
  state.syncTokens.set(token, { scope, seq: state.currentSeq, issuedMs: now });
  return token;
}

/** The change number a sync token was issued at; 410 when the client must do a full sync. */
export function redeemSyncToken(state: CalendarUserState, token: string, scope: string, now: number): number {
  const rec = state.syncTokens.get(token);
  if (!rec || rec.scope !== scope || now - rec.issuedMs > SYNC_TOKEN_TTL_MS) {
    throw new GoogleApiError(410, 'Sync token is no longer valid, a full sync is required.', {
      reason: 'fullSyncRequired',
    });
  }
  return rec.seq;
}

/**
 * Where a listing resumes: a page token's offset (and the change number of the sync it pages through), else a sync
 * token's change number, else the start of a full listing.
 */
export function resumeListing(state: CalendarUserState, query: URLSearchParams, scope: string, now: number): PageState {
  const pageToken = query.get('pageToken');
  if (pageToken !== null) return decodePageToken(pageToken);
  const syncToken = query.get('syncToken');
  return syncToken === null ? { offset: 0 } : { offset: 0, sinceSeq: redeemSyncToken(state, syncToken, scope, now) };
}

/**
 * Ends a listing's body: `nextPageToken` while more remain (carrying the sync's change number along), else
 * `nextSyncToken`, since the last page of a listing is where the next incremental sync starts.
 */
export function continueListing(
  body: Record<string, unknown>,
  state: CalendarUserState,
  scope: string,
  now: number,
  from: PageState,
  nextOffset: number | undefined,
): void {
  if (nextOffset !== undefined) {
    const next: PageState = { offset: nextOffset };
    if (from.sinceSeq !== undefined) next.sinceSeq = from.sinceSeq;
    body.nextPageToken = encodePageToken(next);
  } else {
    body.nextSyncToken = issueSyncToken(state, scope, now);
  }
}

/** Slices one page out of a full result; the next token is present only when more remain. */
export function page<T>(items: readonly T[], offset: number, size: number): { items: T[]; nextOffset?: number } {
  const slice = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { items: slice, nextOffset: next } : { items: slice };
}

/**
 * Forbidden-with-syncToken parameters answer 400 naming the parameter. So do the `mustInclude` switches set to
 * `false`: a sync always reports deleted (and, for the calendar list, hidden) entries, and Google refuses a request
 * that says otherwise ("it is not allowed to set showDeleted to False"); `true` only repeats what a sync does.
 */
export function refuseWithSyncToken(query: URLSearchParams, names: readonly string[], mustInclude: readonly string[] = []): void {
  for (const name of names) {
    if (query.has(name)) {
      throw new GoogleApiError(400, `The ${name} parameter cannot be used together with syncToken.`, {
        reason: 'invalid',
        locationType: 'parameter',
        location: name,
      });
    }
  }
  for (const name of mustInclude) {
    if (query.get(name) === 'false') {
      throw new GoogleApiError(400, `The ${name} parameter cannot be false together with syncToken: a sync always includes those entries.`, {
        reason: 'invalid',
        locationType: 'parameter',
        location: name,
      });
    }
  }
}
