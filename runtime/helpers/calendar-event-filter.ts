import { ConnectorError } from '../errors.js';

/** The filter parameters of `calendar_get_event_by_id` (the rest of its input is ignored here). */
export interface CalendarEventFilterInput {
  event_id: string;
  event_types?: readonly string[];
  query?: string;
  show_deleted?: boolean;
  single_events?: boolean;
  time_min?: string;
  time_max?: string;
  updated_min?: string;
}

interface EventPerson { email?: string; displayName?: string }
interface EventLike {
  status?: string;
  eventType?: string;
  summary?: string;
  description?: string;
  location?: string;
  updated?: string;
  start?: { dateTime?: string; date?: string };
  end?: { dateTime?: string; date?: string };
  attendees?: EventPerson[];
  organizer?: EventPerson;
  creator?: EventPerson;
}

function instant(t?: { dateTime?: string; date?: string }): number | undefined {
  const v = t?.dateTime ?? t?.date;
  if (v === undefined) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Applies the list-style filters of `calendar_get_event_by_id` to the one event `events.get` returned, because
 * `events.get` itself takes none of them. The semantics are those of `events.list`, so the same event is "found"
 * by both tools:
 * - `event_types`: the event's `eventType` (`default` when unset) is one of them;
 * - `query`: every whitespace-separated term found (case-insensitive) in the summary, description, location, or an
 *   attendee's/organizer's name or e-mail, each term in any of them;
 * - `show_deleted`: a cancelled event is only returned when true;
 * - `time_min`: the event ends after it; `time_max`: the event starts before it;
 * - `updated_min`: the event was last modified at or after it;
 * - `single_events`: no effect on a single fetched event (an instance id returns that instance, a series id the series).
 *
 * An event that fails a filter is reported as not found, naming the filters it failed; a cancelled event that fails
 * show_deleted alone is said to be deleted, with show_deleted: true to read it anyway.
 * @see https://developers.google.com/calendar/api/v3/reference/events/list
 */
export function calendarEventFilter(data: unknown, input: CalendarEventFilterInput): unknown {
  const ev = (data ?? {}) as EventLike;
  const failed: string[] = [];
  if (input.event_types !== undefined && !input.event_types.includes(ev.eventType ?? 'default')) failed.push('event_types');
  const terms = (input.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length > 0) {
    const people = [...(ev.attendees ?? []), ev.organizer, ev.creator].filter((p): p is EventPerson => p !== undefined);
    const hay = [ev.summary, ev.description, ev.location, ...people.flatMap((p) => [p.email, p.displayName])]
      .filter((s): s is string => typeof s === 'string')
      .map((s) => s.toLowerCase());
    if (!terms.every((term) => hay.some((s) => s.includes(term)))) failed.push('query');
  }
  if (ev.status === 'cancelled' && input.show_deleted !== true) failed.push('show_deleted');
  if (input.time_min !== undefined) {
    const end = instant(ev.end) ?? instant(ev.start);
    if (end === undefined || !(end > Date.parse(input.time_min))) failed.push('time_min');
  }
  if (input.time_max !== undefined) {
    const start = instant(ev.start);
    if (start === undefined || !(start < Date.parse(input.time_max))) failed.push('time_max');
  }
  if (input.updated_min !== undefined) {
    const updated = ev.updated === undefined ? NaN : Date.parse(ev.updated);
    if (Number.isNaN(updated) || updated < Date.parse(input.updated_min)) failed.push('updated_min');
  }
  if (failed.length > 0) {
    // A cancelled event read without show_deleted is the one just deleted, most often: say so, not "a filter" the
    // caller may never have sent.
    const message =
      failed.length === 1 && failed[0] === 'show_deleted'
        ? `Event ${input.event_id} is deleted (its status is cancelled): send show_deleted: true to read it anyway.`
        : `Event ${input.event_id} exists but does not match the filters: ${failed.join(', ')}${failed.includes('show_deleted') ? ' (show_deleted: it is deleted, its status cancelled)' : ''}`;
    throw new ConnectorError('not_found', message, {
      details: { event_id: input.event_id, unmatched_filters: failed },
    });
  }
  return data;
}
