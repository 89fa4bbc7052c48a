/**
 * Security review, items 2 and 3, through the running service:
 * - 3: a HEAD or GET of a link (scanners, unfurlers, mail gateways) binds nothing and writes nothing; only the
 *   Continue form of a page the browser loaded binds the link and starts the flow;
 * - 2: a link holds one pending state, handed out again while valid (2,000 opens gave 2,000 rows), and link opens are
 *   rate-limited per client address.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox, continueLink } from '../../../runtime/cli/consent.js';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false, linkOpenRateLimit: { max: 100, windowMs: 60_000 } });
  token = await h.token(h.a);
  await h.sandboxConnection(h.a, 'calendar', 'cal');
});
afterAll(() => h?.close());

const newLink = async (identifier: string): Promise<string> =>
  (await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal', identifier } })).body.link;
const linkHash = (link: string) => createHash('sha256').update(link.split('/').pop()!).digest('hex');

describe('only a real navigation binds a link (item 3)', () => {
  it('HEAD and GET from a scanner bind nothing; the person who presses Continue then completes the flow', async () => {
    const link = await newLink('scanned');
    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const get = await fetch(link, { redirect: 'manual' });
      expect(get.status).toBe(200);
      expect(get.headers.get('location')).toBeNull();
      expect(get.headers.getSetCookie().some((c) => c.startsWith('ac_oauth_link='))).toBe(false);
      const page = await get.text();
      expect(page).toContain('Continue');
      expect(page).toContain('Google Calendar');
    }
    // Nothing was bound nor written for the link.
    expect((await h.connector.store.getAuthLink(linkHash(link)))?.browserHash).toBeUndefined();
    expect(await h.connector.store.getLinkOAuthState(linkHash(link))).toBeNull();

    const consent = await consentThroughSandbox(link, { user: 'scanned@example.com' });
    expect(consent.status).toBe(200);
    expect(consent.page).toContain('Connected');
  });

  it('a POST without the page\'s one-time value (a scanner submitting forms, a cross-site form) binds nothing', async () => {
    const link = await newLink('posted');
    const blind = await fetch(link, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'continue=1' });
    expect(blind.status).toBe(400);
    expect(await blind.text()).toContain('press Continue');
    // The value from another page load does not fit this browser's cookie either.
    const elsewhere = await fetch(link);
    const nonce = /name="continue" value="([^"]+)"/.exec(await elsewhere.text())![1]!;
    const replayed = await fetch(link, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `continue=${nonce}` });
    expect(replayed.status).toBe(400);
    expect((await h.connector.store.getAuthLink(linkHash(link)))?.browserHash).toBeUndefined();
    expect((await consentThroughSandbox(link, { user: 'posted@example.com' })).status).toBe(200);
  });

  it('keeps the browser binding: once continued, another browser gets the refusal page at the first GET', async () => {
    const link = await newLink('bound');
    await continueLink(link);
    const other = await fetch(link, { redirect: 'manual' });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('already opened in another browser');
  });
});

describe('one pending state per link, and a rate limit on opens (item 2)', () => {
  it('opening a link again and again reuses its one pending state', async () => {
    const link = await newLink('reopened');
    let browser = await continueLink(link);
    const state = new URL(browser.authorizeUrl).searchParams.get('state');
    for (let i = 0; i < 15; i++) {
      browser = await continueLink(link, browser.cookie);
      expect(new URL(browser.authorizeUrl).searchParams.get('state')).toBe(state);
    }
    const pending = await h.connector.store.getLinkOAuthState(linkHash(link));
    expect(pending?.stateHash).toBe(createHash('sha256').update(state!).digest('hex'));
    // The last browser-binding value is the one that completes the flow.
    const consented = await fetch(browser.authorizeUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=allow&user=reopened@example.com',
    });
    const callback = await fetch(consented.headers.get('location')!, { redirect: 'manual', headers: { cookie: browser.cookie } });
    expect(callback.status).toBe(200);
    // Consumed by the callback: the next open starts a new state.
    expect(await h.connector.store.getLinkOAuthState(linkHash(link))).toBeNull();
  });

  it('answers 429 with Retry-After past the per-address budget', async () => {
    const link = await newLink('flood');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 105; i++) {
      const res = await fetch(link, { redirect: 'manual' });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(100);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
