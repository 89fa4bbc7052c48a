/**
 * RFC 5545 recurrence for the Calendar fake: parses the `recurrence` lines of an event (RRULE, EXDATE, RDATE) and
 * expands them into occurrences in the event's wall-clock time. Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY with
 * INTERVAL, COUNT, UNTIL, BYDAY (WEEKLY; MONTHLY with ordinals like `2TU`/`-1FR`) and BYMONTHDAY (MONTHLY).
 * @see https://datatracker.ietf.org/doc/html/rfc5545#section-3.3.10
 */
import { addDays, epochToLocal, formatDate, localToEpoch, zonedToUtc, type LocalDateTime } from './time.js';

type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

interface ByDay {
  weekday: number;
  /** Ordinal inside the month (MONTHLY), e.g. 2 or -1; undefined for every such weekday. */
  ordinal?: number;
}

export interface RRule {
  freq: Freq;
  interval: number;
  count?: number;
  /** Inclusive end: an instant (date-time UNTIL) or a date (date UNTIL). */
  until?: { ms: number } | { date: string };
  byDay?: ByDay[];
  byMonthDay?: number[];
}

/** A date or date-time named by EXDATE/RDATE: compared as an instant, or as a date for all-day events. */
type Stamp = { ms: number } | { date: string };

export interface Recurrence {
  rules: RRule[];
  exdates: Stamp[];
  rdates: Stamp[];
}

export interface Occurrence {
  /** Wall-clock start. */
  local: LocalDateTime;
  /** The start instant (for an all-day event: midnight in the zone). */
  ms: number;
}

/** Parses an event's `recurrence` array; returns an error message when a line is not understood. */
export function parseRecurrence(lines: readonly unknown[], timeZone: string): Recurrence | string {
  const out: Recurrence = { rules: [], exdates: [], rdates: [] };
  for (const line of lines) {
    if (typeof line !== 'string') return 'Invalid recurrence rule.';
    const colon = line.indexOf(':');
    if (colon < 0) return 'Invalid recurrence rule.';
    const head = line.slice(0, colon).toUpperCase();
    const value = line.slice(colon + 1);
    const [name, ...params] = head.split(';');
    if (name === 'RRULE') {
      const rule = parseRule(value);
      if (typeof rule === 'string') return rule;
      out.rules.push(rule);
    } else if (name === 'EXDATE' || name === 'RDATE') {
      const tzParam = params.find((p) => p.startsWith('TZID='));
      const tz = tzParam ? line.slice(0, colon).split(';').find((p) => /^tzid=/i.test(p))!.slice(5) : timeZone;
      for (const v of value.split(',')) {
        const stamp = parseStamp(v.trim(), tz);
        if (!stamp) return 'Invalid recurrence rule.';
        (name === 'EXDATE' ? out.exdates : out.rdates).push(stamp);
      }
    } else if (name !== 'EXRULE') {
      return 'Invalid recurrence rule.';
    }
  }
  return out;
}

function parseRule(value: string): RRule | string {
  const parts = new Map<string, string>();
  for (const kv of value.split(';')) {
    const [k, v] = kv.split('=');
    if (!k || v === undefined) return 'Invalid recurrence rule.';
    parts.set(k.toUpperCase(), v.toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY' && freq !== 'YEARLY') return 'Invalid recurrence rule.';
  const rule: RRule = { freq, interval: 1 };
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^\d+$/.test(interval) || Number(interval) < 1) return 'Invalid recurrence rule.';
    rule.interval = Number(interval);
  }
  const count = parts.get('COUNT');
  const until = parts.get('UNTIL');
  if (count !== undefined && until !== undefined) return 'Invalid recurrence rule.';
  if (count !== undefined) {
    if (!/^\d+$/.test(count) || Number(count) < 1) return 'Invalid recurrence rule.';
    rule.count = Number(count);
  }
  if (until !== undefined) {
    const stamp = parseStamp(until, 'UTC');
    if (!stamp) return 'Invalid recurrence rule.';
    rule.until = stamp;
  }
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined) {
    rule.byDay = [];
    for (const d of byDay.split(',')) {
      const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(d);
      if (!m) return 'Invalid recurrence rule.';
      const entry: ByDay = { weekday: WEEKDAYS.indexOf(m[2] as string) };
      if (m[1] !== undefined) entry.ordinal = Number(m[1]);
      rule.byDay.push(entry);
    }
  }
  const byMonthDay = parts.get('BYMONTHDAY');
  if (byMonthDay !== undefined) {
    rule.byMonthDay = byMonthDay.split(',').map(Number);
    if (rule.byMonthDay.some((n) => !Number.isInteger(n) || n === 0 || n < -31 || n > 31)) return 'Invalid recurrence rule.';
  }
  return rule;
}

/** `20240115`, `20240115T100000Z` (UTC) or `20240115T100000` (in `timeZone`). */
function parseStamp(v: string, timeZone: string): Stamp | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i.exec(v);
  if (!m) return undefined;
  const local: LocalDateTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  if (m[4] === undefined) return { date: formatDate(local) };
  return { ms: m[7] ? localToEpoch(local) : zonedToUtc(local, timeZone) };
}

