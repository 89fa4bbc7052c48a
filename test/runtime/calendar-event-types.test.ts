/**
 * The calendar tools against Google's event rules, end to end through the executor and the sandbox:
 * PATCH merges into the stored start/end (so moving an all-day event to a time must clear its date), an event's
 * type cannot change after creation, and the status event types the create tool offers are ones it can satisfy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
const call = (tool: string, input: Record<string, unknown>) =>
  h.env.executeTool({ tool_name: tool, connection_name: 'cal', identifier: 'ana', tool_input: input }).then((r) => r.data as Record<string, any>);

beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'cal');
  await h.authorize('cal', 'ana');
});
afterAll(() => h.close());

describe('calendar_update_event on Google PATCH semantics', () => {
  it('moves an all-day event to a time (the stored date is cleared, not left beside the new time)', async () => {
    const allDay = await h.env.proxy({
      connection_name: 'cal',
      identifier: 'ana',
      method: 'POST',
      path: '/calendar/v3/calendars/primary/events',
      body: { summary: 'Offsite', start: { date: '2026-05-04' }, end: { date: '2026-05-05' } },
    });
    expect(allDay.status).toBe(200);
    const id = (allDay.body as { id: string }).id;

    const moved = await call('calendar_update_event', { calendar_id: 'primary', event_id: id, start_datetime: '2026-05-04T10:00:00+02:00', event_duration_hour: 2, timezone: 'Europe/Paris' });
    expect(moved.start).toEqual({ dateTime: '2026-05-04T10:00:00+02:00', timeZone: 'Europe/Paris' });
    expect(moved.end).toEqual({ dateTime: '2026-05-04T12:00:00+02:00', timeZone: 'Europe/Paris' });
    expect(moved.start.date).toBeUndefined();
  });

  it("refuses to change an event's type, with Google's own refusal passed on", async () => {
    const created = await call('calendar_create_event', { start_datetime: '2026-05-05T10:00:00+02:00', summary: 'Sync' });
    const error = await h.env
      .executeTool({ tool_name: 'calendar_update_event', connection_name: 'cal', identifier: 'ana', tool_input: { calendar_id: 'primary', event_id: created.id, event_type: 'outOfOffice' } })
      .then(() => undefined, (e: unknown) => e as { code: string; details: Record<string, unknown> });
    expect(error).toMatchObject({ code: 'upstream_error' });
    expect(JSON.stringify(error?.details)).toContain('Event type cannot be changed');
  });
});

describe('calendar_create_event status types', () => {
  it('creates focus time and out of office events Google accepts (with the empty properties it requires)', async () => {
    for (const type of ['focusTime', 'outOfOffice'] as const) {
      const made = await call('calendar_create_event', { start_datetime: '2026-05-06T09:00:00+02:00', summary: type, event_type: type, event_duration_hour: 3 });
      expect(made.eventType).toBe(type);
      expect(made[`${type}Properties`]).toEqual({});
    }
    const sent = h.sandbox.control.requests('calendar').filter((r) => r.method === 'POST').at(-1)!;
    expect(sent.body).toMatchObject({ eventType: 'outOfOffice', outOfOfficeProperties: {} });
  });

  it('refuses, before anything is sent, what Google would refuse for a status event', async () => {
    h.sandbox.control.clearRequests();
    for (const input of [
      { event_type: 'focusTime', calendar_id: 'team@group.calendar.google.com' },
      { event_type: 'outOfOffice', transparency: 'free' },
      { event_type: 'birthday' },
      { event_type: 'workingLocation' },
    ]) {
      const error = await h.env
        .executeTool({ tool_name: 'calendar_create_event', connection_name: 'cal', identifier: 'ana', tool_input: { start_datetime: '2026-05-06T09:00:00+02:00', summary: 'x', ...input } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    }
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });
});
