import { beforeEach, describe, expect, it } from 'vitest';
import { createCalendarApi } from '../../sandbox/apis/calendar/index.js';
import { HOLIDAY_CALENDAR_ID, seededCalendarId } from '../../sandbox/apis/calendar/calendar-store.js';
import type { ApiModule, ApiResponse } from '../../sandbox/types.js';

const USER = 'ada@example.com';
const NOW = Date.parse('2024-03-01T12:00:00Z');
type Body = Record<string, any>;

interface CallOptions {
  query?: Record<string, string | string[]>;
  body?: unknown;
  scopes?: string[];
  now?: number;
  user?: string;
}

function makeCall(api: ApiModule) {
  return async (method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse & { body: Body }> => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) for (const one of [v].flat()) query.append(k, one);
    const res = await api.handle({
      method,
      path,
      query,
      headers: {},
      body: opts.body,
      user: opts.user ?? USER,
      scopes: opts.scopes ?? ['https://www.googleapis.com/auth/calendar'],
      now: opts.now ?? NOW,
    });
    return res as ApiResponse & { body: Body };
  };
}

function expectCalendarError(res: ApiResponse & { body: Body }, status: number, reason: string, message?: string): void {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(status);
  expect(res.body.error.errors[0].reason).toBe(reason);
  expect(typeof res.body.error.errors[0].domain).toBe('string');
  expect(typeof res.body.error.status).toBe('string');
  if (message) {
    expect(res.body.error.message).toBe(message);
    expect(res.body.error.errors[0].message).toBe(message);
  }
}

const EVENTS = '/calendar/v3/calendars/primary/events';
const timed = (start: string, end: string, extra: Body = {}): Body => ({
  summary: 'Meeting',
  start: { dateTime: start },
  end: { dateTime: end },
  ...extra,
});

let api: ApiModule;
let call: ReturnType<typeof makeCall>;
beforeEach(() => {
  api = createCalendarApi();
  api.seedUser(USER, NOW);
  call = makeCall(api);
});

