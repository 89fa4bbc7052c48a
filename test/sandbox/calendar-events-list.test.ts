import { beforeEach, describe, expect, it } from 'vitest';
import { createCalendarApi } from '../../sandbox/apis/calendar/index.js';
import { seededCalendarId } from '../../sandbox/apis/calendar/calendar-store.js';
import type { ApiModule } from '../../sandbox/types.js';

const USER = 'lin@example.com';
const NOW = Date.parse('2024-03-01T12:00:00Z');
type Body = Record<string, any>;

let api: ApiModule;
let calendarPath: string;

async function call(method: string, path: string, query: Record<string, string | string[]> = {}, body?: unknown, now = NOW) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) q.append(k, one);
  const res = await api.handle({ method, path, query: q, headers: {}, body, user: USER, scopes: [], now });
  return res as { status: number; body: Body };
}

async function insert(body: Body, now = NOW): Promise<Body> {
  const res = await call('POST', `${calendarPath}/events`, {}, body, now);
  expect(res.status).toBe(200);
  return res.body;
}

const list = (query: Record<string, string | string[]> = {}, now = NOW) => call('GET', `${calendarPath}/events`, query, undefined, now);
const ids = (res: { body: Body }): string[] => res.body.items.map((i: Body) => i.id);
const summaries = (res: { body: Body }): string[] => res.body.items.map((i: Body) => i.summary);
const at = (s: string, e: string, summary: string, extra: Body = {}): Body => ({ summary, start: { dateTime: s }, end: { dateTime: e }, ...extra });

beforeEach(() => {
  api = createCalendarApi();
  api.seedUser(USER, NOW);
  // The team calendar starts empty, so every item below is one the test made.
  calendarPath = `/calendar/v3/calendars/${encodeURIComponent(seededCalendarId(USER, 'team'))}`;
});

