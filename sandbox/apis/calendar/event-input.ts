/**
 * Validation and normalization of an Event body (insert, or the merged result of a patch), with Calendar's
 * messages and reasons.
 * @see https://developers.google.com/calendar/api/v3/reference/events/insert
 */
import { GoogleApiError, valueText } from '../google-common/errors.js';
import { isRecord } from '../google-common/request.js';
import { resolveTime, type ResolvedTime } from './event-time.js';
import { parseRecurrence, type Recurrence } from './recurrence.js';

/** Fields a client may write; anything else in a body (read-only fields included) is ignored, as Google does. */
export const WRITABLE_FIELDS = [
  'summary',
  'description',
  'location',
  'colorId',
  'start',
  'end',
  'endTimeUnspecified',
  'recurrence',
  'transparency',
  'visibility',
  'attendees',
  'attendeesOmitted',
  'extendedProperties',
  'anyoneCanAddSelf',
  'guestsCanInviteOthers',
  'guestsCanModify',
  'guestsCanSeeOtherGuests',
  'privateCopy',
  'locked',
  'reminders',
  'source',
  'attachments',
  'eventType',
  'status',
  'outOfOfficeProperties',
  'focusTimeProperties',
  'workingLocationProperties',
  'birthdayProperties',
] as const;

export const EVENT_TYPES = ['default', 'birthday', 'focusTime', 'fromGmail', 'outOfOffice', 'workingLocation'] as const;
const VISIBILITIES = ['default', 'public', 'private', 'confidential'];
const TRANSPARENCIES = ['opaque', 'transparent'];
const STATUSES = ['confirmed', 'tentative', 'cancelled'];
const RESPONSE_STATUSES = ['needsAction', 'declined', 'tentative', 'accepted'];
const REMINDER_METHODS = ['email', 'popup'];

export interface CheckedEvent {
  start: ResolvedTime;
  end: ResolvedTime;
  recurrence?: Recurrence;
}

function invalid(message: string, reason = 'invalid'): GoogleApiError {
  return new GoogleApiError(400, message, { reason });
}

function checkEnum(fields: Record<string, unknown>, name: string, allowed: readonly string[]): void {
  const v = fields[name];
  if (v !== undefined && (typeof v !== 'string' || !allowed.includes(v))) throw invalid(`Invalid ${name} value: ${valueText(v)}`);
}

/** Copies only the writable fields of a body, dropping read-only and unknown ones. */
export function pickWritable(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of WRITABLE_FIELDS) if (body[f] !== undefined) out[f] = body[f];
  return out;
}

/** Checks a complete event's fields; throws Calendar's 400s. `isInsert` refuses types the API cannot create. */
export function checkEvent(fields: Record<string, unknown>, calendarZone: string, isInsert: boolean): CheckedEvent {
  if (fields.start === undefined || fields.start === null) throw invalid('Missing start time.', 'required');
  if (fields.end === undefined || fields.end === null) throw invalid('Missing end time.', 'required');
  const start = resolveTime(fields.start, 'start', calendarZone);
  const end = resolveTime(fields.end, 'end', calendarZone);
  if (start.allDay !== end.allDay) throw invalid('Start and end times must either both be date or both be dateTime.');

  let recurrence: Recurrence | undefined;
  if (fields.recurrence !== undefined && fields.recurrence !== null) {
    if (!Array.isArray(fields.recurrence)) throw invalid('Invalid recurrence rule.');
    if (fields.recurrence.length > 0) {
      // A recurring timed event needs a zone to repeat in: an offset alone does not say how DST applies.
      if (!start.allDay && !start.explicitZone) throw invalid('Missing time zone definition for start time.');
      if (!end.allDay && !end.explicitZone) throw invalid('Missing time zone definition for end time.');
      const parsed = parseRecurrence(fields.recurrence, start.zone);
      if (typeof parsed === 'string') throw invalid(parsed);
      recurrence = parsed;
    }
  }
  // A timed event must end after it starts (Google refuses a zero-length one too: keeper.sh#616); an all-day event may
  // end on its start date, which Google takes (odoo/odoo#87646, an event inserted so through the API), but not before
  // it (flavorjones/calendar-assistant#117, timeRangeEmpty for an all-day range ending before it starts). Google
  // locates the refusal at `timeMax`, as for a list query (kewisch/gdata-provider#12, an events.insert).
  if (start.allDay ? end.ms < start.ms : end.ms <= start.ms) {
    throw new GoogleApiError(400, 'The specified time range is empty.', { reason: 'timeRangeEmpty', locationType: 'parameter', location: 'timeMax' });
  }

  checkEnum(fields, 'eventType', EVENT_TYPES);
  if (isInsert && fields.eventType === 'fromGmail') throw invalid('Event type fromGmail cannot be created using the API.');
  if (fields.eventType === 'birthday' && !start.allDay) throw invalid('Birthday events must be all-day events.');
  checkStatusEvent(fields, start.allDay);
  checkEnum(fields, 'visibility', VISIBILITIES);
  checkEnum(fields, 'transparency', TRANSPARENCIES);
  checkEnum(fields, 'status', STATUSES);
  if (fields.colorId !== undefined && !/^([1-9]|1[01])$/.test(String(fields.colorId))) throw invalid('Invalid color id.');
  for (const flag of ['anyoneCanAddSelf', 'guestsCanInviteOthers', 'guestsCanModify', 'guestsCanSeeOtherGuests']) {
    if (fields[flag] !== undefined && typeof fields[flag] !== 'boolean') throw invalid(`Invalid value for: ${flag}`);
  }
  for (const text of ['summary', 'description', 'location']) {
    if (fields[text] !== undefined && typeof fields[text] !== 'string') throw invalid(`Invalid value for: ${text}`);
  }
  checkAttendees(fields.attendees);
  checkReminders(fields.reminders);
  const out: CheckedEvent = { start, end };
  if (recurrence) out.recurrence = recurrence;
  return out;
}