describe('calendarList', () => {
  it('lists the seeded calendars, primary first, hiding hidden ones unless asked', async () => {
    const res = await call('GET', '/calendar/v3/users/me/calendarList');
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('calendar#calendarList');
    const ids = res.body.items.map((i: Body) => i.id);
    expect(ids[0]).toBe(USER);
    expect(res.body.items[0]).toMatchObject({ kind: 'calendar#calendarListEntry', primary: true, accessRole: 'owner' });
    expect(ids).toContain(HOLIDAY_CALENDAR_ID);
    expect(ids).not.toContain(seededCalendarId(USER, 'archive'));
    expect(res.body.nextSyncToken).toEqual(expect.any(String));
    expect(res.body.nextPageToken).toBeUndefined();
    const hidden = await call('GET', '/calendar/v3/users/me/calendarList', { query: { showHidden: 'true' } });
    expect(hidden.body.items.map((i: Body) => i.id)).toContain(seededCalendarId(USER, 'archive'));
  });

  it('filters by minAccessRole and validates it', async () => {
    const res = await call('GET', '/calendar/v3/users/me/calendarList', { query: { minAccessRole: 'writer' } });
    expect(res.body.items.map((i: Body) => i.accessRole).sort()).toEqual(['owner', 'writer']);
    const bad = await call('GET', '/calendar/v3/users/me/calendarList', { query: { minAccessRole: 'boss' } });
    expect(bad.status).toBe(400);
  });

  it('caps maxResults at 250 and pages with tokens until a sync token', async () => {
    const tooMany = await call('GET', '/calendar/v3/users/me/calendarList', { query: { maxResults: '251' } });
    expectCalendarError(tooMany, 400, 'invalidParameter');
    expect(tooMany.body.error.errors[0]).toMatchObject({ locationType: 'parameter', location: 'maxResults' });

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    let last: Body = {};
    do {
      const res = await call('GET', '/calendar/v3/users/me/calendarList', {
        query: { maxResults: '1', ...(token ? { pageToken: token } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: Body) => i.id));
      token = res.body.nextPageToken;
      if (token) expect(res.body.nextSyncToken).toBeUndefined();
      last = res.body;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(3);
    expect(last.nextSyncToken).toEqual(expect.any(String));
  });

  it('syncs incrementally: only changed entries, deleted ones included; rules on sync tokens', async () => {
    const first = await call('GET', '/calendar/v3/users/me/calendarList');
    const team = seededCalendarId(USER, 'team');
    const del = await call('DELETE', `/calendar/v3/users/me/calendarList/${encodeURIComponent(team)}`);
    expect(del.status).toBe(204);
    const sync = await call('GET', '/calendar/v3/users/me/calendarList', { query: { syncToken: first.body.nextSyncToken } });
    expect(sync.status).toBe(200);
    expect(sync.body.items).toHaveLength(1);
    expect(sync.body.items[0]).toMatchObject({ id: team, deleted: true });

    const withRole = await call('GET', '/calendar/v3/users/me/calendarList', {
      query: { syncToken: first.body.nextSyncToken, minAccessRole: 'reader' },
    });
    expectCalendarError(withRole, 400, 'invalid');
    // A sync always reports deleted and hidden entries: Google refuses showDeleted or showHidden set to false with it.
    for (const flag of ['showDeleted', 'showHidden']) {
      const refused = await call('GET', '/calendar/v3/users/me/calendarList', { query: { syncToken: first.body.nextSyncToken, [flag]: 'false' } });
      expectCalendarError(refused, 400, 'invalid');
      expect(refused.body.error.errors[0].location).toBe(flag);
      const allowed = await call('GET', '/calendar/v3/users/me/calendarList', { query: { syncToken: first.body.nextSyncToken, [flag]: 'true' } });
      expect(allowed.status, flag).toBe(200);
    }
    const unknown = await call('GET', '/calendar/v3/users/me/calendarList', { query: { syncToken: 'nope' } });
    expectCalendarError(unknown, 410, 'fullSyncRequired');
    const stale = await call('GET', '/calendar/v3/users/me/calendarList', {
      query: { syncToken: sync.body.nextSyncToken },
      now: NOW + 8 * 86_400_000,
    });
    expectCalendarError(stale, 410, 'fullSyncRequired');

    const list = await call('GET', '/calendar/v3/users/me/calendarList');
    expect(list.body.items.map((i: Body) => i.id)).not.toContain(team);
    const withDeleted = await call('GET', '/calendar/v3/users/me/calendarList', { query: { showDeleted: 'true' } });
    expect(withDeleted.body.items.map((i: Body) => i.id)).toContain(team);
    const primary = await call('DELETE', `/calendar/v3/users/me/calendarList/${encodeURIComponent(USER)}`);
    expect(primary.status).toBe(400);
  });
});

describe('events.insert', () => {
  it('returns the full Event resource and resolves primary to the user e-mail', async () => {
    const res = await call('POST', EVENTS, {
      body: timed('2024-03-05T10:00:00+01:00', '2024-03-05T11:00:00+01:00', {
        description: 'Quarterly review',
        attendees: [{ email: 'bob@example.com' }, { email: USER }],
      }),
    });
    expect(res.status).toBe(200);
    const ev = res.body;
    expect(ev).toMatchObject({
      kind: 'calendar#event',
      status: 'confirmed',
      summary: 'Meeting',
      creator: { email: USER, self: true },
      organizer: { email: USER, self: true },
      sequence: 0,
      eventType: 'default',
      reminders: { useDefault: true },
      start: { dateTime: '2024-03-05T09:00:00Z' },
      end: { dateTime: '2024-03-05T10:00:00Z' },
    });
    expect(ev.id).toMatch(/^[a-v0-9]{5,}$/);
    expect(ev.etag).toMatch(/^"\d+"$/);
    expect(ev.htmlLink).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);
    expect(ev.iCalUID).toBe(`${ev.id}@google.com`);
    expect(ev.created).toBe(new Date(NOW).toISOString());
    expect(ev.updated).toBe(new Date(NOW).toISOString());
    expect(ev.attendees).toEqual([
      { email: 'bob@example.com', responseStatus: 'needsAction' },
      { email: USER, organizer: true, self: true, responseStatus: 'accepted' },
    ]);
    const got = await call('GET', `/calendar/v3/calendars/${encodeURIComponent(USER)}/events/${ev.id}`);
    expect(got.body).toEqual(ev);
  });

  it('keeps a date-time in its explicit time zone', async () => {
    const res = await call('POST', EVENTS, {
      body: {
        start: { dateTime: '2024-07-01T09:00:00', timeZone: 'America/New_York' },
        end: { dateTime: '2024-07-01T10:00:00', timeZone: 'America/New_York' },
      },
    });
    expect(res.body.start).toEqual({ dateTime: '2024-07-01T09:00:00-04:00', timeZone: 'America/New_York' });
  });

  it.each([
    ['missing end', { start: { dateTime: '2024-03-05T10:00:00Z' } }, 'required', 'Missing end time.'],
    ['missing start', { end: { dateTime: '2024-03-05T10:00:00Z' } }, 'required', 'Missing start time.'],
    ['no offset and no zone', timed('2024-03-05T10:00:00', '2024-03-05T11:00:00'), 'invalid', 'Missing time zone definition for start time.'],
    ['unknown zone', { start: { dateTime: '2024-03-05T10:00:00Z', timeZone: 'Mars/Olympus' }, end: { dateTime: '2024-03-05T11:00:00Z' } }, 'invalid', 'Invalid time zone definition for start time.'],
    ['recurrence without time zone', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] }), 'invalid', 'Missing time zone definition for start time.'],
    ['bad recurrence', { start: { dateTime: '2024-03-05T10:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2024-03-05T11:00:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=HOURLYISH'] }, 'invalid', 'Invalid recurrence rule.'],
    ['end before start', timed('2024-03-05T11:00:00Z', '2024-03-05T10:00:00Z'), 'timeRangeEmpty', 'The specified time range is empty.'],
    ['a timed event of zero length', timed('2024-03-05T10:00:00Z', '2024-03-05T10:00:00Z'), 'timeRangeEmpty', 'The specified time range is empty.'],
    ['the same instant in two offsets', timed('2024-03-05T11:00:00+01:00', '2024-03-05T10:00:00Z'), 'timeRangeEmpty', 'The specified time range is empty.'],
    ['an all-day end date before the start date', { start: { date: '2024-03-05' }, end: { date: '2024-03-04' } }, 'timeRangeEmpty', 'The specified time range is empty.'],
    ['date mixed with dateTime', { start: { date: '2024-03-05' }, end: { dateTime: '2024-03-05T10:00:00Z' } }, 'invalid', undefined],
    ['bad eventType', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { eventType: 'party' }), 'invalid', undefined],
    ['fromGmail eventType', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { eventType: 'fromGmail' }), 'invalid', undefined],
    ['bad visibility', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { visibility: 'secret' }), 'invalid', undefined],
    ['bad transparency', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { transparency: 'free' }), 'invalid', undefined],
    ['bad attendee', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { attendees: [{ displayName: 'x' }] }), 'invalid', 'Invalid attendee email.'],
    // A value that is no string is quoted as JSON, never [object Object].
    ['transparency as an object', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { transparency: { busy: true } }), 'invalid', 'Invalid transparency value: {"busy":true}'],
    ['responseStatus as an object', timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { attendees: [{ email: 'bo@example.com', responseStatus: { yes: 1 } }] }), 'invalid', 'Invalid responseStatus value: {"yes":1}'],
  ])('refuses %s with 400', async (_name, body, reason, message) => {
    const res = await call('POST', EVENTS, { body });
    expectCalendarError(res, 400, reason, message);
  });

  it('accepts all-day events (one ending on its start date too, as Google does), enum values', async () => {
    const allDay = await call('POST', EVENTS, { body: { start: { date: '2024-03-05' }, end: { date: '2024-03-06' }, transparency: 'transparent', visibility: 'private', eventType: 'default' } });
    expect(allDay.status).toBe(200);
    expect(allDay.body).toMatchObject({ start: { date: '2024-03-05' }, transparency: 'transparent', visibility: 'private', eventType: 'default' });
    const ooo = await call('POST', EVENTS, { body: timed('2024-03-05T10:00:00Z', '2024-03-05T18:00:00Z', { eventType: 'outOfOffice', outOfOfficeProperties: {} }) });
    expect(ooo.status).toBe(200);
    expect(ooo.body).toMatchObject({ eventType: 'outOfOffice', outOfOfficeProperties: {} });
    const sameDay = await call('POST', EVENTS, { body: { start: { date: '2024-03-05' }, end: { date: '2024-03-05' } } });
    expect(sameDay.status).toBe(200);
    expect(sameDay.body).toMatchObject({ start: { date: '2024-03-05' }, end: { date: '2024-03-05' } });
  });

  it('creates a Meet conference only with conferenceDataVersion=1', async () => {
    const conferenceData = { createRequest: { requestId: 'req-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } };
    const body = timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { conferenceData });
    const ignored = await call('POST', EVENTS, { body });
    expect(ignored.status).toBe(200);
    expect(ignored.body.conferenceData).toBeUndefined();
    expect(ignored.body.hangoutLink).toBeUndefined();

    const res = await call('POST', EVENTS, { body, query: { conferenceDataVersion: '1' } });
    expect(res.status).toBe(200);
    const cd = res.body.conferenceData;
    expect(cd.createRequest.status.statusCode).toBe('success');
    expect(cd.createRequest.requestId).toBe('req-1');
    expect(cd.conferenceId).toMatch(/^[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(cd.entryPoints[0]).toMatchObject({ entryPointType: 'video', uri: `https://meet.google.com/${cd.conferenceId}` });
    expect(res.body.hangoutLink).toBe(`https://meet.google.com/${cd.conferenceId}`);

    const badVersion = await call('POST', EVENTS, { body, query: { conferenceDataVersion: '2' } });
    expectCalendarError(badVersion, 400, 'invalidParameter');
    const legacy = await call('POST', EVENTS, {
      body: { ...body, conferenceData: { createRequest: { requestId: 'r2', conferenceSolutionKey: { type: 'eventHangout' } } } },
      query: { conferenceDataVersion: '1' },
    });
    expectCalendarError(legacy, 400, 'invalid');
  });

  it('honours client ids: base32hex, 409 on duplicates', async () => {
    const body = timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', { id: 'abcdef12345' });
    expect((await call('POST', EVENTS, { body })).body.id).toBe('abcdef12345');
    expectCalendarError(await call('POST', EVENTS, { body }), 409, 'duplicate');
    expectCalendarError(await call('POST', EVENTS, { body: { ...body, id: 'UPPER_case' } }), 400, 'invalid');
  });

  it('answers 404 for unknown calendars and 403 on read-only calendars', async () => {
    const unknown = await call('POST', '/calendar/v3/calendars/nobody%40example.com/events', {
      body: timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z'),
    });
    expectCalendarError(unknown, 404, 'notFound', 'Not Found');
    const list = await call('GET', '/calendar/v3/calendars/nobody%40example.com/events');
    expectCalendarError(list, 404, 'notFound');
    const holiday = await call('POST', `/calendar/v3/calendars/${encodeURIComponent(HOLIDAY_CALENDAR_ID)}/events`, {
      body: timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z'),
    });
    expectCalendarError(holiday, 403, 'requiredAccessLevel');
  });

  it('refuses writes with a read-only scope (403 PERMISSION_DENIED)', async () => {
    const res = await call('POST', EVENTS, {
      body: timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z'),
      scopes: ['https://www.googleapis.com/auth/calendar.readonly'],
    });
    expectCalendarError(res, 403, 'insufficientPermissions');
    // Google words the top-level message and the legacy item differently.
    expect(res.body.error.message).toBe('Request had insufficient authentication scopes.');
    expect(res.body.error.errors[0].message).toBe('Insufficient Permission');
    expect(res.body.error.status).toBe('PERMISSION_DENIED');
    const read = await call('GET', EVENTS, { scopes: ['https://www.googleapis.com/auth/calendar.readonly'] });
    expect(read.status).toBe(200);
  });
});

describe('events.get / patch / delete', () => {
  async function insert(extra: Body = {}): Promise<Body> {
    const res = await call('POST', EVENTS, { body: timed('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', extra) });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('get answers 404 for an unknown event', async () => {
    expectCalendarError(await call('GET', `${EVENTS}/doesnotexist`), 404, 'notFound');
  });

  it('patch replaces supplied fields, arrays wholesale, and keeps the rest', async () => {
    const ev = await insert({ description: 'keep me', attendees: [{ email: 'a@example.com' }, { email: 'b@example.com' }] });
    const res = await call('PATCH', `${EVENTS}/${ev.id}`, {
      body: { summary: 'Renamed', attendees: [{ email: 'c@example.com' }] },
      now: NOW + 60_000,
    });
    expect(res.status).toBe(200);
    expect(res.body.summary).toBe('Renamed');
    expect(res.body.description).toBe('keep me');
    expect(res.body.attendees.map((a: Body) => a.email)).toEqual(['c@example.com']);
    expect(res.body.sequence).toBe(0);
    expect(res.body.updated).toBe(new Date(NOW + 60_000).toISOString());
    expect(res.body.created).toBe(ev.created);
    expect(res.body.etag).not.toBe(ev.etag);

    const moved = await call('PATCH', `${EVENTS}/${ev.id}`, {
      body: { start: { dateTime: '2024-03-05T12:00:00Z' }, end: { dateTime: '2024-03-05T13:00:00Z' } },
    });
    expect(moved.body.sequence).toBe(1);
    expect(moved.body.start).toEqual({ dateTime: '2024-03-05T12:00:00Z' });

    const cleared = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { description: null } });
    expect(cleared.body.description).toBeUndefined();

    const bad = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { end: { dateTime: '2024-03-05T09:00:00Z' } } });
    expectCalendarError(bad, 400, 'timeRangeEmpty');
    expect((await call('GET', `${EVENTS}/${ev.id}`)).body.end).toEqual({ dateTime: '2024-03-05T13:00:00Z' });
    expectCalendarError(await call('PATCH', `${EVENTS}/nope1`, { body: {} }), 404, 'notFound');
  });

  it('patch merges into start/end: an all-day event moved to a time must clear its date (and the reverse)', async () => {
    const created = await call('POST', EVENTS, { body: { summary: 'Offsite', start: { date: '2024-03-05' }, end: { date: '2024-03-06' } } });
    const id = created.body.id as string;
    const toTime = { start: { dateTime: '2024-03-05T10:00:00Z' }, end: { dateTime: '2024-03-05T11:00:00Z' } };
    // The stored `date` stays beside the new `dateTime`, and Google refuses a start that has both.
    expectCalendarError(await call('PATCH', `${EVENTS}/${id}`, { body: toTime }), 400, 'invalid');
    const moved = await call('PATCH', `${EVENTS}/${id}`, {
      body: { start: { ...toTime.start, date: null }, end: { ...toTime.end, date: null } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.start).toEqual({ dateTime: '2024-03-05T10:00:00Z' });

    const back = await call('PATCH', `${EVENTS}/${id}`, { body: { start: { date: '2024-03-07', dateTime: null }, end: { date: '2024-03-08', dateTime: null } } });
    expect(back.status).toBe(200);
    expect(back.body.start).toEqual({ date: '2024-03-07' });

    // A time zone set before stays when a patch moves only the time.
    const zoned = await insert({ start: { dateTime: '2024-03-05T10:00:00+01:00', timeZone: 'Europe/Paris' }, end: { dateTime: '2024-03-05T11:00:00+01:00', timeZone: 'Europe/Paris' } });
    const shifted = await call('PATCH', `${EVENTS}/${zoned.id}`, { body: { start: { dateTime: '2024-03-05T12:00:00+01:00' }, end: { dateTime: '2024-03-05T13:00:00+01:00' } } });
    expect(shifted.body.start.timeZone).toBe('Europe/Paris');
  });

  it("refuses to change an event's type after creation (the Event resource: it cannot be modified)", async () => {
    const ev = await insert();
    const changed = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { eventType: 'focusTime', focusTimeProperties: {} } });
    expectCalendarError(changed, 400, 'invalid');
    // Google's wording as clients see it ("Event type cannot be changed"); the reason code is not documented.
    expect(changed.body.error.message).toContain('Event type cannot be changed');
    expect((await call('PATCH', `${EVENTS}/${ev.id}`, { body: { eventType: 'default', summary: 'same type' } })).status).toBe(200);
  });

  it('status events: focus time and out of office need their properties, a time, opaque, the primary calendar', async () => {
    const slot = (extra: Body) => timed('2024-03-05T10:00:00Z', '2024-03-05T12:00:00Z', extra);
    for (const type of ['focusTime', 'outOfOffice'] as const) {
      const properties = `${type}Properties`;
      expectCalendarError(await call('POST', EVENTS, { body: slot({ eventType: type }) }), 400, 'required');
      const ok = await call('POST', EVENTS, { body: slot({ eventType: type, [properties]: {} }) });
      expect(ok.status).toBe(200);
      expect(ok.body.eventType).toBe(type);
      expectCalendarError(await call('POST', EVENTS, { body: slot({ eventType: type, [properties]: {}, transparency: 'transparent' }) }), 400, 'invalid');
      const allDay = { start: { date: '2024-03-05' }, end: { date: '2024-03-06' }, eventType: type, [properties]: {} };
      expectCalendarError(await call('POST', EVENTS, { body: allDay }), 400, 'invalid');
      const team = `/calendar/v3/calendars/${encodeURIComponent(seededCalendarId(USER, 'team'))}/events`;
      expectCalendarError(await call('POST', team, { body: slot({ eventType: type, [properties]: {} }) }), 400, 'invalid');
    }
    expectCalendarError(await call('POST', EVENTS, { body: slot({ eventType: 'workingLocation', visibility: 'public', transparency: 'transparent' }) }), 400, 'required');
    const office = slot({ eventType: 'workingLocation', visibility: 'public', transparency: 'transparent', workingLocationProperties: { type: 'homeOffice', homeOffice: {} } });
    expect((await call('POST', EVENTS, { body: office })).status).toBe(200);
  });

  it('patch adds a conference only with conferenceDataVersion=1', async () => {
    const ev = await insert();
    const conferenceData = { createRequest: { requestId: 'p-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } };
    const without = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { conferenceData } });
    expect(without.body.conferenceData).toBeUndefined();
    const withIt = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { conferenceData }, query: { conferenceDataVersion: '1' } });
    expect(withIt.body.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\//);
    const later = await call('PATCH', `${EVENTS}/${ev.id}`, { body: { summary: 'x' } });
    expect(later.body.hangoutLink).toBe(withIt.body.hangoutLink);
  });

  it('delete answers 204 with no body, then 410 deleted; get still shows it cancelled', async () => {
    const ev = await insert();
    const del = await call('DELETE', `${EVENTS}/${ev.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expectCalendarError(await call('DELETE', `${EVENTS}/${ev.id}`), 410, 'deleted');
    const got = await call('GET', `${EVENTS}/${ev.id}`);
    expect(got.status).toBe(200);
    expect(got.body.status).toBe('cancelled');
    expectCalendarError(await call('DELETE', `${EVENTS}/unknown123`), 404, 'notFound');
  });
});
