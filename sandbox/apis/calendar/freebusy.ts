/**
 * `freeBusy.query`: the busy intervals of each calendar asked for, within a time range, computed from the stored
 * events: opaque, not cancelled, recurring events by instance; merged where they overlap or touch, clipped to the
 * range, written in the asked time zone (UTC by default). A calendar the user cannot see is not a refusal: its entry
 * carries `errors: [{domain: "global", reason: "notFound"}]` beside an empty `busy`. Another user's primary calendar
 * (named by their e-mail address) is seen when both are of the same domain, as a Google Workspace domain shares
 * free/busy by default.
 * @see https://developers.google.com/calendar/api/v3/reference/freebusy/query
 */
import type { ApiResponse } from '../../types.js';
import { GoogleApiError } from '../google-common/errors.js';
import { isRecord } from '../google-common/request.js';
import type { CalendarRecord, CalendarUserState } from './calendar-store.js';
import { occurrences } from './events-list.js';
import { formatInZone, isTimeZone, parseInstant } from './time.js';

/** calendarExpansionMax's ceiling: Google answers the calendars past it with an error entry. */
const MAX_CALENDARS = 50;
/**
 * The longest range Google answers. Not documented; past it Google answers 400 timeRangeTooLong. Observed at 90 days
 * (cal.com splits its queries into 90-day windows; a three-month range was refused).
 */
const MAX_RANGE_MS = 90 * 86_400_000;

interface CalendarAnswer {
  busy: Array<{ start: string; end: string }>;
  errors?: Array<{ domain: string; reason: string }>;
}

function instantField(body: Record<string, unknown>, name: 'timeMin' | 'timeMax'): number {
  const value = body[name];
  if (value === undefined || value === null) throw new GoogleApiError(400, `Missing ${name} parameter.`, { reason: 'required' });
  const ms = typeof value === 'string' ? parseInstant(value) : undefined;
  if (ms === undefined) throw new GoogleApiError(400, 'Bad Request', { reason: 'badRequest' });
  return ms;
}

export function queryFreeBusy(state: CalendarUserState, body: unknown, others: () => Iterable<CalendarUserState>): ApiResponse {
  const req = isRecord(body) ? body : {};
  const timeMin = instantField(req, 'timeMin');
  const timeMax = instantField(req, 'timeMax');
  const zone = req.timeZone ?? 'UTC';
  if (typeof zone !== 'string' || !isTimeZone(zone)) throw new GoogleApiError(400, 'Invalid time zone definition.', { reason: 'invalid' });
  if (timeMax <= timeMin) throw new GoogleApiError(400, 'The specified time range is empty.', { reason: 'timeRangeEmpty', domain: 'calendar' });
  if (timeMax - timeMin > MAX_RANGE_MS) throw new GoogleApiError(400, 'The requested time range is too long.', { reason: 'timeRangeTooLong', domain: 'calendar' });

  const calendars: Record<string, CalendarAnswer> = {};
  const items = Array.isArray(req.items) ? req.items.filter(isRecord) : [];
  items.forEach((item, index) => {
    const id = String(item.id ?? '');
    if (index >= MAX_CALENDARS) {
      calendars[id] = { errors: [{ domain: 'global', reason: 'tooManyCalendarsRequested' }], busy: [] };
      return;
    }
    const seen = visibleCalendar(state, id, others);
    calendars[id] = seen
      ? { busy: busyOf(seen.owner, seen.cal, timeMin, timeMax).map(([s, e]) => ({ start: formatInZone(s, zone), end: formatInZone(e, zone) })) }
      : { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
  });
  return {
    status: 200,
    body: { kind: 'calendar#freeBusy', timeMin: new Date(timeMin).toISOString(), timeMax: new Date(timeMax).toISOString(), calendars },
  };
}

/** The user's own calendar by id (or `primary`), or a same-domain colleague's primary calendar by their address. */
function visibleCalendar(state: CalendarUserState, id: string, others: () => Iterable<CalendarUserState>): { owner: CalendarUserState; cal: CalendarRecord } | undefined {
  const own = state.calendars.get(id === 'primary' ? state.user : id);
  if (own) return { owner: state, cal: own };
  const domain = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  for (const other of others()) {
    if (other.user.toLowerCase() !== id.toLowerCase() || domain(other.user) !== domain(state.user)) continue;
    const cal = other.calendars.get(other.user);
    if (cal) return { owner: other, cal };
  }
  return undefined;
}

/** Opaque, not cancelled events' (and instances') intervals within the range, clipped, sorted and merged. */
function busyOf(owner: CalendarUserState, cal: CalendarRecord, timeMin: number, timeMax: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const stored of owner.eventsOf(cal.id).values()) {
    const ev = stored.resource;
    if (ev.status === 'cancelled' || ev.transparency === 'transparent') continue;
    for (const occ of occurrences(stored, cal, false, timeMin, timeMax, owner.eventsOf(cal.id))) {
      if (occ.endMs <= timeMin || occ.startMs >= timeMax) continue;
      spans.push([Math.max(occ.startMs, timeMin), Math.min(occ.endMs, timeMax)]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}
