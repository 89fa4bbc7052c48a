import { describe, expect, it } from 'vitest';
import { calendarEventFilter } from '../../../runtime/helpers/calendar-event-filter.js';
import { ConnectorError } from '../../../runtime/errors.js';

const event = {
  id: 'ev1',
  status: 'confirmed',
  eventType: 'default',
  summary: 'Quarterly planning',
  description: 'Agenda in the doc',
  location: 'Room 4',
  updated: '2026-02-10T08:00:00Z',
  start: { dateTime: '2026-03-02T10:00:00+01:00' },
  end: { dateTime: '2026-03-02T11:00:00+01:00' },
  attendees: [{ email: 'ana@example.com', displayName: 'Ana Silva' }],
  organizer: { email: 'boss@example.com' },
};

const base = { event_id: 'ev1' };

describe('calendarEventFilter', () => {
  const matching: Array<[string, Record<string, unknown>]> = [
    ['no filters', {}],
    ['event type listed', { event_types: ['default', 'focusTime'] }],
    ['query in summary, any case', { query: 'PLANNING' }],
    ['query in attendee name', { query: 'silva' }],
    ['query in organizer e-mail', { query: 'boss@' }],
    ['ends after time_min', { time_min: '2026-03-02T09:30:00Z' }],
    ['starts before time_max', { time_max: '2026-03-02T09:30:00Z' }],
    ['updated at updated_min', { updated_min: '2026-02-10T08:00:00Z' }],
    ['single_events has no effect', { single_events: true }],
  ];
  it.each(matching)('returns the event when it matches: %s', (_name, filters) => {
    expect(calendarEventFilter(event, { ...base, ...filters })).toBe(event);
  });

  const failing: Array<[string, Record<string, unknown>, unknown, string[]]> = [
    ['event type not listed', { event_types: ['focusTime'] }, event, ['event_types']],
    ['unset event type is default', { event_types: ['outOfOffice'] }, { ...event, eventType: undefined }, ['event_types']],
    ['query absent', { query: 'budget' }, event, ['query']],
    ['ends at or before time_min', { time_min: '2026-03-02T10:00:00Z' }, event, ['time_min']],
    ['starts at or after time_max', { time_max: '2026-03-02T09:00:00Z' }, event, ['time_max']],
    ['updated before updated_min', { updated_min: '2026-02-11T00:00:00Z' }, event, ['updated_min']],
    ['cancelled without show_deleted', {}, { ...event, status: 'cancelled' }, ['show_deleted']],
    ['several at once', { query: 'budget', time_max: '2026-01-01T00:00:00Z' }, event, ['query', 'time_max']],
  ];
  it.each(failing)('reports not_found naming the failed filters: %s', (_name, filters, data, failed) => {
    try {
      calendarEventFilter(data, { ...base, ...filters });
      expect.unreachable('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ConnectorError);
      const err = e as ConnectorError;
      expect(err.code).toBe('not_found');
      expect(err.status).toBe(404);
      expect(err.details).toEqual({ event_id: 'ev1', unmatched_filters: failed });
      for (const f of failed) expect(err.message).toContain(f);
    }
  });

  it('returns a cancelled event when show_deleted is true', () => {
    const cancelled = { ...event, status: 'cancelled' };
    expect(calendarEventFilter(cancelled, { ...base, show_deleted: true })).toBe(cancelled);
  });

  it('compares all-day events by their dates', () => {
    const allDay = { ...event, start: { date: '2026-03-02' }, end: { date: '2026-03-03' } };
    expect(calendarEventFilter(allDay, { ...base, time_min: '2026-03-02T12:00:00Z', time_max: '2026-03-02T12:00:00Z' })).toBe(allDay);
  });
});
