/**
 * An event's `start`/`end` (`EventDateTime`): validation with Calendar's messages, and the instants they denote.
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 */
import { GoogleApiError } from '../google-common/errors.js';
import { isRecord } from '../google-common/request.js';
import { formatInZone, isTimeZone, parseDate, parseDateTime, parseInstant, utcToZoned, zonedToUtc, type LocalDateTime } from './time.js';

export interface ResolvedTime {
  allDay: boolean;
  /** The instant (all-day: midnight in the zone). */
  ms: number;
  /** Wall-clock start in `zone`. */
  local: LocalDateTime;
  /** The zone the time is read in: its own `timeZone`, else the calendar's. */
  zone: string;
  /** The `timeZone` given on the time itself, if any. */
  explicitZone?: string;
}

function bad(message: string, reason = 'invalid'): GoogleApiError {
  return new GoogleApiError(400, message, { reason });
}

/** Checks one `start`/`end` object and resolves it; `which` is `start` or `end` for messages. */
export function resolveTime(value: unknown, which: 'start' | 'end', calendarZone: string): ResolvedTime {
  if (!isRecord(value)) throw bad(`Missing ${which} time.`, 'required');
  const { date, dateTime, timeZone } = value;
  if (timeZone !== undefined && (typeof timeZone !== 'string' || !isTimeZone(timeZone))) {
    throw bad(`Invalid time zone definition for ${which} time.`);
  }
  const zone = (timeZone as string | undefined) ?? calendarZone;
  const base = timeZone === undefined ? {} : { explicitZone: timeZone as string };
  if (date !== undefined && date !== null && dateTime !== undefined && dateTime !== null) {
    throw bad(`Invalid ${which} time.`);
  }
  if (typeof date === 'string') {
    const local = parseDate(date);
    if (!local) throw bad(`Invalid ${which} time.`);
    return { allDay: true, ms: zonedToUtc(local, zone), local, zone, ...base };
  }
  if (typeof dateTime === 'string') {
    const parsed = parseDateTime(dateTime);
    if (!parsed) throw bad(`Invalid ${which} time.`);
    if (parsed.offsetMinutes === undefined) {
      if (timeZone === undefined) throw bad(`Missing time zone definition for ${which} time.`);
      const ms = zonedToUtc(parsed.local, zone);
      return { allDay: false, ms, local: parsed.local, zone, ...base };
    }
    const ms = Date.UTC(
      parsed.local.year,
      parsed.local.month - 1,
      parsed.local.day,
      parsed.local.hour,
      parsed.local.minute,
      parsed.local.second,
    ) - parsed.offsetMinutes * 60_000;
    return { allDay: false, ms, local: utcToZoned(ms, zone), zone, ...base };
  }
  throw bad(`Missing ${which} time.`, 'required');
}

/** The `start`/`end` object as Calendar returns it: a date-time rewritten in the zone's offset. */
export function renderTime(t: ResolvedTime, original: Record<string, unknown>): Record<string, unknown> {
  if (t.allDay) return { date: original.date };
  const out: Record<string, unknown> = { dateTime: formatInZone(t.ms, t.zone) };
  if (t.explicitZone) out.timeZone = t.explicitZone;
  return out;
}

/**
 * The event as answered with the `timeZone` query parameter of events.get and events.list ("Time zone used in the
 * response"): each `dateTime` (start, end, originalStartTime) written with that zone's offset at its instant. The
 * event's own `timeZone` fields stay; an all-day event's dates are not times and stay as they are.
 * @see https://developers.google.com/calendar/api/v3/reference/events/get
 */
export function inResponseZone(event: Record<string, unknown>, zone: string): Record<string, unknown> {
  const out = { ...event };
  for (const key of ['start', 'end', 'originalStartTime'] as const) {
    const time = out[key];
    if (!isRecord(time) || typeof time.dateTime !== 'string') continue;
    const ms = parseInstant(time.dateTime);
    if (ms !== undefined) out[key] = { ...time, dateTime: formatInZone(ms, zone) };
  }
  return out;
}
