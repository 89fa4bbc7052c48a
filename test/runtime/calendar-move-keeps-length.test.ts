/**
 * calendar_update_event moved by a new start alone keeps the event's length (the `calendarEventLength` pre-check):
 * through the real executor against the Calendar sandbox, what is read, what is sent and what the sandbox then holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'cal');
  await h.authorize('cal', 'ana');
});
afterAll(() => h.close());

const run = (input: Record<string, unknown>) => h.env.executeTool({ tool_name: 'calendar_update_event', connection_name: 'cal', identifier: 'ana', tool_input: input });
const refusal = (input: Record<string, unknown>) =>
  run(input).then(
    () => undefined,
    (e: unknown) => e as { code: string; status?: number; message: string; details: Record<string, any> },
  );

/** An event inserted straight into the sandbox (not through the tool under test). */
async function insert(body: Record<string, unknown>): Promise<string> {
  const made = await h.env.proxy({ connection_name: 'cal', identifier: 'ana', method: 'POST', path: '/calendar/v3/calendars/primary/events', body });
  expect(made.status).toBe(200);
  return (made.body as { id: string }).id;
}

/** The event as the sandbox now holds it. */
async function stored(id: string): Promise<Record<string, any>> {
  const read = await h.env.proxy({ connection_name: 'cal', identifier: 'ana', method: 'GET', path: `/calendar/v3/calendars/primary/events/${id}` });
  expect(read.status).toBe(200);
  return read.body as Record<string, any>;
}

/** What reached the sandbox since the last clear: method and path, and each PATCH's body. */
function sent(): Array<{ method: string; path: string; body?: unknown }> {
  return h.sandbox.control.requests('calendar').map((r) => (r.method === 'PATCH' ? { method: r.method, path: r.path, body: r.body } : { method: r.method, path: r.path }));
}

const lengthOf = (ev: Record<string, any>) => Date.parse(ev.end.dateTime) - Date.parse(ev.start.dateTime);

describe('calendar_update_event: a new start alone', () => {
  it('keeps a 2-hour event 2 hours: the event is read, then the end sent is the new start + 2 h', async () => {
    const id = await insert({ summary: 'Planning', start: { dateTime: '2026-05-11T10:00:00+02:00' }, end: { dateTime: '2026-05-11T12:00:00+02:00' } });
    h.sandbox.control.clearRequests();
    const moved = (await run({ calendar_id: 'primary', event_id: id, start_datetime: '2026-05-11T15:00:00+02:00' })).data as Record<string, any>;
    const path = `/calendar/v3/calendars/primary/events/${id}`;
    expect(sent()).toEqual([
      { method: 'GET', path },
      { method: 'PATCH', path, body: { start: { date: null, dateTime: '2026-05-11T15:00:00+02:00' }, end: { date: null, dateTime: '2026-05-11T17:00:00+02:00' } } },
    ]);
    expect(Date.parse(moved.end.dateTime)).toBe(Date.parse('2026-05-11T17:00:00+02:00'));
    const now = await stored(id);
    expect(Date.parse(now.start.dateTime)).toBe(Date.parse('2026-05-11T15:00:00+02:00'));
    expect(lengthOf(now)).toBe(2 * 3_600_000);
    expect(now.summary).toBe('Planning');
  });

  it("writes the end in the new start's UTC offset (not the event's old one), to the second", async () => {
    // 1 h 20 min 30 s, stored in Paris time.
    const id = await insert({ summary: 'Odd length', start: { dateTime: '2026-05-12T10:00:00+02:00' }, end: { dateTime: '2026-05-12T11:20:30+02:00' } });
    for (const [start, end] of [
      ['2026-05-12T09:30:00-04:00', '2026-05-12T10:50:30-04:00'],
      ['2026-05-12T23:00:00+05:30', '2026-05-13T00:20:30+05:30'],
      ['2026-05-12T13:00:00Z', '2026-05-12T14:20:30Z'],
    ] as const) {
      h.sandbox.control.clearRequests();
      await run({ calendar_id: 'primary', event_id: id, start_datetime: start });
      const patch = sent().find((r) => r.method === 'PATCH') as { body: { end: { dateTime: string } } };
      expect(patch.body.end.dateTime).toBe(end);
      expect(lengthOf(await stored(id))).toBe(80.5 * 60_000);
    }
  });

  it('keeps the time zone given with the new start beside the computed end', async () => {
    const id = await insert({ summary: 'Zoned', start: { dateTime: '2026-05-13T10:00:00+02:00' }, end: { dateTime: '2026-05-13T10:45:00+02:00' } });
    h.sandbox.control.clearRequests();
    await run({ calendar_id: 'primary', event_id: id, start_datetime: '2026-05-13T08:00:00-07:00', timezone: 'America/Los_Angeles' });
    const patch = sent().find((r) => r.method === 'PATCH') as { body: Record<string, unknown> };
    expect(patch.body.end).toEqual({ date: null, dateTime: '2026-05-13T08:45:00-07:00', timeZone: 'America/Los_Angeles' });
  });
});

