/**
 * The Google Calendar v3 fake. Requests arrive with paths like `/calendar/v3/users/me/calendarList` (what follows
 * `https://www.googleapis.com`); errors use Calendar's legacy-plus-status shape.
 * @see https://developers.google.com/calendar/api/v3/reference
 */
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { googleApiModule } from '../google-common/module.js';
import { intParam, legacyEnumParam, notFoundRoute, pathSegments, requireScope } from '../google-common/request.js';
import { deleteCalendarListEntry, getCalendarListEntry, listCalendarList } from './calendar-list.js';
import { seedCalendarUser, type CalendarUserState } from './calendar-store.js';
import { deleteEvent, getEvent, insertEvent, patchEvent } from './event-ops.js';
import { listEvents } from './events-list.js';
import { queryFreeBusy } from './freebusy.js';

const SERVICE = 'calendar-json.googleapis.com';
const EVENTS_READ = ['calendar', 'calendar.readonly', 'calendar.events', 'calendar.events.readonly', 'calendar.events.owned', 'calendar.events.owned.readonly'];
const EVENTS_WRITE = ['calendar', 'calendar.events', 'calendar.events.owned'];
const LIST_READ = ['calendar', 'calendar.readonly', 'calendar.calendarlist', 'calendar.calendarlist.readonly'];
const LIST_WRITE = ['calendar', 'calendar.calendarlist'];
/** freeBusy.query's scopes, as its reference lists them. */
const FREEBUSY = ['calendar', 'calendar.readonly', 'calendar.freebusy', 'calendar.events.freebusy'];
const SEND_UPDATES = ['all', 'externalOnly', 'none'] as const;

export function createCalendarApi(): ApiModule {
  return googleApiModule({ service: 'calendar', serviceName: SERVICE, errorShape: 'legacy', seed: seedCalendarUser, route });
}

function route(req: ApiRequest, state: CalendarUserState, others: () => Iterable<CalendarUserState>): ApiResponse {
  const seg = pathSegments(req.path);
  const need = (scopes: string[]): void => requireScope(req.scopes, scopes, SERVICE);
  if (seg[0] !== 'calendar' || seg[1] !== 'v3') throw notFoundRoute(req.method, req.path);
  const rest = seg.slice(2);
  const m = req.method.toUpperCase();

  if (rest.length === 1 && rest[0] === 'freeBusy' && m === 'POST') {
    need(FREEBUSY);
    return queryFreeBusy(state, req.body, others);
  }
  if (rest[0] === 'users' && rest[1] === 'me' && rest[2] === 'calendarList') {
    if (rest.length === 3 && m === 'GET') {
      need(LIST_READ);
      return listCalendarList(state, req.query, req.now);
    }
    if (rest.length === 4 && m === 'GET') {
      need(LIST_READ);
      return getCalendarListEntry(state, rest[3] as string);
    }
    if (rest.length === 4 && m === 'DELETE') {
      need(LIST_WRITE);
      return deleteCalendarListEntry(state, rest[3] as string, req.now);
    }
  }
  if (rest[0] === 'calendars' && rest[2] === 'events') {
    const calendarId = rest[1] as string;
    const writeOpts = () => ({ conferenceDataVersion: intParam(req.query, 'conferenceDataVersion', 0, 0, 1), now: req.now });
    // Every event write (insert, patch, delete) takes sendUpdates; Google refuses a value outside its three.
    if (m !== 'GET') legacyEnumParam(req.query, 'sendUpdates', SEND_UPDATES);
    if (rest.length === 3) {
      if (m === 'GET') {
        need(EVENTS_READ);
        return listEvents(state, calendarId, req.query, req.now);
      }
      if (m === 'POST') {
        need(EVENTS_WRITE);
        return insertEvent(state, calendarId, req.body, writeOpts());
      }
    }
    if (rest.length === 4) {
      const eventId = rest[3] as string;
      if (m === 'GET') {
        need(EVENTS_READ);
        return getEvent(state, calendarId, eventId, req.query.get('timeZone'));
      }
      if (m === 'PATCH') {
        need(EVENTS_WRITE);
        return patchEvent(state, calendarId, eventId, req.body, writeOpts());
      }
      if (m === 'DELETE') {
        need(EVENTS_WRITE);
        return deleteEvent(state, calendarId, eventId, req.now);
      }
    }
  }
  throw notFoundRoute(req.method, req.path);
}
