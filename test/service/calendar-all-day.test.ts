/**
 * All-day events through the HTTP service (POST /api/v1/execute_tool) against the Calendar sandbox: made by
 * calendar_create_event from a date alone and event_duration_days, read back as dates (calendar_get_event_by_id,
 * calendar_list_events), busy in calendar_free_busy, moved and changed by calendar_update_event (keeping their number
 * of days, to a time and back), and the refusals of a length that does not fit the start. Also the `timezone` of
 * calendar_get_event_by_id and calendar_list_events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import type { ConnectionView } from '../../runtime/api.js';
import { conformanceProblems } from './openapi-conformance.js';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
  const secret = 'secret-allday';
  const res = await h.call('POST', '/api/v1/connections', {
    token,
    body: { name: 'cal', connector: 'calendar', client_id: 'client-allday', client_secret: secret, overrides: h.sandbox.endpoints('calendar') },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  registerWithSandbox(h.sandbox, res.body as ConnectionView, secret);
  await connectSandboxUser(h, { connection: 'cal', identifier: 'ana', user: 'ana@example.com' });
});
afterAll(async () => h?.close());

/** Runs a calendar tool as ana; every answer must be one the OpenAPI document describes for the route. */
async function run(tool_name: string, tool_input: unknown): Promise<{ status: number; body: any }> {
  const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { connection_name: 'cal', identifier: 'ana', tool_name, tool_input } });
  expect(conformanceProblems('POST', '/api/v1/execute_tool', res), `${tool_name} -> ${res.status}`).toEqual([]);
  return res;
}

