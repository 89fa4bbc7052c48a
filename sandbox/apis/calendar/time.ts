/**
 * Time arithmetic for the Calendar fake: strict RFC 3339 parsing, IANA time zones through `Intl`, and wall-clock
 * conversions so recurrences keep their local time across DST changes.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Wall-clock fields, months 1-12. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface ParsedDateTime {
  local: LocalDateTime;
  /** Offset in minutes east of UTC, or undefined when the string carries none. */
  offsetMinutes?: number;
}

/** Parses an RFC 3339 date-time; the offset may be absent (Calendar then needs a `timeZone`). */
export function parseDateTime(value: string): ParsedDateTime | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const local = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
  };
  if (!validLocal(local)) return undefined;
  const off = m[8];
  if (off === undefined) return { local };
  if (off === 'Z' || off === 'z') return { local, offsetMinutes: 0 };
  const sign = off.startsWith('-') ? -1 : 1;
  return { local, offsetMinutes: sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6))) };
}

/** Parses an RFC 3339 timestamp that must carry an offset (what `timeMin`/`timeMax`/`updatedMin` take). */
export function parseInstant(value: string): number | undefined {
  const p = parseDateTime(value);
  if (!p || p.offsetMinutes === undefined) return undefined;
  return localToEpoch(p.local) - p.offsetMinutes * 60_000;
}

/** Parses `YYYY-MM-DD`. */
export function parseDate(value: string): LocalDateTime | undefined {
  const m = DATE_ONLY.exec(value);
  if (!m) return undefined;
  const local = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0 };
  return validLocal(local) ? local : undefined;
}

function validLocal(l: LocalDateTime): boolean {
  const d = new Date(Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second));
  return (
    d.getUTCFullYear() === l.year &&
    d.getUTCMonth() === l.month - 1 &&
    d.getUTCDate() === l.day &&
    l.hour < 24 &&
    l.minute < 60 &&
    l.second < 60
  );
}

/** The wall-clock fields read as if they were UTC. */
export function localToEpoch(l: LocalDateTime): number {
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
}

export function epochToLocal(ms: number): LocalDateTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/**
 * A memo of immutable formatters per IANA zone name (a finite set: an unknown name throws before anything is kept),
 * the one module-level Map the module-state test allows: building one (ICU loads the zone's rules) costs far more
 * than using one, and a recurring event's expansion asks for one per occurrence.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for an IANA zone name the runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock time of an instant in a zone. */
export function utcToZoned(ms: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in minutes. */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const wall = localToEpoch(utcToZoned(Math.floor(ms / 1000) * 1000, timeZone));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time denotes in a zone. Two passes settle the offset; a time skipped by a DST jump
 * lands after the jump, like most calendars do.
 */
export function zonedToUtc(local: LocalDateTime, timeZone: string): number {
  const asUtc = localToEpoch(local);
  let guess = asUtc - zoneOffsetMinutes(asUtc, timeZone) * 60_000;
  guess = asUtc - zoneOffsetMinutes(guess, timeZone) * 60_000;
  return guess;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

export function formatDate(l: LocalDateTime): string {
  return `${pad(l.year, 4)}-${pad(l.month)}-${pad(l.day)}`;
}

/** RFC 3339 in the zone's offset at that instant (`Z` for UTC), seconds precision, as Calendar writes it. */
export function formatInZone(ms: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(ms, timeZone);
  const l = epochToLocal(ms + offset * 60_000);
  const time = `${formatDate(l)}T${pad(l.hour)}:${pad(l.minute)}:${pad(l.second)}`;
  if (offset === 0) return `${time}Z`;
  const abs = Math.abs(offset);
  return `${time}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2024-01-15T10:00:00.000Z`, how Calendar writes `created`/`updated`. */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

/** Adds whole days to a date's wall-clock fields. */
export function addDays(l: LocalDateTime, days: number): LocalDateTime {
  const ms = localToEpoch(l) + days * 86_400_000;
  return epochToLocal(ms);
}
