/**
 * Security review: an authorization link could be reused from any browser for an hour. Now the first browser that
 * opens it owns it; the same browser may open it again, any other is refused with a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let link: string;
beforeAll(async () => {
  h = await startHarness();
  const token = await h.token(h.a);
  const connection = await h.sandboxConnection(h.a, 'calendar', 'cal-binding');
  const made = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: connection.name, identifier: 'victim' } });
  expect(made.status).toBe(200);
  link = made.body.link;
});
afterAll(() => h?.close());

/**
 * A browser opening the link: the Continue page (a 400 page when the link is refused), then the Continue form.
 * `cookie` is what the browser already holds for the link's path.
 */
async function open(url: string, cookie?: string): Promise<{ status: number; location: string | null; linkCookie: string | undefined; page: string }> {
  const page = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, location: page.headers.get('location'), linkCookie: undefined, page: html };
  const nonce = /name="continue" value="([^"]+)"/.exec(html)![1]!;
  const continueCookie = page.headers.getSetCookie().find((c) => c.startsWith('ac_oauth_continue='))!.split(';')[0]!;
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [cookie, continueCookie].filter(Boolean).join('; ') },
    body: new URLSearchParams({ continue: nonce }).toString(),
  });
  const linkCookie = res.headers.getSetCookie().find((c) => c.startsWith('ac_oauth_link='));
  return { status: res.status, location: res.headers.get('location'), linkCookie: linkCookie?.split(';')[0], page: await res.text() };
}

describe('authorization link bound to the first browser', () => {
  it('the first open binds it; another browser (no cookie, or its own) is refused with a page; the first may reopen', async () => {
    const first = await open(link);
    expect(first.status).toBe(303);
    expect(first.linkCookie).toMatch(/^ac_oauth_link=[A-Za-z0-9_-]{43}$/);

    const stranger = await open(link);
    expect(stranger.status).toBe(400);
    expect(stranger.location).toBeNull();
    expect(stranger.page).toContain('already opened in another browser');
    expect(stranger.page).toContain('authorization_failed');

    const otherBrowser = await open((await h.call('POST', '/api/v1/connected_accounts/magic_link', {
      token: await h.token(h.a), body: { connection_name: 'cal-binding', identifier: 'attacker' },
    })).body.link);
    expect(otherBrowser.status).toBe(303);
    expect((await open(link, otherBrowser.linkCookie)).status).toBe(400);

    // Back button: the same browser opens it again and gets the link's pending state again (one per link).
    const again = await open(link, first.linkCookie);
    expect(again.status).toBe(303);
    expect(new URL(again.location!).searchParams.get('state')).toBe(new URL(first.location!).searchParams.get('state'));
    expect(again.linkCookie).toBe(first.linkCookie);
  });

  it('a link opened once still completes the flow in that browser', async () => {
    const made = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token: await h.token(h.a), body: { connection_name: 'cal-binding', identifier: 'fresh' } });
    const consent = await consentThroughSandbox(made.body.link, { user: 'fresh@example.com' });
    expect(consent.status).toBe(200);
    expect((await open(made.body.link)).status).toBe(400);
  });
});
