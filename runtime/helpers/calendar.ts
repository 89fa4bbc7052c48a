import { randomUUID } from 'node:crypto';
import type { Violation } from '../types.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The minutes east of UTC an RFC 3339 offset says (`Z` or `z`: 0; `-05:00`: -300). */
const offsetMinutes = (offset: string): number => (offset.toUpperCase() === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))));

/** A date alone, `YYYY-MM-DD`: an all-day event's day (Google's `start.date`), where a date-time is a timed event's. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether an event's start is written as a date alone (an all-day event) rather than an RFC 3339 date-time: its shape,
 * not formats.ts's `date` (a real calendar day). The length rules (`checkTimedLength`, `checkAllDayLength`) run beside
 * the format check, on a value that may fail it, and judge the kind of start the caller wrote: `2026-02-30` with
 * event_duration_days is refused once, for the day, not also as a start "that has a time".
 */
export function isDateOnly(value: unknown): boolean {
  return typeof value === 'string' && DATE_ONLY.test(value);
}

/** `date` (YYYY-MM-DD) plus `days` days, as YYYY-MM-DD: calendar days, no time zone involved. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from one date (YYYY-MM-DD) to another: an all-day event's length, its `end.date` being exclusive. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The event's end: `end` when given; otherwise `start` plus the duration (30 minutes when neither hours nor
 * minutes are given), written in `start`'s own UTC offset so the event stays in the caller's wall-clock time.
 * Absent when both `start` and `end` are absent (an update that does not move the event), and when `start` is a date
 * alone: an all-day event ends on a date ({@link allDayEnd}).
 */
export function eventEnd(start?: string, end?: string | null, hours?: number, minutes?: number): string | undefined {
  if (end) return end;
  if (!start || isDateOnly(start)) return undefined;
  const total = (hours ?? 0) * 60 + (minutes ?? 0);
  const durationMin = hours === undefined && minutes === undefined ? 30 : total;
  return laterInOffsetOf(start, durationMin * 60_000);
}

/**
 * `calendar_update_event`'s `end.dateTime`: {@link eventEnd}, or `null` when `start` is a date alone. events.patch
 * merges into the stored `end`, so an event made all-day would keep its old `dateTime` beside the new `date`, which
 * Google refuses (400 "Start and end times must either both be date or both be dateTime."); `null` clears it.
 */
export function timedEnd(start?: string, end?: string, hours?: number, minutes?: number): string | null | undefined {
  return isDateOnly(start) ? null : eventEnd(start, end, hours, minutes);
}

/**
 * Google's `start.date`: `start` when it is a date alone (an all-day event). For a start with a time: `null` when
 * `clear` (an update: events.patch merges into the stored `start`, so an all-day event moved to a time would keep its
 * `date` beside the new `dateTime`, which Google refuses), otherwise absent. Absent when `start` is.
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 */
export function allDayStart(start?: string, clear?: boolean): string | null | undefined {
  if (start === undefined) return undefined;
  return isDateOnly(start) ? start : clear ? null : undefined;
}

/** Google's `start.dateTime`: `start` when it has a time; for a date alone `null` when `clear` (an update), else absent. */
export function timedStart(start?: string, clear?: boolean): string | null | undefined {
  if (start === undefined) return undefined;
  return isDateOnly(start) ? (clear ? null : undefined) : start;
}

/**
 * Google's `end.date` for an all-day event (`start` a date alone): the day after its last day, Google's end being
 * exclusive, so `start` plus `days` (default 1: a one-day event ends the next day). Otherwise, when a time is set
 * (`start` or `end` given), `null` when `clear` (an update: it clears an all-day event's stored `end.date`), else absent.
 */
export function allDayEnd(start?: string, end?: string | null, days?: number, clear?: boolean): string | null | undefined {
  if (start !== undefined && start !== null && isDateOnly(start)) return addDays(start, days ?? 1);
  return clear && (start !== undefined || (end !== undefined && end !== null)) ? null : undefined;
}

/**
 * `start` plus `ms` milliseconds, written in `start`'s own UTC offset (`Z` stays `Z`), to the second: the end of an
 * event that starts at `start` and lasts `ms`, in the caller's wall-clock time.
 */
