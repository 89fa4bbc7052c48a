/**
 * The Calendar fake's freeBusy.query (POST /calendar/v3/freeBusy): busy intervals computed from the stored events of
 * the calendars the user can see, as Google answers them, and Google's refusals.
 * @see https://developers.google.com/calendar/api/v3/reference/freebusy/query
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createCalendarApi } from '../../sandbox/apis/calendar/index.js';
import { seededCalendarId } from '../../sandbox/apis/calendar/calendar-store.js';
import type { ApiModule, ApiResponse } from '../../sandbox/types.js';

const USER = 'ada@example.com';
const NOW = Date.parse('2026-03-01T12:00:00Z');
const FULL = 'https://www.googleapis.com/auth/calendar';
type Body = Record<string, any>;

let api: ApiModule;
beforeEach(() => {
  api = createCalendarApi();
  api.seedUser(USER, NOW);
});

async function call(method: string, path: string, body?: unknown, opts: { scopes?: string[]; user?: string } = {}): Promise<ApiResponse & { body: Body }> {
  const res = await api.handle({ method, path, query: new URLSearchParams(), headers: {}, body, user: opts.user ?? USER, scopes: opts.scopes ?? [FULL], now: NOW });
  return res as ApiResponse & { body: Body };
}

const insert = async (event: Body, calendarId = 'primary', user = USER): Promise<Body> => {
  const res = await call('POST', `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`, { summary: 'Meeting', ...event }, { user });
  expect(res.status).toBe(200);
  return res.body;
};
const at = (start: string, end: string, extra: Body = {}): Body => ({ start: { dateTime: start }, end: { dateTime: end }, ...extra });
const freeBusy = (body: unknown, opts: { scopes?: string[]; user?: string } = {}) => call('POST', '/calendar/v3/freeBusy', body, opts);
const DAY = { timeMin: '2026-03-05T08:00:00Z', timeMax: '2026-03-05T18:00:00Z' };

describe('freeBusy.query: busy intervals', () => {
  it('merges overlapping busy events, leaves out events shown as free and cancelled ones, and clips to the range', async () => {
    await insert(at('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z'));
    await insert(at('2026-03-05T09:30:00Z', '2026-03-05T10:30:00Z'));
    await insert(at('2026-03-05T11:00:00Z', '2026-03-05T12:00:00Z', { transparency: 'transparent' }));
    const cancelled = await insert(at('2026-03-05T13:00:00Z', '2026-03-05T14:00:00Z'));
    expect((await call('DELETE', `/calendar/v3/calendars/primary/events/${cancelled.id}`)).status).toBe(204);
    await insert(at('2026-03-05T07:00:00Z', '2026-03-05T08:30:00Z'));
    await insert(at('2026-03-05T17:30:00Z', '2026-03-05T19:00:00Z'));
    // Outside the range.
    await insert(at('2026-03-06T09:00:00Z', '2026-03-06T10:00:00Z'));

    const res = await freeBusy({ ...DAY, items: [{ id: 'primary' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'calendar#freeBusy',
      timeMin: '2026-03-05T08:00:00.000Z',
      timeMax: '2026-03-05T18:00:00.000Z',
      calendars: {
        primary: {
          busy: [
            { start: '2026-03-05T08:00:00Z', end: '2026-03-05T08:30:00Z' },
            { start: '2026-03-05T09:00:00Z', end: '2026-03-05T10:30:00Z' },
            { start: '2026-03-05T17:30:00Z', end: '2026-03-05T18:00:00Z' },
          ],
        },
      },
    });
  });

  it('merges back-to-back events, and writes the intervals in the asked time zone', async () => {
    await insert(at('2026-03-05T10:00:00+01:00', '2026-03-05T11:00:00+01:00'));
    await insert(at('2026-03-05T11:00:00+01:00', '2026-03-05T11:30:00+01:00'));
    const res = await freeBusy({ ...DAY, timeZone: 'Europe/Paris', items: [{ id: USER }] });
    expect(res.body.calendars[USER].busy).toEqual([{ start: '2026-03-05T10:00:00+01:00', end: '2026-03-05T11:30:00+01:00' }]);
  });

  it('counts all-day events that are busy, and each instance of a recurring event', async () => {
    await insert({ start: { date: '2026-03-04' }, end: { date: '2026-03-05' } });
    await insert({ start: { date: '2026-03-05' }, end: { date: '2026-03-06' }, transparency: 'transparent' });
    await insert({ ...at('2026-03-02T15:00:00Z', '2026-03-02T15:30:00Z'), start: { dateTime: '2026-03-02T15:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2026-03-02T15:30:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=10'] });
    const res = await freeBusy({ timeMin: '2026-03-04T00:00:00Z', timeMax: '2026-03-06T00:00:00Z', items: [{ id: 'primary' }] });
    expect(res.body.calendars.primary.busy).toEqual([
      { start: '2026-03-04T00:00:00Z', end: '2026-03-05T00:00:00Z' },
      { start: '2026-03-05T15:00:00Z', end: '2026-03-05T15:30:00Z' },
    ]);
  });

  it("answers each calendar under the id it was asked by: the user's others, and colleagues of the same domain", async () => {
    const team = seededCalendarId(USER, 'team');
    await insert(at('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z'), team);
    api.seedUser('ana@example.com', NOW);
    await insert(at('2026-03-05T14:00:00Z', '2026-03-05T15:00:00Z'), 'primary', 'ana@example.com');
    api.seedUser('bob@elsewhere.test', NOW);
    const res = await freeBusy({ ...DAY, items: [{ id: 'primary' }, { id: team }, { id: 'ana@example.com' }, { id: 'bob@elsewhere.test' }] });
    expect(res.body.calendars).toEqual({
      primary: { busy: [] },
      [team]: { busy: [{ start: '2026-03-05T09:00:00Z', end: '2026-03-05T10:00:00Z' }] },
      'ana@example.com': { busy: [{ start: '2026-03-05T14:00:00Z', end: '2026-03-05T15:00:00Z' }] },
      // Another domain's user shares no free/busy with this one.
      'bob@elsewhere.test': { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] },
    });
  });

  it('answers a calendar it cannot see with a notFound error entry and no busy intervals, not a refusal', async () => {
    const res = await freeBusy({ ...DAY, items: [{ id: 'nobody@example.com' }, { id: 'c_unknown@group.calendar.google.com' }] });
    expect(res.status).toBe(200);
    for (const id of ['nobody@example.com', 'c_unknown@group.calendar.google.com']) {
      expect(res.body.calendars[id]).toEqual({ errors: [{ domain: 'global', reason: 'notFound' }], busy: [] });
    }
  });

  it('answers calendars past the 50th with tooManyCalendarsRequested', async () => {
    const items = Array.from({ length: 51 }, (_, i) => ({ id: i === 0 ? 'primary' : `c${i}@group.calendar.google.com` }));
    const res = await freeBusy({ ...DAY, items });
    expect(res.status).toBe(200);
    expect(res.body.calendars.primary).toEqual({ busy: [] });
    expect(res.body.calendars['c50@group.calendar.google.com']).toEqual({ errors: [{ domain: 'global', reason: 'tooManyCalendarsRequested' }], busy: [] });
  });
});

describe("freeBusy.query: refusals in Google's words", () => {
  const refused = (res: ApiResponse & { body: Body }, status: number, reason: string, message: string, domain?: string) => {
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
    expect(res.body.error.errors[0]).toMatchObject({ reason, message, ...(domain ? { domain } : {}) });
  };

  it('an empty range: timeMax not after timeMin', async () => {
    refused(await freeBusy({ timeMin: DAY.timeMax, timeMax: DAY.timeMin, items: [{ id: 'primary' }] }), 400, 'timeRangeEmpty', 'The specified time range is empty.', 'calendar');
    refused(await freeBusy({ timeMin: DAY.timeMin, timeMax: DAY.timeMin, items: [{ id: 'primary' }] }), 400, 'timeRangeEmpty', 'The specified time range is empty.');
  });

  it('a range longer than Google answers at once (over 90 days)', async () => {
    refused(await freeBusy({ timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-05-30T00:00:01Z', items: [{ id: 'primary' }] }), 400, 'timeRangeTooLong', 'The requested time range is too long.', 'calendar');
    expect((await freeBusy({ timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-05-30T00:00:00Z', items: [{ id: 'primary' }] })).status).toBe(200);
  });

  it('a missing or unreadable time', async () => {
    refused(await freeBusy({ timeMax: DAY.timeMax, items: [{ id: 'primary' }] }), 400, 'required', 'Missing timeMin parameter.');
    refused(await freeBusy({ timeMin: DAY.timeMin, items: [{ id: 'primary' }] }), 400, 'required', 'Missing timeMax parameter.');
    refused(await freeBusy({ timeMin: '2026-03-05T08:00:00', timeMax: DAY.timeMax, items: [{ id: 'primary' }] }), 400, 'badRequest', 'Bad Request');
    refused(await freeBusy({ ...DAY, timeZone: 'Mars/Olympus', items: [{ id: 'primary' }] }), 400, 'invalid', 'Invalid time zone definition.');
  });

  it('a token without a scope freeBusy takes; calendar.readonly and calendar.freebusy do', async () => {
    const events = await freeBusy({ ...DAY, items: [{ id: 'primary' }] }, { scopes: ['https://www.googleapis.com/auth/calendar.events'] });
    expect(events.status).toBe(403);
    expect(events.body.error.message).toBe('Request had insufficient authentication scopes.');
    for (const scope of ['calendar.readonly', 'calendar.freebusy', 'calendar.events.freebusy']) {
      expect((await freeBusy({ ...DAY, items: [{ id: 'primary' }] }, { scopes: [`https://www.googleapis.com/auth/${scope}`] })).status).toBe(200);
    }
  });
});
