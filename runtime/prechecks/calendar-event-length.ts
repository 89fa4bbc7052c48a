/**
 * `calendarEventLength`: the pre-check of `calendar_update_event` that keeps an event's length when it is moved by a
 * new start alone. Google's events.patch merges into the stored event and keeps no duration: sent the new start
 * alone, it keeps the old end (stretching or emptying the event), so the tool must send an end, and the only end
 * that keeps the length is the new start plus the old length, which only the event itself says. So, when
 * `start_datetime` comes without `end_datetime` and without a duration, the event is read
 * (`GET /calendar/v3/calendars/{calendarId}/events/{eventId}`, with the user's token) and `end_datetime` is filled in
 * as new start + (old end - old start), written in `start_datetime`'s own UTC offset. Nothing is read otherwise.
 *
 * An all-day event (`start.date`/`end.date`) moved to a time is refused at `/end_datetime`: its length is whole days,
 * and a day's length from a time of day (a one-day offsite moved to 09:00 lasting until 09:00 the next day) is
 * rarely what is meant, while Google would take it and may e-mail the attendees; the caller gives the end instead.
 *
 * A `start_datetime` that is a date alone makes the event all-day; without `event_duration_days` the event is read as
 * well, and an all-day event keeps its number of days (`end.date` - `start.date`, Google's end date being exclusive):
 * `event_duration_days` is filled in. A timed event made all-day is left to the default of one day: its hours do not
 * say how many days were meant.
 * A read that fails (no such event: 404) is refused as the update itself would be, with the tool's hints.
 * @see https://developers.google.com/calendar/api/v3/reference/events/get
 * @see https://developers.google.com/calendar/api/guides/performance#patch
 */
import { daysBetween, isDateOnly, laterInOffsetOf } from '../helpers/calendar.js';
import { buildPath } from '../http/path.js';
import type { PrecheckIO } from '../types.js';
import { violationError } from '../validation/violation-error.js';

/** The inputs this pre-check reads. */
export interface CalendarEventLengthInput {
  calendar_id: string;
  event_id: string;
  start_datetime?: string;
  end_datetime?: string;
  event_duration_hour?: number;
  event_duration_minutes?: number;
  event_duration_days?: number;
}

/** The event's path, as the tool's own request builds it (each id one encoded segment). */
const EVENT_PATH = '/calendar/v3/calendars/{calendar_id}/events/{event_id}';

/** An `EventDateTime`'s field, when it is a string. */
function timeField(time: unknown, field: 'date' | 'dateTime'): string | undefined {
  const value = typeof time === 'object' && time !== null ? (time as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export async function calendarEventLength<I extends CalendarEventLengthInput>(input: I, io: PrecheckIO): Promise<I> {
  const start = input.start_datetime;
  if (start === undefined || input.end_datetime !== undefined || input.event_duration_hour !== undefined || input.event_duration_minutes !== undefined) return input;
  if (isDateOnly(start) && input.event_duration_days !== undefined) return input;
  // Never cached: the length is the event's as it is now.
  const event = (await io.get(buildPath(EVENT_PATH, { calendar_id: input.calendar_id, event_id: input.event_id }))) as Record<string, unknown>;
  if (isDateOnly(start)) {
    const firstDay = timeField(event.start, 'date');
    const endDay = timeField(event.end, 'date');
    if (firstDay === undefined || endDay === undefined) return input;
    return { ...input, event_duration_days: Math.max(1, daysBetween(firstDay, endDay)) };
  }
  const oldStart = timeField(event.start, 'dateTime');
  const oldEnd = timeField(event.end, 'dateTime');
  if (oldStart === undefined || oldEnd === undefined) {
    const days = timeField(event.start, 'date');
    const what =
      days === undefined
        ? 'event_id has no start and end time in Google\'s copy of it'
        : `event_id is an all-day event (start.date ${days}, end.date ${timeField(event.end, 'date') ?? 'none'}, the end day not included)`;
    const message = `${what}; moved to a time it needs its new end: give end_datetime or event_duration_hour/event_duration_minutes with start_datetime`;
    throw violationError('invalid_input', `Invalid input: ${message}`, { pointer: '/end_datetime', message, keyword: 'event_length' });
  }
  return { ...input, end_datetime: laterInOffsetOf(start, Date.parse(oldEnd) - Date.parse(oldStart)) };
}
