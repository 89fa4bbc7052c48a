/**
 * The Calendar fake's state: per user, the calendar list and each calendar's events, with a change counter that
 * sync tokens point into. Deleted events stay (as `status: "cancelled"`) so sync and `showDeleted` can report them.
 */
import { createHash } from 'node:crypto';
import { GoogleApiError } from '../google-common/errors.js';
import { base32hexId } from '../google-common/ids.js';

export type AccessRole = 'freeBusyReader' | 'reader' | 'writer' | 'owner';
export const ACCESS_ROLES: readonly AccessRole[] = ['freeBusyReader', 'reader', 'writer', 'owner'];

export interface CalendarRecord {
  id: string;
  summary: string;
  description?: string;
  timeZone: string;
  accessRole: AccessRole;
  primary: boolean;
  hidden: boolean;
  /** Removed from the user's list (calendarList.delete); still visible to `showDeleted` and sync. */
  deleted: boolean;
  colorId: string;
  backgroundColor: string;
  foregroundColor: string;
  changeSeq: number;
  updatedMs: number;
}

/** An event as stored: the API resource plus what listing needs. */
export interface StoredEvent {
  resource: Record<string, unknown>;
  changeSeq: number;
  updatedMs: number;
}

export interface SyncTokenRecord {
  /** `calendarList` or `events:{calendarId}`: a token only works where it was issued. */
  scope: string;
  seq: number;
  issuedMs: number;
}

export class CalendarUserState {
  readonly calendars = new Map<string, CalendarRecord>();
  readonly events = new Map<string, Map<string, StoredEvent>>();
  readonly syncTokens = new Map<string, SyncTokenRecord>();
  private seq = 0;

  constructor(readonly user: string) {}

  /** The next change number; every write stamps its record with one. */
  nextSeq(): number {
    return ++this.seq;
  }

  get currentSeq(): number {
    return this.seq;
  }

  addCalendar(record: Omit<CalendarRecord, 'changeSeq'>): CalendarRecord {
    const full = { ...record, changeSeq: this.nextSeq() };
    this.calendars.set(full.id, full);
    this.events.set(full.id, new Map());
    return full;
  }

  /** Resolves `primary` and refuses unknown calendars with Calendar's 404. */
  calendar(calendarId: string): CalendarRecord {
    const id = calendarId === 'primary' ? this.user : calendarId;
    const cal = this.calendars.get(id);
    if (!cal) throw new GoogleApiError(404, 'Not Found', { reason: 'notFound' });
    return cal;
  }

  eventsOf(calendarId: string): Map<string, StoredEvent> {
    let m = this.events.get(calendarId);
    if (!m) {
      m = new Map();
      this.events.set(calendarId, m);
    }
    return m;
  }
}

/** Deterministic per-user ids for the seeded secondary calendars, so tests and demos can name them. */
export function seededCalendarId(user: string, name: string): string {
  const hash = createHash('sha256').update(`${user}:${name}`).digest('hex').slice(0, 24);
  return `c_${hash}@group.calendar.google.com`;
}

/** The holiday calendar every seeded user is subscribed to (read-only), like Google's regional holidays. */
export const HOLIDAY_CALENDAR_ID = 'en.usa#holiday@group.v.calendar.google.com';

/**
 * A user's sample data: the primary calendar (id = the e-mail, owner), a shared team calendar (writer), the
 * holiday calendar (reader) and a hidden archive calendar (owner), plus one upcoming event on the primary calendar
 * so a first list has something to show.
 */
export function seedCalendarUser(user: string, now: number): CalendarUserState {
  const state = new CalendarUserState(user);
  const base = { hidden: false, deleted: false, updatedMs: now, primary: false };
  state.addCalendar({
    ...base,
    id: user,
    summary: user,
    timeZone: 'UTC',
    accessRole: 'owner',
    primary: true,
    colorId: '14',
    backgroundColor: '#9fe1e7',
    foregroundColor: '#000000',
  });
  state.addCalendar({
    ...base,
    id: seededCalendarId(user, 'team'),
    summary: 'Team',
    description: 'Shared team calendar',
    timeZone: 'Europe/Paris',
    accessRole: 'writer',
    colorId: '7',
    backgroundColor: '#42d692',
    foregroundColor: '#000000',
  });
  state.addCalendar({
    ...base,
    id: HOLIDAY_CALENDAR_ID,
    summary: 'Holidays in United States',
    description: 'Holidays and Observances in United States',
    timeZone: 'America/New_York',
    accessRole: 'reader',
    colorId: '8',
    backgroundColor: '#16a765',
    foregroundColor: '#000000',
  });
  state.addCalendar({
    ...base,
    id: seededCalendarId(user, 'archive'),
    summary: 'Archive',
    timeZone: 'UTC',
    accessRole: 'owner',
    hidden: true,
    colorId: '1',
    backgroundColor: '#ac725e',
    foregroundColor: '#ffffff',
  });
  // One event tomorrow 09:00-09:30 UTC on the primary calendar.
  const day = new Date(now + 86_400_000).toISOString().slice(0, 10);
  const id = base32hexId();
  const seq = state.nextSeq();
  state.eventsOf(user).set(id, {
    changeSeq: seq,
    updatedMs: now,
    resource: {
      kind: 'calendar#event',
      etag: etagFor(now, seq),
      id,
      status: 'confirmed',
      htmlLink: eventHtmlLink(id, user),
      created: new Date(now).toISOString(),
      updated: new Date(now).toISOString(),
      summary: 'Welcome to the sandbox',
      description: 'A sample event created with your sandbox account.',
      creator: { email: user, self: true },
      organizer: { email: user, self: true },
      start: { dateTime: `${day}T09:00:00Z`, timeZone: 'UTC' },
      end: { dateTime: `${day}T09:30:00Z`, timeZone: 'UTC' },
      iCalUID: `${id}@google.com`,
      sequence: 0,
      reminders: { useDefault: true },
      eventType: 'default',
    },
  });
  return state;
}

/** `https://www.google.com/calendar/event?eid=...`: base64 of "eventId calendarId", like Google's links. */
export function eventHtmlLink(eventId: string, calendarId: string): string {
  const eid = Buffer.from(`${eventId} ${calendarId}`).toString('base64url');
  return `https://www.google.com/calendar/event?eid=${eid}`;
}

/** An etag like Calendar's: a quoted decimal that changes on every write. */
export function etagFor(updatedMs: number, seq: number): string {
  return `"${updatedMs}${String(seq % 1000).padStart(3, '0')}"`;
}