/**
 * The status event types (focus time, out of office, working location) need what Google states for each: focus
 * time and out of office carry their properties object ("must be supplied to make a valid event (even if empty)",
 * the Event resource's `eventType`), are timed and opaque; a working location is public, transparent and says where.
 * (Only primary calendars have them: `checkEventTypeFor` checks the calendar.) The messages are ours: the docs state
 * the requirements, not the wording of the refusals.
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 * @see https://developers.google.com/calendar/api/guides/calendar-status
 */
function checkStatusEvent(fields: Record<string, unknown>, allDay: boolean): void {
  const type = fields.eventType;
  if (type === 'focusTime' || type === 'outOfOffice') {
    const label = type === 'focusTime' ? 'Focus time' : 'Out of office';
    const properties = `${type}Properties`;
    if (!isRecord(fields[properties])) throw invalid(`${label} events need ${properties} (it may be empty).`, 'required');
    if (allDay) throw invalid(`${label} events cannot be all-day events.`);
    if (fields.transparency === 'transparent') throw invalid(`${label} events must be opaque.`);
  }
  if (type === 'workingLocation') {
    if (!isRecord(fields.workingLocationProperties)) throw invalid('Working location events need workingLocationProperties.', 'required');
    if (fields.visibility !== 'public') throw invalid('Working location events must be public.');
    if (fields.transparency !== 'transparent') throw invalid('Working location events must be transparent.');
  }
}

/** Status events exist only on a user's primary calendar. */
export function checkEventTypeFor(fields: Record<string, unknown>, primaryCalendar: boolean): void {
  const type = fields.eventType;
  if ((type === 'focusTime' || type === 'outOfOffice' || type === 'workingLocation') && !primaryCalendar) {
    throw invalid(`Event type ${type} is only available on primary calendars.`);
  }
}

function checkAttendees(attendees: unknown): void {
  if (attendees === undefined || attendees === null) return;
  if (!Array.isArray(attendees)) throw invalid('Invalid value for: attendees');
  for (const a of attendees) {
    if (!isRecord(a)) throw invalid('Invalid value for: attendees');
    if (typeof a.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(a.email)) throw invalid('Invalid attendee email.');
    if (a.responseStatus !== undefined && !RESPONSE_STATUSES.includes(a.responseStatus as string)) {
      throw invalid(`Invalid responseStatus value: ${valueText(a.responseStatus)}`);
    }
  }
}

function checkReminders(reminders: unknown): void {
  if (reminders === undefined || reminders === null) return;
  if (!isRecord(reminders)) throw invalid('Invalid value for: reminders');
  const overrides = reminders.overrides;
  if (overrides === undefined) return;
  if (!Array.isArray(overrides)) throw invalid('Invalid value for: reminders.overrides');
  if (reminders.useDefault === true && overrides.length > 0) {
    throw new GoogleApiError(400, 'Cannot specify both default reminders and overrides at the same time.', {
      reason: 'cannotUseDefaultRemindersAndSpecifyOverride',
    });
  }
  if (overrides.length > 5) throw invalid('Too many reminders.', 'tooManyReminders');
  for (const r of overrides) {
    if (!isRecord(r) || !REMINDER_METHODS.includes(r.method as string)) throw invalid('Invalid reminder method.');
    const m = r.minutes;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 0 || m > 40320) throw invalid('Invalid reminder minutes.');
  }
}

/** Attendees as Calendar returns them: `responseStatus` defaulted, `self`/`organizer` marked. */
export function normalizeAttendees(attendees: unknown, user: string, organizerEmail: string): unknown[] | undefined {
  if (!Array.isArray(attendees)) return undefined;
  return attendees.map((a) => {
    const att = { ...(a as Record<string, unknown>) };
    const email = String(att.email).toLowerCase();
    const out: Record<string, unknown> = { email };
    if (att.displayName !== undefined) out.displayName = att.displayName;
    if (email === organizerEmail.toLowerCase()) out.organizer = true;
    if (email === user.toLowerCase()) out.self = true;
    for (const k of ['optional', 'resource', 'comment', 'additionalGuests']) if (att[k] !== undefined) out[k] = att[k];
    out.responseStatus = att.responseStatus ?? (out.self ? 'accepted' : 'needsAction');
    return out;
  });
}

/**
 * Patch semantics: supplied fields replace; objects merge, `start` and `end` included (so an all-day event moved to
 * a time keeps its `date` unless the patch sends `date: null`, and Google then refuses a start with both); arrays
 * replace; null clears.
 * @see https://developers.google.com/calendar/api/guides/performance#patch
 */
export function mergePatch(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  return mergeObjects(current, patch);
}

function mergeObjects(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (v === null) delete out[k];
    else if (isRecord(v) && isRecord(out[k])) out[k] = mergeObjects(out[k] as Record<string, unknown>, v);
    else out[k] = v;
  }
  return out;
}
