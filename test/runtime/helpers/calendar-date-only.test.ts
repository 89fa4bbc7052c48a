/**
 * The calendar length rules read a start's shape (isDateOnly), not its validity (formats' `date`): a date-shaped
 * start that is no day of the calendar is refused for the day, and the length parameters are judged as for the
 * all-day event the caller wrote.
 */
import { describe, expect, it } from 'vitest';
import { validateCalendarCreateEvent } from '../../../generated/validators.gen.js';

function refusals(input: Record<string, unknown>): string[] {
  const result = validateCalendarCreateEvent({ calendar_id: 'primary', summary: 'Offsite', ...input });
  return result.ok ? [] : result.violations.map((v) => v.pointer);
}

describe('a date-shaped start that is no day of the calendar (2026-02-30)', () => {
  it('with event_duration_days: refused once, for the day, not also as a start with a time', () => {
    expect(refusals({ start_datetime: '2026-02-30', event_duration_days: 2 })).toEqual(['/start_datetime']);
  });

  it('with event_duration_hour: refused for the day and for the hours, which an all-day event does not take', () => {
    expect(refusals({ start_datetime: '2026-02-30', event_duration_hour: 1 })).toEqual(['/start_datetime', '/event_duration_hour']);
  });
});
