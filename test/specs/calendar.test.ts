import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { tool } from './harness.js';

describe('calendar_list_events: order_by startTime needs single_events true (Google answers 400 otherwise)', () => {
  const t = tool('calendar_list_events');
  it('refuses it with the rule kind as keyword, and accepts the valid combinations', () => {
    const refused = t.validate({ order_by: 'startTime', single_events: false });
    expect(refused.ok ? [] : refused.violations).toEqual([{ pointer: '/single_events', keyword: 'requires_value', message: expect.stringMatching(/^order_by=startTime needs single_events=true/) }]);
    for (const ok of [{ order_by: 'startTime', single_events: true }, { order_by: 'updated' }, { order_by: 'updated', single_events: false }, { single_events: false }]) {
      expect(t.validate(ok), JSON.stringify(ok)).toEqual({ ok: true, value: ok });
    }
  });
});

describe('calendar_list_calendars: a sync_token call cannot turn off deleted or hidden calendars (Google answers 400)', () => {
  const t = tool('calendar_list_calendars');
  it('refuses show_deleted or show_hidden false with sync_token, at the switch; true, absent or no sync_token pass', () => {
    for (const flag of ['show_deleted', 'show_hidden']) {
      const refused = t.validate({ sync_token: 's', [flag]: false });
      expect(refused.ok ? [] : refused.violations).toEqual([{ pointer: `/${flag}`, keyword: 'requires_value', message: expect.stringContaining(`${flag}=false cannot be combined with sync_token`) }]);
      for (const ok of [{ sync_token: 's', [flag]: true }, { [flag]: false }, { sync_token: 's' }]) {
        expect(t.validate(ok), JSON.stringify(ok)).toEqual({ ok: true, value: ok });
      }
    }
  });
});

describe('calendar_get_event_by_id applies its filters to the fetched event', () => {
  const event = { id: 'ev123', status: 'confirmed', summary: 'Planning', start: { dateTime: '2026-03-02T10:00:00+01:00' }, end: { dateTime: '2026-03-02T11:00:00+01:00' }, updated: '2026-02-01T00:00:00Z' };
  const t = tool('calendar_get_event_by_id');

  it('returns a matching event unchanged', () => {
    const input = { event_id: 'ev123', query: 'plan', time_min: '2026-03-01T00:00:00Z', event_types: ['default'] };
    expect(t.validate(input).ok).toBe(true);
    expect(t.transformResponse?.(event, input)).toBe(event);
  });

  it('matches query term by term across the fields, as calendar_list_events does', () => {
    const withGuest = { ...event, attendees: [{ email: 'ana@example.com' }] };
    expect(t.transformResponse?.(withGuest, { event_id: 'ev123', query: 'planning ana' })).toBe(withGuest);
    expect(() => t.transformResponse?.(withGuest, { event_id: 'ev123', query: 'planning bob' })).toThrow(/query/);
  });

  it('reports a non-matching event as not found', () => {
    expect(() => t.transformResponse?.(event, { event_id: 'ev123', time_max: '2026-03-01T00:00:00Z' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => t.transformResponse?.({ ...event, status: 'cancelled' }, { event_id: 'ev123' })).toThrow(/show_deleted/);
  });

  it('is the only tool with a response transform', () => {
    expect(tools.filter((x) => x.transformResponse !== undefined).map((x) => x.name)).toEqual(['calendar_get_event_by_id']);
  });
});

describe('an empty time range is refused before sending (Google answers 400 timeRangeEmpty)', () => {
  const refusedAt = (name: string, input: Record<string, unknown>) => {
    const r = tool(name).validate(input);
    return r.ok ? [] : r.violations.map((v) => `${v.pointer} ${v.keyword}`);
  };

  it('calendar_list_events: time_max must be a later instant than time_min, whatever the offsets', () => {
    expect(refusedAt('calendar_list_events', { time_min: '2026-03-02T10:00:00+01:00', time_max: '2026-03-02T09:00:00Z' })).toEqual(['/time_max later_than']);
    expect(refusedAt('calendar_list_events', { time_min: '2026-03-02T10:00:00Z', time_max: '2026-03-02T09:00:00Z' })).toEqual(['/time_max later_than']);
    for (const ok of [{ time_min: '2026-03-02T10:00:00+01:00', time_max: '2026-03-02T09:00:01Z' }, { time_max: '2026-03-02T09:00:00Z' }, { time_min: '2026-03-02T09:00:00Z' }]) {
      expect(refusedAt('calendar_list_events', ok), JSON.stringify(ok)).toEqual([]);
    }
    // A value that is no date-time is the format's violation alone, not also this rule's.
    expect(refusedAt('calendar_list_events', { time_min: 'soon', time_max: '2026-03-02T09:00:00Z' })).toEqual(['/time_min format']);
  });

  it('calendar_update_event: end_datetime after start_datetime, when both are given', () => {
    const base = { calendar_id: 'primary', event_id: 'ev1' };
    expect(refusedAt('calendar_update_event', { ...base, start_datetime: '2026-03-02T10:00:00+01:00', end_datetime: '2026-03-02T09:00:00Z' })).toEqual(['/end_datetime later_than']);
    expect(refusedAt('calendar_update_event', { ...base, start_datetime: '2026-03-02T10:00:00+01:00', end_datetime: '2026-03-02T10:01:00+01:00' })).toEqual([]);
    // The stored start is not known here: an end alone goes to Google, which judges it against the event.
    expect(refusedAt('calendar_update_event', { ...base, end_datetime: '2020-01-01T00:00:00Z' })).toEqual([]);
  });

  it.each(['calendar_create_event', 'calendar_update_event'])('%s: a duration of 0 hours and 0 minutes, at the last one given', (name) => {
    const base = name === 'calendar_create_event' ? { summary: 'x', start_datetime: '2026-03-02T10:00:00+01:00' } : { calendar_id: 'primary', event_id: 'ev1', start_datetime: '2026-03-02T10:00:00+01:00' };
    expect(refusedAt(name, { ...base, event_duration_hour: 0 })).toEqual(['/event_duration_hour not_all_zero']);
    expect(refusedAt(name, { ...base, event_duration_minutes: 0 })).toEqual(['/event_duration_minutes not_all_zero']);
    expect(refusedAt(name, { ...base, event_duration_hour: 0, event_duration_minutes: 0 })).toEqual(['/event_duration_minutes not_all_zero']);
    for (const ok of [{}, { event_duration_hour: 0, event_duration_minutes: 15 }, { event_duration_hour: 1, event_duration_minutes: 0 }, { event_duration_hour: 2 }]) {
      expect(refusedAt(name, { ...base, ...ok }), JSON.stringify(ok)).toEqual([]);
    }
  });
});
