/**
 * `events.list`: time bounds, free text, recurrence expansion, ordering, paging and incremental sync.
 * @see https://developers.google.com/calendar/api/v3/reference/events/list
 */
import type { ApiResponse } from '../../types.js';
import { GoogleApiError } from '../google-common/errors.js';
import { boolParam, intParam, isRecord, legacyEnumParam } from '../google-common/request.js';
import { etagFor, type CalendarRecord, type CalendarUserState, type StoredEvent } from './calendar-store.js';
import { EVENT_TYPES } from './event-input.js';
import { inResponseZone, resolveTime } from './event-time.js';
import { continueListing, page, refuseWithSyncToken, resumeListing } from './paging.js';
import { expand, parseRecurrence } from './recurrence.js';
import { addDays, formatDate, formatInZone, isTimeZone, parseInstant, type LocalDateTime } from './time.js';

const SYNC_FORBIDDEN = ['iCalUID', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty', 'timeMin', 'timeMax', 'updatedMin'];
const DAY = 86_400_000;
/** How far open-ended recurrences are expanded when no `timeMax` bounds them. */
const HORIZON_MS = 730 * DAY;
const MAX_INSTANCES = 1000;

export interface Item {
  resource: Record<string, unknown>;
  startMs: number;
  endMs: number;
  updatedMs: number;
}

function instantParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  const ms = parseInstant(v);
  if (ms === undefined) {
    throw new GoogleApiError(400, 'Bad Request', { reason: 'badRequest', locationType: 'parameter', location: name });
  }
  return ms;
}

