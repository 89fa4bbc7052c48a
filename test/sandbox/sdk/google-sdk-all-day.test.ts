/**
 * All-day events (`start.date`/`end.date`, the end date exclusive) driven through the sandbox with Google's official
 * client, @googleapis/calendar, unchanged: stored and answered as dates, found by a time window and ordered by start
 * time as the instants of midnight in the calendar's time zone, busy in free/busy unless transparent, moved to and
 * from a time by events.patch; refused where Google refuses them. Also events.get's `timeZone`.
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth as calendarAuth, calendar, type calendar_v3 } from '@googleapis/calendar';
import { startSandbox } from '../../../sandbox/index.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { build } from '../../specs/harness.js';
import { clients, googleTokens } from '../helpers.js';
import { asSeenUpstream, builderRequest, startRecordingServer, type RecordingServer } from './recording-server.js';

function client(root: string, accessToken: string): calendar_v3.Calendar {
  const auth = new calendarAuth.OAuth2();
  auth.setCredentials({ access_token: accessToken });
  // No retries: a refusal must reach the test as the first answer.
  return calendar({ version: 'v3', rootUrl: `${root}/`, auth, retry: false });
}

async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string; reason?: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { response?: { status: number; data: { error: { message: string; errors?: Array<{ reason: string }> } } } };
    if (!e.response) throw err;
    return { status: e.response.status, message: e.response.data.error.message, reason: e.response.data.error.errors?.[0]?.reason };
  }
  throw new Error('the call was expected to be refused');
}

describe('all-day events in the sandbox, through @googleapis/calendar', () => {
  let sb: Sandbox;
  let g: calendar_v3.Calendar;
  /** The user's shared team calendar, in Europe/Paris (the primary calendar is in UTC, where a day is a UTC day). */
  let team: string;

  beforeAll(async () => {
    sb = await startSandbox({ clients: clients() });
    const { access_token } = await googleTokens(sb, { scope: 'https://www.googleapis.com/auth/calendar', user: 'allday@example.com' });
    g = client(sb.origins.calendar!, access_token);
    const list = await g.calendarList.list({});
    team = list.data.items!.find((c) => c.summary === 'Team')!.id!;
    expect(list.data.items!.find((c) => c.id === team)!.timeZone).toBe('Europe/Paris');
  });
  afterAll(() => sb.close());

  it('stores and answers dates; found by a window and ordered by start as midnight in the calendar zone; patched to a time and back', async () => {
    const made = await g.events.insert({ calendarId: team, requestBody: { summary: 'Offsite', start: { date: '2026-12-04' }, end: { date: '2026-12-06' } } });
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ summary: 'Offsite', start: { date: '2026-12-04' }, end: { date: '2026-12-06' } });
    expect(made.data.start?.dateTime).toBeUndefined();
    const id = made.data.id!;
    const timed = await g.events.insert({ calendarId: team, requestBody: { summary: 'Breakfast', start: { dateTime: '2026-12-04T08:00:00+01:00' }, end: { dateTime: '2026-12-04T09:00:00+01:00' } } });

    const window = async (timeMin: string, timeMax: string) =>
      (await g.events.list({ calendarId: team, timeMin, timeMax, singleEvents: true, orderBy: 'startTime' })).data.items!.map((e) => e.summary);
    // The first day from Paris midnight (23:00 UTC the day before): before a timed event of that morning.
    expect(await window('2026-12-04T00:00:00+01:00', '2026-12-05T00:00:00+01:00')).toEqual(['Offsite', 'Breakfast']);
    // The second day is in it; the end date is not (exclusive), nor the evening before the first day in Paris.
    expect(await window('2026-12-05T12:00:00+01:00', '2026-12-05T13:00:00+01:00')).toEqual(['Offsite']);
    expect(await window('2026-12-06T00:00:00+01:00', '2026-12-07T00:00:00+01:00')).toEqual([]);
    expect(await window('2026-12-03T22:00:00Z', '2026-12-03T23:00:00Z')).toEqual([]);

    expect((await g.events.get({ calendarId: team, eventId: id })).data).toMatchObject({ start: { date: '2026-12-04' }, end: { date: '2026-12-06' } });
    // A third day: the end date moves alone.
    expect((await g.events.patch({ calendarId: team, eventId: id, requestBody: { end: { date: '2026-12-07' } } })).data).toMatchObject({ start: { date: '2026-12-04' }, end: { date: '2026-12-07' } });
    // To a time: the patch merges into the stored start and end, so the dates are cleared with null.
    const toTime = await g.events.patch({
      calendarId: team,
      eventId: id,
      requestBody: { start: { date: null, dateTime: '2026-12-04T09:00:00+01:00' }, end: { date: null, dateTime: '2026-12-04T17:00:00+01:00' } },
    });
    expect(toTime.data.start).toEqual({ dateTime: '2026-12-04T09:00:00+01:00' });
    expect(toTime.data.end).toEqual({ dateTime: '2026-12-04T17:00:00+01:00' });
    // And back to one day, the times cleared.
    const back = await g.events.patch({ calendarId: team, eventId: id, requestBody: { start: { date: '2026-12-11', dateTime: null }, end: { date: '2026-12-12', dateTime: null } } });
    expect(back.data.start).toEqual({ date: '2026-12-11' });
    expect(back.data.end).toEqual({ date: '2026-12-12' });

    expect((await g.events.delete({ calendarId: team, eventId: id })).status).toBe(204);
    expect((await g.events.delete({ calendarId: team, eventId: timed.data.id! })).status).toBe(204);
    expect(await window('2026-12-01T00:00:00Z', '2026-12-31T00:00:00Z')).toEqual([]);
  });

  it('refuses a date with a dateTime, an end date before the start, a start with both, a day not in the calendar', async () => {
    const insert = (start: calendar_v3.Schema$EventDateTime, end: calendar_v3.Schema$EventDateTime) => refusal(g.events.insert({ calendarId: 'primary', requestBody: { summary: 'x', start, end } }));
    expect(await insert({ date: '2026-12-04' }, { dateTime: '2026-12-05T00:00:00Z' })).toEqual({ status: 400, message: 'Start and end times must either both be date or both be dateTime.', reason: 'invalid' });
    expect(await insert({ dateTime: '2026-12-04T00:00:00Z' }, { date: '2026-12-05' })).toEqual({ status: 400, message: 'Start and end times must either both be date or both be dateTime.', reason: 'invalid' });
    expect(await insert({ date: '2026-12-04' }, { date: '2026-12-03' })).toEqual({ status: 400, message: 'The specified time range is empty.', reason: 'timeRangeEmpty' });
    expect(await insert({ date: '2026-12-04', dateTime: '2026-12-04T10:00:00Z' }, { date: '2026-12-05' })).toMatchObject({ status: 400, message: 'Invalid start time.' });
    expect(await insert({ date: '2026-02-30' }, { date: '2026-03-01' })).toMatchObject({ status: 400, message: 'Invalid start time.' });
    // A patch of an all-day event's end to a time alone leaves a date start beside it: refused, and the event kept.
    const day = await g.events.insert({ calendarId: 'primary', requestBody: { summary: 'Day', start: { date: '2026-12-04' }, end: { date: '2026-12-05' } } });
    expect(await refusal(g.events.patch({ calendarId: 'primary', eventId: day.data.id!, requestBody: { end: { date: null, dateTime: '2026-12-04T18:00:00Z' } } }))).toMatchObject({
      status: 400,
      message: 'Start and end times must either both be date or both be dateTime.',
    });
    expect((await g.events.get({ calendarId: 'primary', eventId: day.data.id! })).data.end).toEqual({ date: '2026-12-05' });
  });

  it('free/busy: an all-day event is busy from midnight to midnight in its calendar\'s zone, unless transparent', async () => {
    await g.events.insert({ calendarId: team, requestBody: { summary: 'Off', start: { date: '2027-01-12' }, end: { date: '2027-01-13' } } });
    await g.events.insert({ calendarId: team, requestBody: { summary: 'Holiday (free)', transparency: 'transparent', start: { date: '2027-01-14' }, end: { date: '2027-01-15' } } });
    const query = (timeZone?: string) =>
      g.freebusy.query({ requestBody: { timeMin: '2027-01-11T00:00:00Z', timeMax: '2027-01-16T00:00:00Z', items: [{ id: team }], ...(timeZone ? { timeZone } : {}) } });
    expect((await query()).data.calendars?.[team]).toEqual({ busy: [{ start: '2027-01-11T23:00:00Z', end: '2027-01-12T23:00:00Z' }] });
    expect((await query('Europe/Paris')).data.calendars?.[team]).toEqual({ busy: [{ start: '2027-01-12T00:00:00+01:00', end: '2027-01-13T00:00:00+01:00' }] });
  });

  it('events.get writes a timed event\'s times in the timeZone asked for; an all-day event keeps its dates', async () => {
    const timed = await g.events.insert({ calendarId: team, requestBody: { summary: 'Call', start: { dateTime: '2027-02-01T15:00:00Z' }, end: { dateTime: '2027-02-01T15:30:00Z' } } });
    const day = await g.events.insert({ calendarId: team, requestBody: { summary: 'Day', start: { date: '2027-02-02' }, end: { date: '2027-02-03' } } });
    const inNewYork = await g.events.get({ calendarId: team, eventId: timed.data.id!, timeZone: 'America/New_York' });
    expect(inNewYork.data.start).toEqual({ dateTime: '2027-02-01T10:00:00-05:00' });
    expect(inNewYork.data.end).toEqual({ dateTime: '2027-02-01T10:30:00-05:00' });
    // Without it, the calendar's zone (Europe/Paris).
    expect((await g.events.get({ calendarId: team, eventId: timed.data.id! })).data.start).toEqual({ dateTime: '2027-02-01T16:00:00+01:00' });
    expect((await g.events.get({ calendarId: team, eventId: day.data.id!, timeZone: 'America/New_York' })).data.start).toEqual({ date: '2027-02-02' });
    expect(await refusal(g.events.get({ calendarId: team, eventId: day.data.id!, timeZone: 'Mars/Olympus' }))).toMatchObject({ status: 400, message: 'Invalid time zone definition.' });
  });
});