describe('events.list', () => {
  it('returns the list envelope', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'calendar#events', summary: 'Team', timeZone: 'Europe/Paris', accessRole: 'writer', items: [] });
    expect(res.body.nextSyncToken).toEqual(expect.any(String));
  });

  it('the primary calendar starts with the sample event', async () => {
    const res = await call('GET', '/calendar/v3/calendars/primary/events');
    expect(summaries(res)).toEqual(['Welcome to the sandbox']);
  });

  it('timeMin bounds the event end and timeMax the start, both exclusive', async () => {
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'A'));
    await insert(at('2024-03-05T11:00:00Z', '2024-03-05T12:00:00Z', 'B'));
    await insert(at('2024-03-05T12:00:00Z', '2024-03-05T13:00:00Z', 'C'));
    const res = await list({ timeMin: '2024-03-05T11:00:00Z', timeMax: '2024-03-05T12:00:00Z' });
    expect(summaries(res)).toEqual(['B']);
    const withOffset = await list({ timeMin: '2024-03-05T12:30:00+01:00', timeMax: '2024-03-05T13:30:00+01:00' });
    expect(summaries(withOffset)).toEqual(['B', 'C']);
  });

  it('refuses an empty or unparseable time range', async () => {
    const empty = await list({ timeMin: '2024-03-05T12:00:00Z', timeMax: '2024-03-05T12:00:00Z' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.errors[0]).toMatchObject({ reason: 'timeRangeEmpty', location: 'timeMax' });
    const noOffset = await list({ timeMin: '2024-03-05T12:00:00' });
    expect(noOffset.status).toBe(400);
    expect(noOffset.body.error.errors[0]).toMatchObject({ reason: 'badRequest', locationType: 'parameter', location: 'timeMin' });
  });

  it('orderBy=startTime needs singleEvents=true', async () => {
    const res = await list({ orderBy: 'startTime' });
    expect(res.status).toBe(400);
    // Calendar's refusal: reason `invalid`, located at orderBy (issue 12: seen with Google's own client).
    expect(res.body.error.errors[0]).toEqual({ message: 'The requested ordering is not available for the particular query.', domain: 'global', reason: 'invalid', locationType: 'parameter', location: 'orderBy' });
    expect(res.body.error.message).toBe('The requested ordering is not available for the particular query.');
    expect((await list({ orderBy: 'startTime', singleEvents: 'true' })).status).toBe(200);
    const unknown = await list({ orderBy: 'created' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.errors[0]).toMatchObject({ reason: 'invalidParameter', location: 'orderBy', message: "Invalid string value: 'created'. Allowed values: [starttime, updated]" });
  });

  it('orders by start time and by update time', async () => {
    const late = await insert(at('2024-03-07T10:00:00Z', '2024-03-07T11:00:00Z', 'late'), NOW);
    await insert(at('2024-03-06T10:00:00Z', '2024-03-06T11:00:00Z', 'early'), NOW + 1000);
    expect(summaries(await list({ orderBy: 'startTime', singleEvents: 'true' }))).toEqual(['early', 'late']);
    await call('PATCH', `${calendarPath}/events/${late.id}`, {}, { description: 'touched' }, NOW + 2000);
    expect(summaries(await list({ orderBy: 'updated' }))).toEqual(['early', 'late']);
  });

  it('q matches summary, description, location and attendees', async () => {
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'Budget review', { location: 'Room 4' }));
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'Standup', { attendees: [{ email: 'carol@example.com', displayName: 'Carol' }] }));
    expect(summaries(await list({ q: 'budget' }))).toEqual(['Budget review']);
    expect(summaries(await list({ q: 'room 4' }))).toEqual(['Budget review']);
    expect(summaries(await list({ q: 'carol' }))).toEqual(['Standup']);
    expect(summaries(await list({ q: 'nothing-like-this' }))).toEqual([]);
  });

  it('filters by eventTypes (repeated) and validates them', async () => {
    // Status events live only on the primary calendar, which starts with one sample (default) event.
    calendarPath = '/calendar/v3/calendars/primary';
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'focus', { eventType: 'focusTime', focusTimeProperties: {} }));
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'plain'));
    await insert(at('2024-03-06T09:00:00Z', '2024-03-06T17:00:00Z', 'ooo', { eventType: 'outOfOffice', outOfOfficeProperties: {} }));
    expect(summaries(await list({ eventTypes: ['focusTime', 'outOfOffice'] }))).toEqual(['focus', 'ooo']);
    const defaults = summaries(await list({ eventTypes: 'default' }));
    expect(defaults).toContain('plain');
    expect(defaults).not.toContain('focus');
    expect(defaults).not.toContain('ooo');
    expect((await list({ eventTypes: 'meeting' })).status).toBe(400);
  });

  it('hides cancelled events unless showDeleted; updatedMin includes deletions', async () => {
    const gone = await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'gone'));
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'old'));
    await call('DELETE', `${calendarPath}/events/${gone.id}`, {}, undefined, NOW + 5000);
    expect(summaries(await list())).toEqual(['old']);
    const shown = await list({ showDeleted: 'true' });
    expect(shown.body.items.find((i: Body) => i.id === gone.id).status).toBe('cancelled');
    const since = await list({ updatedMin: new Date(NOW + 1000).toISOString() });
    expect(ids(since)).toEqual([gone.id]);
  });

  it('validates maxResults (1..2500) and pages through results', async () => {
    expect((await list({ maxResults: '2501' })).status).toBe(400);
    expect((await list({ maxResults: '0' })).status).toBe(400);
    for (let i = 0; i < 5; i++) await insert(at(`2024-03-0${i + 1}T10:00:00Z`, `2024-03-0${i + 1}T11:00:00Z`, `e${i}`));
    const seen: string[] = [];
    let token: string | undefined;
    let lastBody: Body = {};
    do {
      const res = await list({ maxResults: '2', ...(token ? { pageToken: token } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...summaries(res));
      token = res.body.nextPageToken;
      lastBody = res.body;
    } while (token);
    expect(seen).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    expect(lastBody.nextSyncToken).toEqual(expect.any(String));
    expect((await list({ pageToken: '!!garbage' })).status).toBe(400);
  });

  it('syncs incrementally and enforces the sync-token rules', async () => {
    const a = await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'a'));
    await insert(at('2024-03-05T10:00:00Z', '2024-03-05T11:00:00Z', 'b'));
    const full = await list();
    const token = full.body.nextSyncToken as string;
    expect((await list({ syncToken: token })).body.items).toEqual([]);

    await call('PATCH', `${calendarPath}/events/${a.id}`, {}, { summary: 'a2' });
    const c = await insert(at('2024-03-06T10:00:00Z', '2024-03-06T11:00:00Z', 'c'));
    await call('DELETE', `${calendarPath}/events/${c.id}`);
    const delta = await list({ syncToken: token });
    expect(delta.status).toBe(200);
    expect(delta.body.items.map((i: Body) => [i.summary, i.status])).toEqual([
      ['a2', 'confirmed'],
      ['c', 'cancelled'],
    ]);

    for (const forbidden of ['q', 'timeMin', 'timeMax', 'updatedMin', 'orderBy', 'iCalUID']) {
      const value = forbidden.startsWith('time') || forbidden === 'updatedMin' ? '2024-03-01T00:00:00Z' : 'updated';
      const res = await list({ syncToken: token, [forbidden]: value });
      expect(res.status, forbidden).toBe(400);
      expect(res.body.error.errors[0].location).toBe(forbidden);
    }
    // Deletions are always part of a sync: showDeleted=false is refused with a sync token, showDeleted=true is not.
    const hidingDeleted = await list({ syncToken: token, showDeleted: 'false' });
    expect(hidingDeleted.status).toBe(400);
    expect(hidingDeleted.body.error.errors[0].location).toBe('showDeleted');
    expect((await list({ syncToken: token, showDeleted: 'true' })).status).toBe(200);
    const gone = await list({ syncToken: 'made-up' });
    expect(gone.status).toBe(410);
    expect(gone.body.error.errors[0].reason).toBe('fullSyncRequired');
    expect((await list({ syncToken: token }, NOW + 8 * 86_400_000)).status).toBe(410);
    const otherCalendar = await call('GET', '/calendar/v3/calendars/primary/events', { syncToken: token });
    expect(otherCalendar.status).toBe(410);
  });
});