export function laterInOffsetOf(start: string, ms: number): string {
  const m = RFC3339.exec(start);
  if (!m) throw new TypeError(`start_datetime is not an RFC 3339 date-time: ${start}`);
  const offset = m[8] as string;
  const endMs = Date.parse(start) + ms;
  const local = new Date(endMs + offsetMinutes(offset) * 60_000).toISOString().slice(0, 19);
  return `${local}${offset.toUpperCase() === 'Z' ? 'Z' : offset}`;
}

/** `["a@x.org"]` → `[{ email: "a@x.org" }]`, the shape of an event's `attendees`. */
export function attendees(emails?: readonly string[]): Array<{ email: string }> | undefined {
  return emails?.map((email) => ({ email }));
}

/** The tool's `free`/`busy` to Google's `transparent`/`opaque`. */
export function transparency(value?: 'free' | 'busy'): 'transparent' | 'opaque' | undefined {
  if (value === undefined) return undefined;
  return value === 'free' ? 'transparent' : 'opaque';
}

/** The tool's boolean `send_updates` to Google's `sendUpdates` (`all` or `none`). */
export function sendUpdates(value?: boolean): 'all' | 'none' | undefined {
  if (value === undefined) return undefined;
  return value ? 'all' : 'none';
}

/** Google creates conference data only with `conferenceDataVersion=1`. */
export function conferenceDataVersion(create?: boolean): '1' | undefined {
  return create ? '1' : undefined;
}

/** The `conferenceData` that asks Google for a new Meet link; a fresh request id each call. */
export function meetConference(create?: boolean): { createRequest: { requestId: string; conferenceSolutionKey: { type: 'hangoutsMeet' } } } | undefined {
  if (!create) return undefined;
  return { createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' } } };
}

/**
 * The empty properties object a status event of this kind must carry: Google's Event resource says a focus-time or
 * out-of-office event needs its `focusTimeProperties` / `outOfOfficeProperties` "to make a valid event (even if
 * empty)". Absent for any other event type.
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 */
export function statusEventProperties(eventType: string | undefined, kind: string): Record<string, never> | undefined {
  return eventType === kind ? {} : undefined;
}

/** Calendars that are never a user's primary calendar: group (shared), subscribed (holidays) and resource calendars. */
const NOT_A_PRIMARY_CALENDAR = /@(?:group(?:\.v)?|resource)\.calendar\.google\.com$/i;

/**
 * The `check` rule of `calendar_create_event`'s `calendar_id`: focus time and out of office exist only on the user's
 * primary calendar, named `primary` or by its id (the user's e-mail address). A group, subscribed or resource calendar
 * is refused at `/calendar_id` before anything is sent; any other id may be the user's own, so it is left to Google
 * (a colleague's calendar is its 400).
 */
export function checkStatusEventCalendar(value: unknown, pointer: string, input?: Record<string, unknown>): Violation[] {
  const type = input?.event_type;
  if ((type !== 'focusTime' && type !== 'outOfOffice') || typeof value !== 'string' || !NOT_A_PRIMARY_CALENDAR.test(value)) return [];
  return [
    {
      pointer,
      keyword: 'check',
      message: `${type} events are only available on the user's primary calendar; ${pointer.slice(1)} is a shared calendar (leave calendar_id out, or use primary or the user's own calendar id)`,
    },
  ];
}

/** `+02:00`, `-05:00` or `Z`: the UTC offset `zone` has at the instant `ms` (Intl's `longOffset` name, GMT+02:00). */
function zoneOffsetAt(zone: string, ms: number): string | undefined {
  let name: string | undefined;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value;
  } catch {
    return undefined;
  }
  if (name === 'GMT' || name === 'GMT+00:00') return 'Z';
  return name?.startsWith('GMT') ? name.slice(3) : undefined;
}


/**
 * The `check` rule (`eventZoneOffset`) of `calendar_create_event`'s `start_datetime`, and of `calendar_update_event`'s
 * `start_datetime` and `end_datetime`, when `timezone` is given: the time's offset is the zone's offset at that date
 * and time, as the tools ask. It checks the caller's input (validation runs before `calendarEventLength` fills an
 * end in the start's offset). Google takes the offset as the instant and shows it in the
 * zone, so a summer start written with the winter offset (3 pm Paris as 15:00+01:00 on 30 March) would silently be
 * an hour off (16:00 Paris). Refused at the pointer with both readings: the wall-clock time in the zone, and the
 * instant given, each written with the zone's offset.
 */