describe('calendar_update_event: nothing extra is read', () => {
  it.each([
    ['end_datetime given', { start_datetime: '2026-05-14T15:00:00+02:00', end_datetime: '2026-05-14T15:15:00+02:00' }, 15],
    ['event_duration_minutes given', { start_datetime: '2026-05-14T15:00:00+02:00', event_duration_minutes: 20 }, 20],
    ['event_duration_hour given', { start_datetime: '2026-05-14T15:00:00+02:00', event_duration_hour: 3 }, 180],
    ['no start_datetime', { summary: 'Renamed' }, 120],
    ['end_datetime alone', { end_datetime: '2026-05-14T11:00:00+02:00' }, 60],
  ] as const)('%s', async (_, change, minutes) => {
    const id = await insert({ summary: 'Review', start: { dateTime: '2026-05-14T10:00:00+02:00' }, end: { dateTime: '2026-05-14T12:00:00+02:00' } });
    h.sandbox.control.clearRequests();
    await run({ calendar_id: 'primary', event_id: id, ...change });
    expect(sent().map((r) => r.method)).toEqual(['PATCH']);
    expect(lengthOf(await stored(id))).toBe(minutes * 60_000);
  });
});

describe('calendar_update_event: the event read first', () => {
  it('not found: the same refusal as the update gets (404, its hint), and nothing is written', async () => {
    const missing = 'nosuchevent123';
    h.sandbox.control.clearRequests();
    const byStart = await refusal({ calendar_id: 'primary', event_id: missing, start_datetime: '2026-05-15T15:00:00+02:00' });
    expect(sent()).toEqual([{ method: 'GET', path: `/calendar/v3/calendars/primary/events/${missing}` }]);
    const withEnd = await refusal({ calendar_id: 'primary', event_id: missing, start_datetime: '2026-05-15T15:00:00+02:00', end_datetime: '2026-05-15T16:00:00+02:00' });
    expect(withEnd).toMatchObject({ code: 'upstream_error', status: 404 });
    expect(withEnd?.details.hint).toMatch(/No event has this event_id in calendar_id/);
    expect(byStart).toMatchObject({ code: withEnd?.code, status: withEnd?.status });
    expect(byStart?.details).toEqual(withEnd?.details);
    // The message names the request that was refused: the read, where the other names the update.
    expect(byStart?.message.replace(' to GET ', ' to PATCH ')).toBe(withEnd?.message);
  });

  it('an all-day event moved to a time by its start alone is refused at /end_datetime, and left as it was', async () => {
    const id = await insert({ summary: 'Offsite', start: { date: '2026-05-18' }, end: { date: '2026-05-20' } });
    h.sandbox.control.clearRequests();
    const error = await refusal({ calendar_id: 'primary', event_id: id, start_datetime: '2026-05-18T09:00:00+02:00' });
    expect(error?.code).toBe('invalid_input');
    expect(error?.details.violations).toEqual([
      {
        pointer: '/end_datetime',
        keyword: 'event_length',
        message:
          'event_id is an all-day event (start.date 2026-05-18, end.date 2026-05-20, the end day not included); moved to a time it needs its new end: give end_datetime or event_duration_hour/event_duration_minutes with start_datetime',
      },
    ]);
    expect(sent().map((r) => r.method)).toEqual(['GET']);
    const now = await stored(id);
    expect(now.start).toEqual({ date: '2026-05-18' });
    expect(now.end).toEqual({ date: '2026-05-20' });
    // Given its end, it moves.
    await run({ calendar_id: 'primary', event_id: id, start_datetime: '2026-05-18T09:00:00+02:00', event_duration_hour: 8 });
    expect(lengthOf(await stored(id))).toBe(8 * 3_600_000);
  });
});
