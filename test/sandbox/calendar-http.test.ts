import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/start.js';
import type { Sandbox } from '../../sandbox/types.js';
import { clients, clock } from './helpers.js';

const USER = 'http-cal@example.com';
type Body = Record<string, any>;

describe('Calendar fake over HTTP', () => {
  let sb: Sandbox;
  let token: string;
  const c = clock();
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), now: c.now });
    token = sb.control.issueTokens('google', USER, { scopes: ['https://www.googleapis.com/auth/calendar'] }).accessToken;
  });
  afterAll(() => sb.close());

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${sb.endpoints('calendar').apiBaseUrl}/calendar/v3${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });

  it('serves the seeded calendar list at the proxy example path', async () => {
    const res = await api('/users/me/calendarList');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body.items[0]).toMatchObject({ id: USER, primary: true });
  });

  it('inserts with a Meet link, deletes with 204 then 410, and records what it received', async () => {
    sb.control.clearRequests();
    const insert = await api('/calendars/primary/events?conferenceDataVersion=1', {
      method: 'POST',
      body: JSON.stringify({
        summary: 'HTTP',
        start: { dateTime: '2024-05-01T10:00:00Z' },
        end: { dateTime: '2024-05-01T10:30:00Z' },
        conferenceData: { createRequest: { requestId: 'r-http', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
      }),
    });
    expect(insert.status).toBe(200);
    const ev = (await insert.json()) as Body;
    expect(ev.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\//);
    const recorded = sb.control.requests('calendar');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: 'POST', path: '/calendar/v3/calendars/primary/events', status: 200 });
    expect(recorded[0]?.query).toMatchObject({ conferenceDataVersion: '1' });

    const del = await api(`/calendars/primary/events/${ev.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const again = await api(`/calendars/primary/events/${ev.id}`, { method: 'DELETE' });
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ error: { code: 410, errors: [{ domain: 'global', reason: 'deleted' }] } });
  });

  it('enforces the list rules, with repeated query parameters', async () => {
    const bad = await api('/calendars/primary/events?orderBy=startTime');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { message: 'The requested ordering is not available for the particular query.', errors: [{ reason: 'invalid', locationType: 'parameter', location: 'orderBy' }] },
    });
    const ok = await api('/calendars/primary/events?eventTypes=default&eventTypes=focusTime&singleEvents=true&orderBy=startTime');
    expect(ok.status).toBe(200);
  });

  it('renders injected faults in the Calendar shape', async () => {
    sb.control.setFault('calendar', { failNext: { count: 1, status: 503 } });
    const res = await api('/users/me/calendarList');
    expect(res.status).toBe(503);
    const body = (await res.json()) as Body;
    expect(body.error.code).toBe(503);
    expect(body.error.errors[0]).toMatchObject({ domain: 'global', reason: 'backendError' });
    sb.control.clearFaults('calendar');
  });
});