describe('recurring events', () => {
  it('lists a recurring event once, or expands it with singleEvents', async () => {
    const master = await insert({
      summary: 'Daily',
      start: { dateTime: '2024-03-04T09:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2024-03-04T09:15:00', timeZone: 'Europe/Paris' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
    });
    const collapsed = await list();
    expect(collapsed.body.items).toHaveLength(1);
    expect(collapsed.body.items[0].recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=5']);

    const expanded = await list({ singleEvents: 'true', orderBy: 'startTime' });
    expect(expanded.body.items).toHaveLength(5);
    const first = expanded.body.items[0];
    expect(first.id).toBe(`${master.id}_20240304T080000Z`);
    expect(first.recurringEventId).toBe(master.id);
    expect(first.recurrence).toBeUndefined();
    expect(first.originalStartTime).toEqual(first.start);
    expect(expanded.body.items.map((i: Body) => i.start.dateTime)).toEqual([
      '2024-03-04T09:00:00+01:00',
      '2024-03-05T09:00:00+01:00',
      '2024-03-06T09:00:00+01:00',
      '2024-03-07T09:00:00+01:00',
      '2024-03-08T09:00:00+01:00',
    ]);
    const window = await list({ singleEvents: 'true', timeMin: '2024-03-05T12:00:00Z', timeMax: '2024-03-07T12:00:00Z' });
    expect(window.body.items.map((i: Body) => i.start.dateTime)).toEqual(['2024-03-06T09:00:00+01:00', '2024-03-07T09:00:00+01:00']);
    const outside = await list({ timeMin: '2024-03-09T00:00:00Z' });
    expect(outside.body.items).toHaveLength(0);
  });

  it('expands WEEKLY with BYDAY and UNTIL, keeping wall-clock time across DST', async () => {
    await insert({
      summary: 'Sync',
      start: { dateTime: '2024-03-05T10:00:00', timeZone: 'America/New_York' },
      end: { dateTime: '2024-03-05T10:30:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20240315T235959Z'],
    });
    const res = await list({ singleEvents: 'true', orderBy: 'startTime' });
    expect(res.body.items.map((i: Body) => i.start.dateTime)).toEqual([
      '2024-03-05T10:00:00-05:00',
      '2024-03-07T10:00:00-05:00',
      // US DST starts on 10 March: the meeting stays at 10:00 local.
      '2024-03-12T10:00:00-04:00',
      '2024-03-14T10:00:00-04:00',
    ]);
  });

  it('expands all-day yearly rules, honours EXDATE and INTERVAL', async () => {
    await insert({
      summary: 'Biweekly',
      start: { date: '2024-03-04' },
      end: { date: '2024-03-05' },
      recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3', 'EXDATE;VALUE=DATE:20240318'],
    });
    const res = await list({ singleEvents: 'true' });
    expect(res.body.items.map((i: Body) => [i.start.date, i.end.date])).toEqual([
      ['2024-03-04', '2024-03-05'],
      ['2024-04-01', '2024-04-02'],
    ]);
    expect(res.body.items[1].id).toMatch(/_20240401$/);
  });
});
