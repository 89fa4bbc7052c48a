/**
 * Google refuses an event that does not end after it starts, and a list query whose timeMax is not after its timeMin
 * (400 timeRangeEmpty). The calendar tools refuse those inputs themselves, before anything is sent; the sandbox,
 * which refuses them as Google does, shows what an agent would otherwise get back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
const run = (tool: string, input: Record<string, unknown>) =>
  h.env.executeTool({ tool_name: tool, connection_name: 'cal', identifier: 'ana', tool_input: input });
const pointersOf = (error: unknown) => (error as { details: { violations: Array<{ pointer: string }> } }).details.violations.map((v) => v.pointer);

beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'cal');
  await h.authorize('cal', 'ana');
});
afterAll(() => h.close());

describe('an empty time range, refused by the calendar tools before sending', () => {
  it.each([
    ['calendar_create_event', { summary: 'Marker', start_datetime: '2026-05-04T10:00:00+02:00', event_duration_hour: 0 }, '/event_duration_hour'],
    ['calendar_update_event', { calendar_id: 'primary', event_id: 'ev1', start_datetime: '2026-05-04T10:00:00+02:00', end_datetime: '2026-05-04T08:00:00Z' }, '/end_datetime'],
    ['calendar_list_events', { time_min: '2026-05-04T10:00:00+02:00', time_max: '2026-05-04T08:00:00Z' }, '/time_max'],
  ])('%s', async (tool, input, pointer) => {
    h.sandbox.control.clearRequests();
    const error = await run(tool, input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    expect(pointersOf(error)).toEqual([pointer]);
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('is what the sandbox refuses when sent past the tools, as Google does', async () => {
    const at = { dateTime: '2026-05-04T10:00:00+02:00' };
    const insert = await h.env.proxy({ connection_name: 'cal', identifier: 'ana', method: 'POST', path: '/calendar/v3/calendars/primary/events', body: { summary: 'Marker', start: at, end: at } });
    const list = await h.env.proxy({ connection_name: 'cal', identifier: 'ana', method: 'GET', path: '/calendar/v3/calendars/primary/events', query: { timeMin: '2026-05-04T10:00:00+02:00', timeMax: '2026-05-04T08:00:00Z' } });
    for (const res of [insert, list]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('timeRangeEmpty');
    }
  });

  it('lets a range that ends after it starts through', async () => {
    const made = await run('calendar_create_event', { summary: 'Short', start_datetime: '2026-05-04T10:00:00+02:00', event_duration_hour: 0, event_duration_minutes: 1 });
    const endOf = (data: unknown) => Date.parse((data as { end: { dateTime: string } }).end.dateTime);
    expect(endOf(made.data)).toBe(Date.parse('2026-05-04T10:01:00+02:00'));
    const moved = await run('calendar_update_event', { calendar_id: 'primary', event_id: (made.data as { id: string }).id, start_datetime: '2026-05-04T10:00:00+02:00', end_datetime: '2026-05-04T08:30:00Z' });
    expect(endOf(moved.data)).toBe(Date.parse('2026-05-04T10:30:00+02:00'));
  });
});
