/**
 * The dashboard's list pages read their address strictly but never fail on it: a filter given twice
 * (`?identifier=a&identifier=b`, which the query parser reads as a list) answered 500 on the execution history, since
 * the page trimmed each filter as a string. It is now the list page, saying (in the API's words) that the filter is
 * refused. Without a browser: the pages' status and content are what is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await startHarness();
  const login = await fetch(`${h.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
    body: new URLSearchParams({ client_id: h.a.clientId, client_secret: h.a.clientSecret }).toString(),
  });
  cookie = login.headers.getSetCookie().find((c) => c.startsWith('ac_session='))!.split(';')[0]!;
});
afterAll(async () => h?.close());

describe('a list page whose address repeats a parameter', () => {
  it.each([
    '/executions?identifier=a&identifier=b',
    '/executions?tool=x&tool=y',
    '/executions?outcome=success&outcome=error',
    '/executions?connection_name=a&connection_name=b&error_code=c&error_code=d',
    '/executions?cursor=a&cursor=b&back=c&back=d',
    '/webhooks?endpoint_id=a&endpoint_id=b&status=failed&status=delivered',
  ])('%s is the list page saying the repeated filter is refused, not an error page', async (address) => {
    const res = await fetch(`${h.url}/dashboard${address}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('Error · agent-connector');
    // The API's rule (filter-errors.test.ts): a parameter given twice is a list, and the filter must be one value.
    const name = new URL(address, 'http://x').searchParams.keys().next().value!;
    expect(html).toMatch(new RegExp(`role="alert">[^<]*${name} must be`));
  });
});
