import { expect } from 'vitest';
import type { BuildCase, RefuseCase } from '../harness.js';

const EVENTS = '/calendar/v3/calendars/primary/events';
const start = '2026-03-02T10:00:00+01:00';

export const calendarBuild: BuildCase[] = [
  {
    name: 'minimal event: primary calendar, 30 minutes',
    tool: 'calendar_create_event',
    input: { start_datetime: start, summary: 'Planning' },
    want: {
      method: 'POST', path: EVENTS, query: {}, headers: {},
      body: { summary: 'Planning', start: { dateTime: start }, end: { dateTime: '2026-03-02T10:30:00+01:00' } },
    },
  },
  {
    name: 'every field: Meet link, attendees, recurrence, free, end from the duration',
    tool: 'calendar_create_event',
    input: {
      start_datetime: start, summary: 'Planning', calendar_id: 'team@group.calendar.google.com',
      attendees_emails: ['ana@example.com', 'li@example.com'], create_meeting_room: true, description: 'Agenda',
      event_duration_hour: 1, event_duration_minutes: 30, event_type: 'default', guests_can_invite_others: false,
      guests_can_modify: true, guests_can_see_other_guests: false, location: 'Room 4', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'],
      send_updates: true, timezone: 'Europe/Paris', transparency: 'free', visibility: 'private',
    },
    want: {
      method: 'POST', path: '/calendar/v3/calendars/team%40group.calendar.google.com/events',
      query: { conferenceDataVersion: '1', sendUpdates: 'all' }, headers: {},
      body: {
        summary: 'Planning', description: 'Agenda', location: 'Room 4',
        start: { dateTime: start, timeZone: 'Europe/Paris' },
        end: { dateTime: '2026-03-02T11:30:00+01:00', timeZone: 'Europe/Paris' },
        attendees: [{ email: 'ana@example.com' }, { email: 'li@example.com' }],
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], transparency: 'transparent', visibility: 'private', eventType: 'default',
        guestsCanInviteOthers: false, guestsCanModify: true, guestsCanSeeOtherGuests: false,
        conferenceData: { createRequest: { requestId: expect.any(String), conferenceSolutionKey: { type: 'hangoutsMeet' } } },
      },
    },
  },
  {
    name: 'focus time: the empty focusTimeProperties Google requires',
    tool: 'calendar_create_event',
    input: { start_datetime: start, summary: 'Deep work', event_type: 'focusTime', event_duration_hour: 2 },
    want: {
      method: 'POST', path: EVENTS, query: {}, headers: {},
      body: { summary: 'Deep work', start: { dateTime: start }, end: { dateTime: '2026-03-02T12:00:00+01:00' }, eventType: 'focusTime', focusTimeProperties: {} },
    },
  },
  {
    name: 'busy, no e-mails, no Meet link',
    tool: 'calendar_create_event',
    input: { start_datetime: '2026-03-02T09:00:00Z', summary: 'Focus', transparency: 'busy', send_updates: false, create_meeting_room: false, event_duration_hour: 2 },
    want: {
      method: 'POST', path: EVENTS, query: { sendUpdates: 'none' }, headers: {},
      body: { summary: 'Focus', start: { dateTime: '2026-03-02T09:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' }, transparency: 'opaque' },
    },
  },
  {
    name: 'delete from the primary calendar',
    tool: 'calendar_delete_event',
    input: { event_id: 'ev123' },
    want: { method: 'DELETE', path: `${EVENTS}/ev123`, query: {}, headers: {} },
  },
  {
    name: 'delete from another calendar',
    tool: 'calendar_delete_event',
    input: { event_id: 'ev123', calendar_id: 'c_abc@group.calendar.google.com' },
    want: { method: 'DELETE', path: '/calendar/v3/calendars/c_abc%40group.calendar.google.com/events/ev123', query: {}, headers: {} },
  },
  {
    name: 'get by id: the filters are applied to the result, not sent',
    tool: 'calendar_get_event_by_id',
    input: { event_id: 'ev123', event_types: ['default'], query: 'plan', show_deleted: true, single_events: true, time_min: '2026-03-01T00:00:00Z', time_max: '2026-04-01T00:00:00Z', updated_min: '2026-01-01T00:00:00Z' },
    want: { method: 'GET', path: `${EVENTS}/ev123`, query: {}, headers: {} },
  },
  {
    name: 'list calendars with every option',
    tool: 'calendar_list_calendars',
    input: { max_results: 50, min_access_role: 'writer', page_token: 'p2', show_deleted: true, show_hidden: false },
    want: {
      method: 'GET', path: '/calendar/v3/users/me/calendarList', headers: {},
      query: { maxResults: '50', minAccessRole: 'writer', pageToken: 'p2', showDeleted: 'true', showHidden: 'false' },
    },
  },
  {
    name: 'incremental sync of the calendar list',
    tool: 'calendar_list_calendars',
    input: { sync_token: 'sync-1' },
    want: { method: 'GET', path: '/calendar/v3/users/me/calendarList', headers: {}, query: { syncToken: 'sync-1' } },
  },
  {
    name: 'list events in a window, expanded and ordered',
    tool: 'calendar_list_events',
    input: { max_results: 100, order_by: 'startTime', page_token: 'p', query: 'plan', single_events: true, time_min: '2026-03-01T00:00:00Z', time_max: '2026-03-31T23:59:59+02:00' },
    want: {
      method: 'GET', path: EVENTS, headers: {},
      query: { maxResults: '100', orderBy: 'startTime', pageToken: 'p', q: 'plan', singleEvents: 'true', timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-03-31T23:59:59+02:00' },
    },
  },
  {
    name: 'update only the title',
    tool: 'calendar_update_event',
    input: { calendar_id: 'primary', event_id: 'ev123', summary: 'Renamed' },
    want: { method: 'PATCH', path: `${EVENTS}/ev123`, query: {}, headers: {}, body: { summary: 'Renamed' } },
  },
  {
    // `date: null` beside each new time: Google's PATCH merges into the stored start/end, so an all-day event
    // would otherwise keep its date next to the new dateTime (which Google refuses).
    name: 'move with an explicit end and time zone, notify attendees',
    tool: 'calendar_update_event',
    input: { calendar_id: 'primary', event_id: 'ev123', start_datetime: start, end_datetime: '2026-03-02T12:00:00+01:00', timezone: 'Europe/Paris', send_updates: true },
    want: {
      method: 'PATCH', path: `${EVENTS}/ev123`, query: { sendUpdates: 'all' }, headers: {},
      body: { start: { date: null, dateTime: start, timeZone: 'Europe/Paris' }, end: { date: null, dateTime: '2026-03-02T12:00:00+01:00', timeZone: 'Europe/Paris' } },
    },
  },
  {
    name: 'move with a duration; replace attendees; add a Meet link',
    tool: 'calendar_update_event',
    input: { calendar_id: 'primary', event_id: 'ev123', start_datetime: start, event_duration_minutes: 45, attendees_emails: ['ana@example.com'], create_meeting_room: true },
    want: {
      method: 'PATCH', path: `${EVENTS}/ev123`, query: { conferenceDataVersion: '1' }, headers: {},
      body: {
        start: { date: null, dateTime: start }, end: { date: null, dateTime: '2026-03-02T10:45:00+01:00' }, attendees: [{ email: 'ana@example.com' }],
        conferenceData: { createRequest: { requestId: expect.any(String), conferenceSolutionKey: { type: 'hangoutsMeet' } } },
      },
    },
  },
  {
    name: 'change only the end',
    tool: 'calendar_update_event',
    input: { calendar_id: 'primary', event_id: 'ev123', end_datetime: '2026-03-02T12:00:00+01:00', visibility: 'public', transparency: 'free' },
    want: { method: 'PATCH', path: `${EVENTS}/ev123`, query: {}, headers: {}, body: { end: { date: null, dateTime: '2026-03-02T12:00:00+01:00' }, visibility: 'public', transparency: 'transparent' } },
  },
];

