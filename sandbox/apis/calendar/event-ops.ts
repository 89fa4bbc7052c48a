/**
 * Single-event operations: insert, get, patch, delete.
 * @see https://developers.google.com/calendar/api/v3/reference/events
 */
import type { ApiResponse } from '../../types.js';
import { GoogleApiError } from '../google-common/errors.js';
import { base32hexId } from '../google-common/ids.js';
import { isRecord } from '../google-common/request.js';
import { etagFor, eventHtmlLink, type CalendarRecord, type CalendarUserState, type StoredEvent } from './calendar-store.js';
import { hangoutLinkOf, resolveConference } from './conference.js';
import { checkEvent, checkEventTypeFor, mergePatch, normalizeAttendees, pickWritable, WRITABLE_FIELDS, type CheckedEvent } from './event-input.js';
import { inResponseZone, renderTime } from './event-time.js';
import { isTimeZone } from './time.js';
import { instanceById } from './events-list.js';

export interface WriteOptions {
  conferenceDataVersion: number;
  now: number;
}

function requireWriter(cal: CalendarRecord): void {
  if (cal.accessRole !== 'owner' && cal.accessRole !== 'writer') {
    throw new GoogleApiError(403, 'You need to have writer access to this calendar.', { reason: 'requiredAccessLevel' });
  }
}

function organizerOf(cal: CalendarRecord, user: string): Record<string, unknown> {
  return cal.primary ? { email: user, self: true } : { email: cal.id, displayName: cal.summary, self: true };
}

interface Meta {
  id: string;
  iCalUID: string;
  createdMs: number;
  updatedMs: number;
  seq: number;
  sequence: number;
  creator: Record<string, unknown>;
  conference?: Record<string, unknown>;
  /** An instance changed on its own (an exception): its series and the start it had there. */
  recurringEventId?: unknown;
  originalStartTime?: unknown;
}

/** Builds the Event resource in Google's field order, leaving out flags that hold their default. */
function compose(fields: Record<string, unknown>, checked: CheckedEvent, cal: CalendarRecord, user: string, meta: Meta): Record<string, unknown> {
  const organizer = organizerOf(cal, user);
  const ev: Record<string, unknown> = {
    kind: 'calendar#event',
    etag: etagFor(meta.updatedMs, meta.seq),
    id: meta.id,
    status: fields.status ?? 'confirmed',
    htmlLink: eventHtmlLink(meta.id, cal.id),
    created: new Date(meta.createdMs).toISOString(),
    updated: new Date(meta.updatedMs).toISOString(),
  };
  for (const k of ['summary', 'description', 'location', 'colorId'] as const) if (fields[k] !== undefined) ev[k] = fields[k];
  ev.creator = meta.creator;
  ev.organizer = organizer;
  ev.start = renderTime(checked.start, fields.start as Record<string, unknown>);
  ev.end = renderTime(checked.end, fields.end as Record<string, unknown>);
  if (fields.endTimeUnspecified === true) ev.endTimeUnspecified = true;
  if (Array.isArray(fields.recurrence) && fields.recurrence.length > 0) ev.recurrence = fields.recurrence;
  if (meta.recurringEventId !== undefined) {
    ev.recurringEventId = meta.recurringEventId;
    ev.originalStartTime = meta.originalStartTime;
  }
  if (fields.transparency === 'transparent') ev.transparency = 'transparent';
  if (fields.visibility !== undefined && fields.visibility !== 'default') ev.visibility = fields.visibility;
  ev.iCalUID = meta.iCalUID;
  ev.sequence = meta.sequence;
  const attendees = normalizeAttendees(fields.attendees, user, organizer.email as string);
  if (attendees && attendees.length > 0) ev.attendees = attendees;
  if (fields.extendedProperties !== undefined) ev.extendedProperties = fields.extendedProperties;
  const hangoutLink = hangoutLinkOf(meta.conference);
  if (hangoutLink) ev.hangoutLink = hangoutLink;
  if (meta.conference) ev.conferenceData = meta.conference;
  if (fields.anyoneCanAddSelf === true) ev.anyoneCanAddSelf = true;
  if (fields.guestsCanInviteOthers === false) ev.guestsCanInviteOthers = false;
  if (fields.guestsCanModify === true) ev.guestsCanModify = true;
  if (fields.guestsCanSeeOtherGuests === false) ev.guestsCanSeeOtherGuests = false;
  if (fields.privateCopy === true) ev.privateCopy = true;
  ev.reminders = isRecord(fields.reminders) ? normalizeReminders(fields.reminders) : { useDefault: true };
  for (const k of ['source', 'attachments', 'outOfOfficeProperties', 'focusTimeProperties', 'workingLocationProperties', 'birthdayProperties']) {
    if (fields[k] !== undefined) ev[k] = fields[k];
  }
  ev.eventType = fields.eventType ?? 'default';
  return ev;
}

function normalizeReminders(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { useDefault: r.useDefault === true };
  if (Array.isArray(r.overrides) && r.overrides.length > 0) out.overrides = r.overrides;
  return out;
}

/**
 * The event `eventId` names: a stored event, or an instance of a recurring event by its id (`<series id>_<start>`),
 * which Google reads, changes and deletes as any event; `stored` is false for an instance not changed before, which a
 * change stores as an exception under its id.
 */
function findEvent(state: CalendarUserState, cal: CalendarRecord, eventId: string): { event: StoredEvent; stored: boolean } {
  const events = state.eventsOf(cal.id);
  const stored = events.get(eventId);
  if (stored) return { event: stored, stored: true };
  const instance = instanceById(events, cal, eventId);
  if (!instance) throw new GoogleApiError(404, 'Not Found', { reason: 'notFound' });
  return { event: { resource: instance, changeSeq: 0, updatedMs: Date.parse(instance.updated as string) }, stored: false };
}