export function checkZoneOffset(value: unknown, pointer: string, input?: Record<string, unknown>): Violation[] {
  const zone = input?.timezone;
  const m = typeof value === 'string' ? RFC3339.exec(value) : null;
  if (typeof zone !== 'string' || m === null) return [];
  const given = (m[8] as string).toUpperCase() === 'Z' ? 'Z' : (m[8] as string);
  const instant = Date.parse(value as string);
  // The zone's offset at the wall-clock time given: looked up once from the given instant, then at the instant that
  // wall-clock time is in the zone (a DST change between the two moves it).
  const wall = Date.parse(`${(value as string).slice(0, 19)}Z`);
  const first = zoneOffsetAt(zone, instant);
  const meant = first === undefined ? undefined : zoneOffsetAt(zone, wall - offsetMinutes(first) * 60_000);
  if (meant === undefined || offsetMinutes(meant) === offsetMinutes(given)) return [];
  const local = (value as string).slice(0, 19);
  const sameInstant = laterInOffsetOf(`${local}${meant}`, instant - (wall - offsetMinutes(meant) * 60_000));
  return [
    {
      pointer,
      keyword: 'check',
      message: `${pointer.slice(1)} ${value as string} has the offset ${given}, but ${zone} is at ${meant} on that date: for ${local.slice(11, 16)} in ${zone} send ${local}${meant}; for the instant given, ${sameInstant}`,
    },
  ];
}

/** The parameter a `check` names, from its pointer (`/event_duration_days`: `event_duration_days`). */
const parameterAt = (pointer: string): string => pointer.slice(1);

/**
 * The `check` rule (`timedLength`) of `event_duration_hour`, `event_duration_minutes` (and `calendar_update_event`'s
 * `end_datetime`): they say when a timed event ends, so with a `start_datetime` that is a date alone (an all-day event,
 * whose length is whole days) they are refused, naming the parameter to use instead. Google would otherwise get a
 * `date` start with a `dateTime` end, which it refuses.
 */
export function checkTimedLength(value: unknown, pointer: string, input?: Record<string, unknown>): Violation[] {
  const start = input?.start_datetime;
  if (value === undefined || !isDateOnly(start)) return [];
  return [
    {
      pointer,
      keyword: 'check',
      message: `${parameterAt(pointer)} is for an event with a time, but start_datetime ${start} is a date alone (an all-day event): give its number of days as event_duration_days, or start_datetime with a time`,
    },
  ];
}

/**
 * The `check` rule (`allDayLength`) of `event_duration_days`: the length of an all-day event, so refused with a
 * `start_datetime` that has a time (whose length is event_duration_hour and event_duration_minutes).
 */
export function checkAllDayLength(value: unknown, pointer: string, input?: Record<string, unknown>): Violation[] {
  const start = input?.start_datetime;
  if (value === undefined || typeof start !== 'string' || isDateOnly(start)) return [];
  return [
    {
      pointer,
      keyword: 'check',
      message: `${parameterAt(pointer)} is for an all-day event, but start_datetime ${start} has a time: for an all-day event give start_datetime as a date alone (${start.slice(0, 10)}); for a timed one give its length as event_duration_hour and event_duration_minutes`,
    },
  ];
}

/**
 * The `check` rule (`recurrenceZone`) of `recurrence`: Google expands a recurring event with a time in its start's
 * time zone and refuses one without ("Missing time zone definition for start time."), while an all-day event's dates
 * have no time zone ("the timezone field has no significance for all-day events", Google's Calendars & events guide),
 * so a weekly all-day event needs none. A missing zone is reported at `/timezone`, where it goes.
 */
export function checkRecurrenceZone(value: unknown, _pointer: string, input?: Record<string, unknown>): Violation[] {
  if (value === undefined || input?.timezone !== undefined || isDateOnly(input?.start_datetime)) return [];
  return [
    {
      pointer: '/timezone',
      keyword: 'check',
      message: 'timezone is required with recurrence for an event with a time (Google expands it in that zone); an all-day event (start_datetime a date alone) needs none',
    },
  ];
}
