/**
 * calendar_free_busy end to end: the executor against the sandbox's freeBusy.query. Events made with
 * calendar_create_event (busy, shown as free, overlapping) come back as merged busy intervals; a calendar whose
 * availability cannot be seen is an error entry, not free; what the spec refuses is never sent; what only Google
 * refuses (a range too long) comes back with the spec's hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
const run = (tool: string, input: Record<string, unknown>) =>
  h.env.executeTool({ tool_name: tool, connection_name: 'cal', identifier: 'ana', tool_input: input });
type Data = { calendars: Record<string, { busy: Array<{ start: string; end: string }>; errors?: Array<{ domain: string; reason: string }> }> };

beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'cal');
  await h.authorize('cal', 'ana');
});
afterAll(() => h.close());

describe('calendar_free_busy', () => {
  it('answers busy intervals: overlapping events merged, an event shown as free left out', async () => {
    await run('calendar_create_event', { summary: 'Review', start_datetime: '2026-06-04T14:00:00+02:00', event_duration_hour: 1 });
    await run('calendar_create_event', { summary: 'Overlap', start_datetime: '2026-06-04T14:30:00+02:00', event_duration_hour: 1 });
    await run('calendar_create_event', { summary: 'Optional', start_datetime: '2026-06-04T16:00:00+02:00', event_duration_hour: 1, transparency: 'free' });

    const res = await run('calendar_free_busy', { time_min: '2026-06-04T13:00:00+02:00', time_max: '2026-06-04T18:00:00+02:00', timezone: 'Europe/Paris' });
    const data = res.data as Data;
    expect(data).toMatchObject({ kind: 'calendar#freeBusy', timeMin: '2026-06-04T11:00:00.000Z', timeMax: '2026-06-04T16:00:00.000Z' });
    expect(data.calendars).toEqual({ primary: { busy: [{ start: '2026-06-04T14:00:00+02:00', end: '2026-06-04T15:30:00+02:00' }] } });
  });

  it('answers a calendar whose availability cannot be seen with a notFound error entry, beside the others', async () => {
    const res = await run('calendar_free_busy', { time_min: '2026-06-04T00:00:00Z', time_max: '2026-06-05T00:00:00Z', calendar_ids: ['primary', 'stranger@elsewhere.test'] });
    const data = res.data as Data;
    expect(data.calendars.primary?.busy).toEqual([{ start: '2026-06-04T12:00:00Z', end: '2026-06-04T13:30:00Z' }]);
    expect(data.calendars['stranger@elsewhere.test']).toEqual({ errors: [{ domain: 'global', reason: 'notFound' }], busy: [] });
  });

  it.each([
    ['an empty range', { time_min: '2026-06-04T18:00:00+02:00', time_max: '2026-06-04T13:00:00+02:00' }, '/time_max'],
    ['more than 50 calendars', { time_min: '2026-06-04T00:00:00Z', time_max: '2026-06-05T00:00:00Z', calendar_ids: Array.from({ length: 51 }, (_, i) => `c${i}@example.com`) }, '/calendar_ids'],
    ['no time_max', { time_min: '2026-06-04T00:00:00Z' }, '/time_max'],
  ])('refuses %s before sending', async (_what, input, pointer) => {
    h.sandbox.control.clearRequests();
    const error = await run('calendar_free_busy', input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    expect((error as { details: { violations: Array<{ pointer: string }> } }).details.violations.map((v) => v.pointer)).toEqual([pointer]);
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it("passes Google's refusal of a range too long on, with the hint to split it", async () => {
    const error = await run('calendar_free_busy', { time_min: '2026-01-01T00:00:00Z', time_max: '2026-12-31T00:00:00Z' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error', details: { status: 400, hint: expect.stringContaining('split the range') } });
    expect((error as Error).message).toContain('The requested time range is too long.');
  });
});