async function ok(tool_name: string, tool_input: unknown): Promise<any> {
  const res = await run(tool_name, tool_input);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('all-day events through the service', () => {
  it('"put the offsite on Dec 4-5 as an all-day event": made, read, listed and busy as two whole days', async () => {
    const made = await ok('calendar_create_event', { summary: 'Offsite', start_datetime: '2026-12-04', event_duration_days: 2 });
    // Google's end date is the day after the last one.
    expect(made.start).toEqual({ date: '2026-12-04' });
    expect(made.end).toEqual({ date: '2026-12-06' });
    const got = await ok('calendar_get_event_by_id', { event_id: made.id, time_min: '2026-12-05T12:00:00Z' });
    expect([got.start, got.end]).toEqual([{ date: '2026-12-04' }, { date: '2026-12-06' }]);
    // The primary calendar is in UTC: the days are UTC days, the end day not included.
    const onDay2 = await ok('calendar_list_events', { time_min: '2026-12-05T08:00:00Z', time_max: '2026-12-05T09:00:00Z', single_events: true, order_by: 'startTime' });
    expect(onDay2.items.map((e: any) => e.id)).toEqual([made.id]);
    expect((await ok('calendar_list_events', { time_min: '2026-12-06T00:00:00Z', time_max: '2026-12-07T00:00:00Z' })).items).toEqual([]);
    const busy = await ok('calendar_free_busy', { time_min: '2026-12-03T00:00:00Z', time_max: '2026-12-08T00:00:00Z' });
    expect(busy.calendars.primary.busy).toEqual([{ start: '2026-12-04T00:00:00Z', end: '2026-12-06T00:00:00Z' }]);
  });

  it('"block Friday off": a date alone is one day; free when asked so, and then not busy', async () => {
    const made = await ok('calendar_create_event', { summary: 'Day off', start_datetime: '2027-01-08', transparency: 'free' });
    expect([made.start, made.end, made.transparency]).toEqual([{ date: '2027-01-08' }, { date: '2027-01-09' }, 'transparent']);
    const busy = await ok('calendar_free_busy', { time_min: '2027-01-07T00:00:00Z', time_max: '2027-01-10T00:00:00Z' });
    expect(busy.calendars.primary.busy).toEqual([]);
  });

  it('calendar_update_event: a new date alone keeps the days; days change with event_duration_days; to a time and back to one day', async () => {
    const { id } = await ok('calendar_create_event', { summary: 'Retreat', start_datetime: '2027-02-01', event_duration_days: 3 });
    const moved = await ok('calendar_update_event', { calendar_id: 'primary', event_id: id, start_datetime: '2027-02-10' });
    expect([moved.start, moved.end]).toEqual([{ date: '2027-02-10' }, { date: '2027-02-13' }]);
    const shorter = await ok('calendar_update_event', { calendar_id: 'primary', event_id: id, start_datetime: '2027-02-10', event_duration_days: 2 });
    expect([shorter.start, shorter.end]).toEqual([{ date: '2027-02-10' }, { date: '2027-02-12' }]);
    const timed = await ok('calendar_update_event', { calendar_id: 'primary', event_id: id, start_datetime: '2027-02-10T09:00:00Z', event_duration_hour: 2 });
    expect([timed.start, timed.end]).toEqual([{ dateTime: '2027-02-10T09:00:00Z' }, { dateTime: '2027-02-10T11:00:00Z' }]);
    // A timed event given a date alone becomes a one-day event.
    const allDay = await ok('calendar_update_event', { calendar_id: 'primary', event_id: id, start_datetime: '2027-02-11' });
    expect([allDay.start, allDay.end]).toEqual([{ date: '2027-02-11' }, { date: '2027-02-12' }]);
    expect((await ok('calendar_get_event_by_id', { event_id: id })).end).toEqual({ date: '2027-02-12' });
  });

  it('refuses a length that does not fit the start, naming the parameter to use, before anything is sent', async () => {
    h.sandbox.control.clearRequests();
    const hours = await run('calendar_create_event', { summary: 'Day off', start_datetime: '2027-03-05', event_duration_hour: 24 });
    expect(hours.status).toBe(400);
    expect(hours.body.error.code).toBe('invalid_input');
    expect(hours.body.error.details.violations).toContainEqual({
      pointer: '/event_duration_hour',
      keyword: 'check',
      message: 'event_duration_hour is for an event with a time, but start_datetime 2027-03-05 is a date alone (an all-day event): give its number of days as event_duration_days, or start_datetime with a time',
    });
    const days = await run('calendar_create_event', { summary: 'Day off', start_datetime: '2027-03-05T00:00:00+01:00', event_duration_days: 1 });
    expect(days.status).toBe(400);
    expect(days.body.error.details.violations).toContainEqual({
      pointer: '/event_duration_days',
      keyword: 'check',
      message: 'event_duration_days is for an all-day event, but start_datetime 2027-03-05T00:00:00+01:00 has a time: for an all-day event give start_datetime as a date alone (2027-03-05); for a timed one give its length as event_duration_hour and event_duration_minutes',
    });
    const end = await run('calendar_update_event', { calendar_id: 'primary', event_id: 'ev1', start_datetime: '2027-03-05', end_datetime: '2027-03-06T00:00:00Z' });
    expect(end.status).toBe(400);
    expect(end.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/end_datetime']);
    // The old 24-hour workaround's all_day now says how to make an all-day event.
    const allDay = await run('calendar_create_event', { summary: 'Day off', start_datetime: '2027-03-05T00:00:00+01:00', all_day: true });
    expect(allDay.body.error.details.violations).toContainEqual(expect.objectContaining({ pointer: '/all_day', message: expect.stringContaining('give start_datetime as a date alone (YYYY-MM-DD, e.g. 2026-12-04)') }));
    expect(h.sandbox.control.requests('calendar')).toEqual([]);
  });

  it("an all-day event's end moved to a time alone: Google's refusal comes with how to change its days", async () => {
    const { id } = await ok('calendar_create_event', { summary: 'Holiday', start_datetime: '2027-04-01' });
    const res = await run('calendar_update_event', { calendar_id: 'primary', event_id: id, end_datetime: '2027-04-01T18:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upstream_error');
    expect(res.body.error.message).toContain('Start and end times must either both be date or both be dateTime.');
    expect(res.body.error.details.hint).toContain('give start_datetime as a date alone with event_duration_days');
  });
});

describe('timezone on reads', () => {
  it('calendar_get_event_by_id and calendar_list_events write the times in the zone asked for; all-day dates stay', async () => {
    const timed = await ok('calendar_create_event', { summary: 'Call with Li', start_datetime: '2027-05-03T15:00:00Z', event_duration_minutes: 30 });
    const day = await ok('calendar_create_event', { summary: 'Conference', start_datetime: '2027-05-04' });
    const got = await ok('calendar_get_event_by_id', { event_id: timed.id, timezone: 'America/New_York' });
    expect([got.start, got.end]).toEqual([{ dateTime: '2027-05-03T11:00:00-04:00' }, { dateTime: '2027-05-03T11:30:00-04:00' }]);
    expect((await ok('calendar_get_event_by_id', { event_id: day.id, timezone: 'America/New_York' })).start).toEqual({ date: '2027-05-04' });
    const listed = await ok('calendar_list_events', { time_min: '2027-05-03T00:00:00Z', time_max: '2027-05-05T00:00:00Z', single_events: true, order_by: 'startTime', timezone: 'Asia/Kolkata' });
    expect(listed.items.map((e: any) => e.start)).toEqual([{ dateTime: '2027-05-03T20:30:00+05:30' }, { date: '2027-05-04' }]);
    const refused = await run('calendar_get_event_by_id', { event_id: timed.id, timezone: '+02:00' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.violations[0].pointer).toBe('/timezone');
  });
});