const minimal = { start_datetime: start, summary: 'Planning' };
const upd = { calendar_id: 'primary', event_id: 'ev123' };
export const calendarRefuse: RefuseCase[] = [
  { name: 'start_datetime missing', tool: 'calendar_create_event', input: { summary: 'x' }, pointer: '/start_datetime', names: 'start_datetime' },
  { name: 'summary missing', tool: 'calendar_create_event', input: { start_datetime: start }, pointer: '/summary', names: 'summary' },
  { name: 'start without offset', tool: 'calendar_create_event', input: { ...minimal, start_datetime: '2026-03-02T10:00:00' }, pointer: '/start_datetime', names: 'start_datetime' },
  { name: 'start not RFC 3339', tool: 'calendar_create_event', input: { ...minimal, start_datetime: '02/03/2026 10:00' }, pointer: '/start_datetime', names: 'start_datetime' },
  { name: 'unknown time zone', tool: 'calendar_create_event', input: { ...minimal, timezone: 'Mars/Olympus_Mons' }, pointer: '/timezone', names: 'timezone' },
  { name: 'transparency not free/busy', tool: 'calendar_create_event', input: { ...minimal, transparency: 'opaque' }, pointer: '/transparency', names: 'transparency' },
  { name: 'visibility unknown', tool: 'calendar_create_event', input: { ...minimal, visibility: 'secret' }, pointer: '/visibility', names: 'visibility' },
  { name: 'event_type not insertable', tool: 'calendar_create_event', input: { ...minimal, event_type: 'fromGmail' }, pointer: '/event_type', names: 'event_type' },
  { name: 'minutes over 59', tool: 'calendar_create_event', input: { ...minimal, event_duration_minutes: 60 }, pointer: '/event_duration_minutes', names: 'event_duration_minutes' },
  { name: 'negative hours', tool: 'calendar_create_event', input: { ...minimal, event_duration_hour: -1 }, pointer: '/event_duration_hour', names: 'event_duration_hour' },
  { name: 'recurrence without time zone', tool: 'calendar_create_event', input: { ...minimal, recurrence: ['RRULE:FREQ=DAILY'] }, pointer: '/timezone', names: 'timezone' },
  { name: 'recurrence line not iCalendar', tool: 'calendar_create_event', input: { ...minimal, timezone: 'UTC', recurrence: ['FREQ=DAILY'] }, pointer: '/recurrence/0', names: 'recurrence' },
  { name: 'attendee not an e-mail', tool: 'calendar_create_event', input: { ...minimal, attendees_emails: ['ana'] }, pointer: '/attendees_emails/0', names: 'attendees_emails' },
  { name: 'send_updates not a boolean', tool: 'calendar_create_event', input: { ...minimal, send_updates: 'all' }, pointer: '/send_updates', names: 'send_updates' },
  { name: 'birthday cannot be made from a start time', tool: 'calendar_create_event', input: { ...minimal, event_type: 'birthday' }, pointer: '/event_type', names: 'event_type' },
  { name: 'workingLocation needs properties the tool does not take', tool: 'calendar_create_event', input: { ...minimal, event_type: 'workingLocation' }, pointer: '/event_type', names: 'event_type' },
  { name: 'focus time on another calendar', tool: 'calendar_create_event', input: { ...minimal, event_type: 'focusTime', calendar_id: 'team@group.calendar.google.com' }, pointer: '/calendar_id', names: 'focusTime' },
  { name: 'out of office shown as free', tool: 'calendar_create_event', input: { ...minimal, event_type: 'outOfOffice', transparency: 'free' }, pointer: '/transparency', names: 'outOfOffice' },
  { name: 'event_id missing', tool: 'calendar_delete_event', input: {}, pointer: '/event_id', names: 'event_id' },
  { name: 'event type unknown', tool: 'calendar_get_event_by_id', input: { event_id: 'e', event_types: ['party'] }, pointer: '/event_types/0', names: 'event_types' },
  { name: 'time_min not RFC 3339', tool: 'calendar_get_event_by_id', input: { event_id: 'e', time_min: '2026-03-01' }, pointer: '/time_min', names: 'time_min' },
  { name: 'updated_min not RFC 3339', tool: 'calendar_get_event_by_id', input: { event_id: 'e', updated_min: 'yesterday' }, pointer: '/updated_min', names: 'updated_min' },
  { name: 'max_results over 250', tool: 'calendar_list_calendars', input: { max_results: 251 }, pointer: '/max_results', names: 'max_results' },
  { name: 'min_access_role unknown', tool: 'calendar_list_calendars', input: { min_access_role: 'admin' }, pointer: '/min_access_role', names: 'min_access_role' },
  { name: 'min_access_role with sync_token', tool: 'calendar_list_calendars', input: { min_access_role: 'reader', sync_token: 's' }, pointer: '/min_access_role', names: 'min_access_role' },
  { name: 'max_results 0', tool: 'calendar_list_events', input: { max_results: 0 }, pointer: '/max_results', names: 'max_results' },
  { name: 'max_results over 2500', tool: 'calendar_list_events', input: { max_results: 2501 }, pointer: '/max_results', names: 'max_results' },
  { name: 'order_by unknown', tool: 'calendar_list_events', input: { order_by: 'summary' }, pointer: '/order_by', names: 'order_by' },
  { name: 'order_by startTime without single_events', tool: 'calendar_list_events', input: { order_by: 'startTime' }, pointer: '/single_events', names: 'single_events=true' },
  { name: 'order_by startTime with single_events false', tool: 'calendar_list_events', input: { order_by: 'startTime', single_events: false }, pointer: '/single_events', names: 'single_events=true' },
  { name: 'time_max without offset', tool: 'calendar_list_events', input: { time_max: '2026-03-31T23:59:59' }, pointer: '/time_max', names: 'time_max' },
  { name: 'calendar_id missing', tool: 'calendar_update_event', input: { event_id: 'ev123', summary: 'x' }, pointer: '/calendar_id', names: 'calendar_id' },
  { name: 'event_id missing', tool: 'calendar_update_event', input: { calendar_id: 'primary', summary: 'x' }, pointer: '/event_id', names: 'event_id' },
  { name: 'duration without start', tool: 'calendar_update_event', input: { ...upd, event_duration_hour: 1 }, pointer: '/start_datetime', names: 'start_datetime' },
  { name: 'end and duration together', tool: 'calendar_update_event', input: { ...upd, start_datetime: start, end_datetime: start, event_duration_minutes: 15 }, pointer: '/event_duration_minutes', names: 'event_duration_minutes' },
  { name: 'time zone without start', tool: 'calendar_update_event', input: { ...upd, timezone: 'Europe/Paris' }, pointer: '/start_datetime', names: 'start_datetime' },
  { name: 'end not RFC 3339', tool: 'calendar_update_event', input: { ...upd, end_datetime: 'noon' }, pointer: '/end_datetime', names: 'end_datetime' },
];