export function insertEvent(state: CalendarUserState, calendarId: string, body: unknown, opts: WriteOptions): ApiResponse {
  const cal = state.calendar(calendarId);
  requireWriter(cal);
  if (!isRecord(body)) throw new GoogleApiError(400, 'Missing start time.', { reason: 'required' });
  const events = state.eventsOf(cal.id);
  let id: string;
  if (body.id !== undefined) {
    if (typeof body.id !== 'string' || !/^[a-v0-9]{5,1024}$/.test(body.id)) {
      throw new GoogleApiError(400, 'Invalid resource id value.', { reason: 'invalid' });
    }
    if (events.has(body.id)) throw new GoogleApiError(409, 'The requested identifier already exists.', { reason: 'duplicate' });
    id = body.id;
  } else {
    id = base32hexId();
  }
  const fields = Object.fromEntries(Object.entries(pickWritable(body)).filter(([, v]) => v !== null));
  const checked = checkEvent(fields, cal.timeZone, true);
  checkEventTypeFor(fields, cal.primary);
  const seq = state.nextSeq();
  const meta: Meta = {
    id,
    iCalUID: typeof body.iCalUID === 'string' ? body.iCalUID : `${id}@google.com`,
    createdMs: opts.now,
    updatedMs: opts.now,
    seq,
    sequence: typeof body.sequence === 'number' ? body.sequence : 0,
    creator: { email: state.user, self: true },
  };
  const conference = resolveConference(opts.conferenceDataVersion, body.conferenceData, undefined);
  if (conference) meta.conference = conference;
  const resource = compose(fields, checked, cal, state.user, meta);
  events.set(id, { resource, changeSeq: seq, updatedMs: opts.now });
  return { status: 200, body: structuredClone(resource) };
}

/** events.get; `timeZone` (a query parameter), when given, is the zone the event's times are written in. */
export function getEvent(state: CalendarUserState, calendarId: string, eventId: string, timeZone: string | null = null): ApiResponse {
  if (timeZone !== null && !isTimeZone(timeZone)) {
    throw new GoogleApiError(400, 'Invalid time zone definition.', { reason: 'invalid', locationType: 'parameter', location: 'timeZone' });
  }
  const cal = state.calendar(calendarId);
  const event = structuredClone(findEvent(state, cal, eventId).event.resource);
  return { status: 200, body: timeZone === null ? event : inResponseZone(event, timeZone) };
}

export function patchEvent(
  state: CalendarUserState,
  calendarId: string,
  eventId: string,
  body: unknown,
  opts: WriteOptions,
): ApiResponse {
  const cal = state.calendar(calendarId);
  requireWriter(cal);
  const { event: stored, stored: known } = findEvent(state, cal, eventId);
  const patch = isRecord(body) ? body : {};
  // An event's type is fixed when it is created; Google refuses a patch that names another one.
  if (patch.eventType !== undefined && patch.eventType !== (stored.resource.eventType ?? 'default')) {
    throw new GoogleApiError(400, 'Event type cannot be changed.', { reason: 'invalid' });
  }
  const current: Record<string, unknown> = {};
  for (const f of WRITABLE_FIELDS) if (stored.resource[f] !== undefined) current[f] = stored.resource[f];
  const merged = mergePatch(current, pickWritable(patch));
  const checked = checkEvent(merged, cal.timeZone, false);
  const prev = stored.resource;
  const timingChanged =
    JSON.stringify([prev.start, prev.end, prev.recurrence]) !==
    JSON.stringify([merged.start, merged.end, merged.recurrence]);
  const seq = state.nextSeq();
  const meta: Meta = {
    id: eventId,
    iCalUID: prev.iCalUID as string,
    createdMs: Date.parse(prev.created as string),
    updatedMs: opts.now,
    seq,
    // Google bumps the iCalendar sequence when the time of the event changes.
    sequence: (prev.sequence as number) + (timingChanged ? 1 : 0),
    creator: prev.creator as Record<string, unknown>,
  };
  if (prev.recurringEventId !== undefined) Object.assign(meta, { recurringEventId: prev.recurringEventId, originalStartTime: prev.originalStartTime });
  const conference = resolveConference(
    opts.conferenceDataVersion,
    patch.conferenceData,
    prev.conferenceData as Record<string, unknown> | undefined,
  );
  if (conference) meta.conference = conference;
  const resource = compose(merged, checked, cal, state.user, meta);
  stored.resource = resource;
  stored.changeSeq = seq;
  stored.updatedMs = opts.now;
  if (!known) state.eventsOf(cal.id).set(eventId, stored);
  return { status: 200, body: structuredClone(resource) };
}

/** Marks the event cancelled (kept for sync); a second delete is 410 `deleted`. */
export function deleteEvent(state: CalendarUserState, calendarId: string, eventId: string, now: number): ApiResponse {
  const cal = state.calendar(calendarId);
  requireWriter(cal);
  const { event: stored, stored: known } = findEvent(state, cal, eventId);
  if (stored.resource.status === 'cancelled') {
    throw new GoogleApiError(410, 'Resource has been deleted', { reason: 'deleted' });
  }
  const seq = state.nextSeq();
  stored.resource = {
    ...stored.resource,
    status: 'cancelled',
    updated: new Date(now).toISOString(),
    etag: etagFor(now, seq),
  };
  stored.changeSeq = seq;
  stored.updatedMs = now;
  // A deleted instance stays as a cancelled exception, as Google keeps it: the series no longer yields it.
  if (!known) state.eventsOf(cal.id).set(eventId, stored);
  return { status: 204 };
}
