/**
 * `users/me/calendarList`: list (with the paging, sync and filter rules), get and delete (unsubscribe).
 * @see https://developers.google.com/calendar/api/v3/reference/calendarList/list
 */
import type { ApiResponse } from '../../types.js';
import { GoogleApiError } from '../google-common/errors.js';
import { boolParam, intParam, legacyEnumParam } from '../google-common/request.js';
import { ACCESS_ROLES, etagFor, type CalendarRecord, type CalendarUserState } from './calendar-store.js';
import { continueListing, page, refuseWithSyncToken, resumeListing } from './paging.js';

const SCOPE = 'calendarList';

/** The `calendar#calendarListEntry` resource. */
export function listEntry(cal: CalendarRecord): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    kind: 'calendar#calendarListEntry',
    etag: etagFor(cal.updatedMs, cal.changeSeq),
    id: cal.id,
    summary: cal.summary,
  };
  if (cal.description) entry.description = cal.description;
  Object.assign(entry, {
    timeZone: cal.timeZone,
    colorId: cal.colorId,
    backgroundColor: cal.backgroundColor,
    foregroundColor: cal.foregroundColor,
  });
  if (cal.hidden) entry.hidden = true;
  if (!cal.hidden) entry.selected = true;
  entry.accessRole = cal.accessRole;
  entry.defaultReminders = cal.accessRole === 'owner' || cal.accessRole === 'writer' ? [{ method: 'popup', minutes: 30 }] : [];
  if (cal.primary) {
    entry.notificationSettings = {
      notifications: [
        { type: 'eventCreation', method: 'email' },
        { type: 'eventChange', method: 'email' },
        { type: 'eventCancellation', method: 'email' },
        { type: 'eventResponse', method: 'email' },
      ],
    };
    entry.primary = true;
  }
  if (cal.deleted) entry.deleted = true;
  entry.conferenceProperties = { allowedConferenceSolutionTypes: ['hangoutsMeet'] };
  return entry;
}

export function listCalendarList(state: CalendarUserState, query: URLSearchParams, now: number): ApiResponse {
  const maxResults = intParam(query, 'maxResults', 100, 1, 250);
  const minAccessRole = legacyEnumParam(query, 'minAccessRole', ACCESS_ROLES);
  let showDeleted = boolParam(query, 'showDeleted');
  let showHidden = boolParam(query, 'showHidden');

  if (query.get('pageToken') === null && query.get('syncToken') !== null) refuseWithSyncToken(query, ['minAccessRole'], ['showDeleted', 'showHidden']);
  const from = resumeListing(state, query, SCOPE, now);
  const { offset, sinceSeq } = from;
  if (sinceSeq !== undefined) {
    // An incremental sync must report removals and hidden entries, so both are forced on.
    showDeleted = true;
    showHidden = true;
  }

  const minRank = minAccessRole ? ACCESS_ROLES.indexOf(minAccessRole) : 0;
  const all = [...state.calendars.values()].filter(
    (c) =>
      (sinceSeq === undefined || c.changeSeq > sinceSeq) &&
      (showDeleted || !c.deleted) &&
      (showHidden || !c.hidden) &&
      ACCESS_ROLES.indexOf(c.accessRole) >= minRank,
  );
  const { items, nextOffset } = page(all, offset, maxResults);
  const body: Record<string, unknown> = {
    kind: 'calendar#calendarList',
    etag: etagFor(now, state.currentSeq),
  };
  continueListing(body, state, SCOPE, now, from, nextOffset);
  body.items = items.map(listEntry);
  return { status: 200, body };
}

export function getCalendarListEntry(state: CalendarUserState, calendarId: string): ApiResponse {
  const cal = state.calendar(calendarId);
  if (cal.deleted) throw new GoogleApiError(404, 'Not Found', { reason: 'notFound' });
  return { status: 200, body: listEntry(cal) };
}

/** Unsubscribes from a calendar. The primary calendar cannot be removed from the list. */
export function deleteCalendarListEntry(state: CalendarUserState, calendarId: string, now: number): ApiResponse {
  const cal = state.calendar(calendarId);
  if (cal.deleted) throw new GoogleApiError(404, 'Not Found', { reason: 'notFound' });
  if (cal.primary) throw new GoogleApiError(400, 'Cannot remove primary calendar from list.', { reason: 'cannotRemovePrimaryCalendar' });
  cal.deleted = true;
  cal.updatedMs = now;
  cal.changeSeq = state.nextSeq();
  return { status: 204 };
}