export interface ExpandOptions {
  start: LocalDateTime;
  allDay: boolean;
  timeZone: string;
  /** Stop before occurrences starting at or after this instant. */
  endMs: number;
  /** Never produce more than this many occurrences (open-ended rules). */
  max: number;
}

/** Expands a recurrence into its occurrences, sorted by start, first occurrence included. */
export function expand(rec: Recurrence, opts: ExpandOptions): Occurrence[] {
  const byKey = new Map<number, Occurrence>();
  const toOcc = (local: LocalDateTime): Occurrence => ({
    local,
    ms: opts.allDay ? zonedToUtc({ ...local, hour: 0, minute: 0, second: 0 }, opts.timeZone) : zonedToUtc(local, opts.timeZone),
  });
  const first = toOcc(opts.start);
  byKey.set(first.ms, first);
  for (const rule of rec.rules) {
    for (const occ of expandRule(rule, opts, toOcc)) byKey.set(occ.ms, occ);
  }
  for (const r of rec.rdates) {
    const local = 'ms' in r ? epochToLocal(r.ms) : { ...opts.start, ...dateFields(r.date) };
    const occ = 'ms' in r ? { local: epochToLocal(r.ms), ms: r.ms } : toOcc(local);
    if (occ.ms < opts.endMs) byKey.set(occ.ms, occ);
  }
  const excluded = (o: Occurrence): boolean =>
    rec.exdates.some((x) => ('ms' in x ? x.ms === o.ms : x.date === formatDate(o.local)));
  return [...byKey.values()]
    .filter((o) => !excluded(o))
    .sort((a, b) => a.ms - b.ms)
    .slice(0, opts.max);
}

function dateFields(date: string): Pick<LocalDateTime, 'year' | 'month' | 'day'> {
  const [y, m, d] = date.split('-').map(Number);
  return { year: y as number, month: m as number, day: d as number };
}

function* expandRule(rule: RRule, opts: ExpandOptions, toOcc: (l: LocalDateTime) => Occurrence): Generator<Occurrence> {
  let produced = 0;
  const startKey = localToEpoch(opts.start);
  // Periods are bounded so an open rule whose candidates all fall in skipped dates cannot loop forever.
  for (let period = 0; period < 50_000; period++) {
    const candidates = periodCandidates(rule, opts.start, period).filter((l) => localToEpoch(l) >= startKey);
    for (const local of candidates) {
      const occ = toOcc(local);
      if (rule.until) {
        const past = 'ms' in rule.until ? occ.ms > rule.until.ms : formatDate(local) > rule.until.date;
        if (past) return;
      }
      if (occ.ms >= opts.endMs) return;
      yield occ;
      produced++;
      if (rule.count !== undefined && produced >= rule.count) return;
      if (produced >= opts.max) return;
    }
  }
}

/** The wall-clock starts a rule generates in its `period`-th interval, in order. */
function periodCandidates(rule: RRule, start: LocalDateTime, period: number): LocalDateTime[] {
  const step = period * rule.interval;
  const time = { hour: start.hour, minute: start.minute, second: start.second };
  switch (rule.freq) {
    case 'DAILY':
      return [addDays(start, step)];
    case 'WEEKLY': {
      const weekday = new Date(localToEpoch(start)).getUTCDay();
      // Weeks start on Monday (RFC 5545's default WKST).
      const monday = addDays(start, -((weekday + 6) % 7) + step * 7);
      const days = rule.byDay?.map((d) => d.weekday) ?? [weekday];
      return [...new Set(days)]
        .map((d) => (d + 6) % 7)
        .sort((a, b) => a - b)
        .map((offset) => ({ ...addDays(monday, offset), ...time }));
    }
    case 'MONTHLY': {
      const monthIndex = start.year * 12 + (start.month - 1) + step;
      const year = Math.floor(monthIndex / 12);
      const month = (monthIndex % 12) + 1;
      const days = monthDays(rule, start, year, month);
      return days.map((day) => ({ year, month, day, ...time }));
    }
    case 'YEARLY': {
      const year = start.year + step;
      const len = daysInMonth(year, start.month);
      return start.day <= len ? [{ year, month: start.month, day: start.day, ...time }] : [];
    }
  }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function monthDays(rule: RRule, start: LocalDateTime, year: number, month: number): number[] {
  const len = daysInMonth(year, month);
  const days = new Set<number>();
  if (rule.byDay) {
    for (const bd of rule.byDay) {
      const matches: number[] = [];
      for (let d = 1; d <= len; d++) if (new Date(Date.UTC(year, month - 1, d)).getUTCDay() === bd.weekday) matches.push(d);
      if (bd.ordinal === undefined) matches.forEach((d) => days.add(d));
      else {
        const pick = bd.ordinal > 0 ? matches[bd.ordinal - 1] : matches[matches.length + bd.ordinal];
        if (pick !== undefined) days.add(pick);
      }
    }
  } else {
    for (const md of rule.byMonthDay ?? [start.day]) {
      const d = md > 0 ? md : len + md + 1;
      if (d >= 1 && d <= len) days.add(d);
    }
  }
  return [...days].sort((a, b) => a - b);
}
