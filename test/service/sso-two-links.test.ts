/**
 * Security review follow-up: opening a second authorization link in the same browser overwrote the one
 * browser-binding cookie, so the first flow failed at its callback. Each flow now has its own cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** A browser's cookie jar, enough for the service's own cookies (name=value, no attributes honoured but expiry). */
class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ') } : {};
  }
}

/** Opens a link as a browser does: its Continue page, then the Continue form; returns the provider URL. */
async function openLink(jar: Jar, link: string): Promise<string> {
  const page = await fetch(link, { redirect: 'manual', headers: jar.header() });
  jar.take(page);
  expect(page.status).toBe(200);
  const nonce = /name="continue" value="([^"]+)"/.exec(await page.text())![1]!;
  const res = await fetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ continue: nonce }).toString(),
  });
  jar.take(res);
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

/** The sandbox's consent form, answered "allow"; returns the callback URL the provider redirects to. */
async function consent(authorizeUrl: string, user: string): Promise<string> {
  await (await fetch(authorizeUrl)).text();
  const res = await fetch(authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: 'allow', user }).toString(),
  });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

describe('two authorization links in one browser', () => {
  it('both flows complete, the first one too', async () => {
    const token = await h.token(h.a);
    const calendar = await h.sandboxConnection(h.a, 'calendar', 'cal-two');
    const crm = await h.sandboxConnection(h.a, 'crm', 'crm-two');
    const make = async (connection_name: string, identifier: string) =>
      (await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name, identifier } })).body.link as string;
    const jar = new Jar();
    const first = await openLink(jar, await make(calendar.name, 'pat'));
    const second = await openLink(jar, await make(crm.name, 'pat'));

    const firstCallback = await fetch(await consent(first, 'pat@example.com'), { redirect: 'manual', headers: jar.header() });
    jar.take(firstCallback);
    expect(firstCallback.status, await firstCallback.text()).toBe(200);
    const secondCallback = await fetch(await consent(second, 'pat@example.com'), { redirect: 'manual', headers: jar.header() });
    jar.take(secondCallback);
    expect(secondCallback.status, await secondCallback.text()).toBe(200);

    const accounts = (await h.call('GET', '/api/v1/connected_accounts?identifier=pat', { token })).body;
    const statuses = JSON.stringify(accounts).match(/"status":"[A-Z_]+"/g);
    expect(statuses).toEqual(['"status":"ACTIVE"', '"status":"ACTIVE"']);
    // Each callback cleared its own binding cookie; the link binding stays for the link's lifetime.
    expect([...jar.cookies.keys()].filter((n) => n.startsWith('ac_oauth_browser'))).toEqual([]);
  });

  it('a flow opened before per-flow names (unsuffixed cookie) still completes', async () => {
    const token = await h.token(h.a);
    const calendar = await h.sandboxConnection(h.a, 'calendar', 'cal-legacy');
    const link = (await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: calendar.name, identifier: 'old' } })).body.link as string;
    const jar = new Jar();
    const authorizeUrl = await openLink(jar, link);
    const [name] = [...jar.cookies.keys()].filter((n) => n.startsWith('ac_oauth_browser_'));
    jar.cookies.set('ac_oauth_browser', jar.cookies.get(name!)!);
    jar.cookies.delete(name!);
    const callback = await fetch(await consent(authorizeUrl, 'old@example.com'), { redirect: 'manual', headers: jar.header() });
    expect(callback.status, await callback.text()).toBe(200);
  });
});
