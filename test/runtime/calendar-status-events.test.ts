/**
 * Focus time and out of office exist only on the user's primary calendar, which is named `primary` or by its id (the
 * user's e-mail address, listed by calendar_list_calendars with primary true): the user's own calendar named by its id
 * is taken; a shared (group) calendar is refused before anything is sent; any other address is left to Google.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
const run = (tool_name: string, tool_input: Record<string, unknown>) => h.env.executeTool({ tool_name, connection_name: 'cal', identifier: 'ana', tool_input });

beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar', 'cal');
  await h.authorize('cal', 'ana');
});
afterAll(() => h.close());

describe('calendar_create_event with a status event type', () => {
  it("is created on the user's primary calendar named by its id, as by primary", async () => {
    const calendars = (await run('calendar_list_calendars', {})).data as { items: Array<{ id: string; primary?: boolean }> };
    const own = calendars.items.find((c) => c.primary === true)!.id;
    for (const event_type of ['focusTime', 'outOfOffice']) {
      const made = await run('calendar_create_event', { calendar_id: own, summary: 'Deep work', start_datetime: '2026-12-03T09:00:00+01:00', event_type, event_duration_hour: 2 });
      expect(made.data).toMatchObject({ eventType: event_type });
    }
  });

  it('on a shared calendar is refused before anything is sent; an address that may be a calendar of its own is sent', async () => {
    const calendars = (await run('calendar_list_calendars', { min_access_role: 'writer' })).data as { items: Array<{ id: string; primary?: boolean }> };
    const team = calendars.items.find((c) => c.primary !== true)!.id;
    expect(team).toMatch(/@group\.calendar\.google\.com$/);
    h.sandbox.control.clearRequests();
    const shared = await run('calendar_create_event', { calendar_id: team, summary: 'Deep work', start_datetime: '2026-12-03T09:00:00+01:00', event_type: 'focusTime' }).catch((e: unknown) => e);
    expect(shared).toMatchObject({ code: 'invalid_input', details: { violations: [{ pointer: '/calendar_id', keyword: 'check' }] } });
    expect((shared as Error).message).toContain("focusTime events are only available on the user's primary calendar");
    expect(h.sandbox.control.requests()).toHaveLength(0);
    // A colleague's calendar is named like the user's own: Google decides (here, a calendar this user cannot reach).
    const colleague = await run('calendar_create_event', { calendar_id: 'li@example.com', summary: 'Deep work', start_datetime: '2026-12-03T09:00:00+01:00', event_type: 'outOfOffice' }).catch((e: unknown) => e);
    expect(colleague).toMatchObject({ code: 'upstream_error' });
    expect(h.sandbox.control.requests()).toHaveLength(1);
  });
});