describe('our builders send what @googleapis/calendar sends for an all-day event', () => {
  let recorder: RecordingServer;
  let g: calendar_v3.Calendar;

  beforeAll(async () => {
    recorder = await startRecordingServer();
    g = client(recorder.url, 'recorded-token');
  });
  afterAll(() => recorder.close());

  const same = async (tool: string, input: Record<string, unknown>, sdk: () => Promise<unknown>) => {
    const built = build(tool, input);
    await sdk();
    expect(builderRequest(built)).toEqual(asSeenUpstream(recorder.take()));
  };

  it('calendar_create_event with a date alone and event_duration_days', () =>
    same('calendar_create_event', { summary: 'Offsite', start_datetime: '2026-12-04', event_duration_days: 2 }, () =>
      g.events.insert({ calendarId: 'primary', requestBody: { summary: 'Offsite', start: { date: '2026-12-04' }, end: { date: '2026-12-06' } } }),
    ));

  it('calendar_update_event to an all-day event, its times cleared', () =>
    same('calendar_update_event', { calendar_id: 'primary', event_id: 'ev123', start_datetime: '2026-12-31', event_duration_days: 2 }, () =>
      g.events.patch({ calendarId: 'primary', eventId: 'ev123', requestBody: { start: { date: '2026-12-31', dateTime: null }, end: { date: '2027-01-02', dateTime: null } } }),
    ));

  it('calendar_get_event_by_id with timezone', () =>
    same('calendar_get_event_by_id', { event_id: 'ev123', timezone: 'America/New_York' }, () => g.events.get({ calendarId: 'primary', eventId: 'ev123', timeZone: 'America/New_York' })));
});
