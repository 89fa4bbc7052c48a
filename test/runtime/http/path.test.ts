import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../runtime/errors.js';
import { buildPath } from '../../../runtime/http/path.js';

describe('buildPath', () => {
  it('fills placeholders, encoding each value as one segment', () => {
    expect(buildPath('/calendar/v3/calendars/{calendar_id}/events/{event_id}', { calendar_id: 'a/b c@x.org', event_id: 42 })).toBe('/calendar/v3/calendars/a%2Fb%20c%40x.org/events/42');
    expect(buildPath('/v4/spreadsheets/{id}/values/{range}', { id: 's1', range: "'My Sheet'!A1:B2" })).toBe("/v4/spreadsheets/s1/values/'My%20Sheet'!A1%3AB2");
  });

  it.each([[''], ['.'], ['..'], [undefined]])('refuses %j, naming the parameter', (value) => {
    let error: unknown;
    try {
      buildPath('/v1/pages/{page_id}', { page_id: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe('invalid_input');
    expect((error as ConnectorError).message).toMatch(/^page_id /);
    expect((error as ConnectorError).details).toEqual({ violations: [expect.objectContaining({ pointer: '/page_id' })] });
  });

  it('returns a template without placeholders as it is, and keeps the text between and after them', () => {
    expect(buildPath('/v1/users/me', {})).toBe('/v1/users/me');
    expect(buildPath('/a/{x}:batchUpdate', { x: 'd 1' })).toBe('/a/d%201:batchUpdate');
    expect(buildPath('{x}{y}', { x: 'p', y: 'q' })).toBe('pq');
  });

  it('keeps encoded dots harmless: ..%2F is one literal segment', () => {
    expect(buildPath('/v1/{x}', { x: '../admin' })).toBe('/v1/..%2Fadmin');
  });
});
