import { describe, expect, it } from 'vitest';
import { proxyPathTemplate } from '../../../runtime/executions/proxy-template.js';

describe('proxyPathTemplate', () => {
  it.each([
    ['/crm/v3/objects/contacts/12345', '/crm/v3/objects/contacts/{}'],
    ['/calendar/v3/calendars/ana@example.com/events', '/calendar/v3/calendars/{}/events'],
    ['/calendar/v3/users/me/calendarList?maxResults=5', '/calendar/v3/users/me/calendarList'],
    ['/v4/spreadsheets/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/values/Sheet1!A1:B2', '/v4/spreadsheets/{}/values/{}:{}'],
    ['/v4/spreadsheets/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms:batchUpdate', '/v4/spreadsheets/{}:batchUpdate'],
    ['/v1/pages/59833787-2cf9-4fdf-8782-e53db20768a5', '/v1/pages/{}'],
    ['/v1/search', '/v1/search'],
    ['/v1beta/things/x', '/v1beta/things/x'],
  ])('%s -> %s', (path, want) => {
    expect(proxyPathTemplate(path)).toBe(want);
  });
});