export function listEvents(state: CalendarUserState, calendarId: string, query: URLSearchParams, now: number): ApiResponse {
  const cal = state.calendar(calendarId);
  const scope = `events:${cal.id}`;
  const maxResults = intParam(query, 'maxResults', 250, 1, 2500);
  const singleEvents = boolParam(query, 'singleEvents');
  const orderBy = legacyEnumParam(query, 'orderBy', ['startTime', 'updated'] as const);
  let showDeleted = boolParam(query, 'showDeleted');
  const syncToken = query.get('syncToken');
  const zone = query.get('timeZone');
  if (zone !== null && !isTimeZone(zone)) {
    throw new GoogleApiError(400, 'Invalid time zone definition.', { reason: 'invalid', locationType: 'parameter', location: 'timeZone' });
  }
  if (syncToken !== null) refuseWithSyncToken(query, SYNC_FORBIDDEN, ['showDeleted']);
  if (orderBy === 'startTime' && !singleEvents) {
    // As Calendar answers it: reason `invalid`, located at the orderBy parameter.
    throw new GoogleApiError(400, 'The requested ordering is not available for the particular query.', { reason: 'invalid', locationType: 'parameter', location: 'orderBy' });
  }
  const timeMin = instantParam(query, 'timeMin');
  const timeMax = instantParam(query, 'timeMax');
  const updatedMin = instantParam(query, 'updatedMin');
  if (timeMin !== undefined && timeMax !== undefined && timeMin >= timeMax) {
    throw new GoogleApiError(400, 'The specified time range is empty.', {
      reason: 'timeRangeEmpty',
      locationType: 'parameter',
      location: 'timeMax',
    });
  }
  const eventTypes = query.getAll('eventTypes');
  for (const t of eventTypes) {
    if (!(EVENT_TYPES as readonly string[]).includes(t)) {
      throw new GoogleApiError(400, `Invalid event type: ${t}`, { reason: 'invalid', locationType: 'parameter', location: 'eventTypes' });
    }
  }

  const from = resumeListing(state, query, scope, now);
  const { offset, sinceSeq } = from;
  // Deletions are always reported to a sync, and to an updatedMin query.
  if (sinceSeq !== undefined || updatedMin !== undefined) showDeleted = true;

  const words = (query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const iCalUID = query.get('iCalUID');
  const privateProps = query.getAll('privateExtendedProperty');
  const sharedProps = query.getAll('sharedExtendedProperty');

  const items: Item[] = [];
  for (const stored of state.eventsOf(cal.id).values()) {
    const ev = stored.resource;
    if (sinceSeq !== undefined && stored.changeSeq <= sinceSeq) continue;
    if (!showDeleted && ev.status === 'cancelled') continue;
    if (updatedMin !== undefined && stored.updatedMs < updatedMin) continue;
    if (eventTypes.length > 0 && !eventTypes.includes(ev.eventType as string)) continue;
    if (iCalUID !== null && ev.iCalUID !== iCalUID) continue;
    if (!matchesText(ev, words)) continue;
    if (!matchesProps(ev, 'private', privateProps) || !matchesProps(ev, 'shared', sharedProps)) continue;
    for (const item of occurrences(stored, cal, singleEvents && ev.status !== 'cancelled', timeMin, timeMax, state.eventsOf(cal.id))) {
      if (timeMin !== undefined && item.endMs <= timeMin) continue;
      if (timeMax !== undefined && item.startMs >= timeMax) continue;
      items.push(item);
      if (!singleEvents) break;
    }
  }
  if (orderBy === 'startTime') items.sort((a, b) => a.startMs - b.startMs || String(a.resource.id).localeCompare(String(b.resource.id)));
  if (orderBy === 'updated') items.sort((a, b) => a.updatedMs - b.updatedMs);

  const { items: slice, nextOffset } = page(items, offset, maxResults);
  const latest = Math.max(cal.updatedMs, ...[...state.eventsOf(cal.id).values()].map((e) => e.updatedMs));
  const body: Record<string, unknown> = {
    kind: 'calendar#events',
    etag: etagFor(latest, state.currentSeq),
    summary: cal.summary,
  };
  if (cal.description) body.description = cal.description;
  Object.assign(body, {
    updated: new Date(latest).toISOString(),
    timeZone: cal.timeZone,
    accessRole: cal.accessRole,
    defaultReminders: cal.accessRole === 'owner' || cal.accessRole === 'writer' ? [{ method: 'popup', minutes: 30 }] : [],
  });
  continueListing(body, state, scope, now, from, nextOffset);
  body.items = slice.map((i) => (zone === null ? structuredClone(i.resource) : inResponseZone(structuredClone(i.resource), zone)));
  return { status: 200, body };
}

function matchesText(ev: Record<string, unknown>, words: string[]): boolean {
  if (words.length === 0) return true;
  const people = [ev.organizer, ev.creator, ...(Array.isArray(ev.attendees) ? ev.attendees : [])]
    .filter(isRecord)
    .flatMap((p) => [p.email, p.displayName]);
  const hay = [ev.summary, ev.description, ev.location, ...people]
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

function matchesProps(ev: Record<string, unknown>, kind: 'private' | 'shared', filters: string[]): boolean {
  if (filters.length === 0) return true;
  const props = isRecord(ev.extendedProperties) && isRecord(ev.extendedProperties[kind]) ? ev.extendedProperties[kind] : {};
  return filters.every((f) => {
    const eq = f.indexOf('=');
    return eq > 0 && (props as Record<string, unknown>)[f.slice(0, eq)] === f.slice(eq + 1);
  });
}

/**
 * The event itself, or (expanding) each instance of a recurring event. Unexpanded recurring events yield their
 * instances too, so the caller can test the time window against any of them and keep the master once (freeBusy takes
 * every instance's times). An instance changed or deleted on its own is an exception, stored under the instance's id
 * in `events` (the calendar's): the series no longer yields it, the exception stands for it.
 */
export function* occurrences(
  stored: StoredEvent,
  cal: CalendarRecord,
  expandIt: boolean,
  timeMin?: number,
  timeMax?: number,
  events?: ReadonlyMap<string, StoredEvent>,
): Generator<Item> {
  const ev = stored.resource;
  const start = resolveTime(ev.start, 'start', cal.timeZone);
  const end = resolveTime(ev.end, 'end', cal.timeZone);
  const duration = end.ms - start.ms;
  const rec = Array.isArray(ev.recurrence) ? parseRecurrence(ev.recurrence, start.zone) : undefined;
  if (!rec || typeof rec === 'string') {
    yield { resource: ev, startMs: start.ms, endMs: end.ms, updatedMs: stored.updatedMs };
    return;
  }
  const endMs = timeMax ?? Math.max(timeMin ?? 0, start.ms) + HORIZON_MS;
  const list = expand(rec, { start: start.local, allDay: start.allDay, timeZone: start.zone, endMs, max: MAX_INSTANCES });
  for (const occ of list) {
    if (events?.has(instanceId(ev.id as string, occ.ms, occ.local, start.allDay))) continue;
    const resource = expandIt ? instanceOf(ev, occ.ms, occ.local, duration, start.allDay, start.zone) : ev;
    yield { resource, startMs: occ.ms, endMs: occ.ms + duration, updatedMs: stored.updatedMs };
  }
}

function instanceOf(
  master: Record<string, unknown>,
  startMs: number,
  local: { year: number; month: number; day: number; hour: number; minute: number; second: number },
  duration: number,
  allDay: boolean,
  zone: string,
): Record<string, unknown> {
  const masterStart = master.start as Record<string, unknown>;
  const masterEnd = master.end as Record<string, unknown>;
  let start: Record<string, unknown>;
  let end: Record<string, unknown>;
  if (allDay) {
    const days = Math.round(duration / DAY);
    start = { date: formatDate(local) };
    end = { date: formatDate(addDays(local, days)) };
  } else {
    start = { dateTime: formatInZone(startMs, zone), ...(masterStart.timeZone ? { timeZone: masterStart.timeZone } : {}) };
    end = { dateTime: formatInZone(startMs + duration, zone), ...(masterEnd.timeZone ? { timeZone: masterEnd.timeZone } : {}) };
  }
  const { recurrence: _recurrence, ...rest } = master;
  return {
    ...rest,
    id: instanceId(master.id as string, startMs, local, allDay),
    start,
    end,
    recurringEventId: master.id,
    originalStartTime: start,
  };
}

/** An instance's id as Google writes it: the series' id, `_`, its start (20261127T100000Z; 20261127 all day). */
function instanceId(masterId: string, startMs: number, local: LocalDateTime, allDay: boolean): string {
  const suffix = allDay ? formatDate(local).replaceAll('-', '') : new Date(startMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return `${masterId}_${suffix}`;
}

/**
 * The instance of a recurring event that `eventId` names (`<series id>_<start>`, as events.list with singleEvents
 * gives it), when no exception is stored under that id; undefined when it names none. Google reads, changes and
 * deletes an instance by this id.
 */
export function instanceById(events: ReadonlyMap<string, StoredEvent>, cal: CalendarRecord, eventId: string): Record<string, unknown> | undefined {
  const cut = eventId.lastIndexOf('_');
  const at = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(eventId.slice(cut + 1));
  const master = cut > 0 ? events.get(eventId.slice(0, cut)) : undefined;
  if (!at || !master || master.resource.status === 'cancelled' || !Array.isArray(master.resource.recurrence)) return undefined;
  const ms = Date.UTC(Number(at[1]), Number(at[2]) - 1, Number(at[3]), Number(at[4] ?? 0), Number(at[5] ?? 0), Number(at[6] ?? 0));
  for (const item of occurrences(master, cal, true, ms - 2 * DAY, ms + 2 * DAY, events)) {
    if (item.resource.id === eventId) return item.resource;
  }
  return undefined;
}
