/**
 * Security review, item 9 (RFC 9207): Google sends `iss=https://accounts.google.com` with every authorization
 * response, and the Google connectors now declare that issuer (HubSpot and Notion send none and declare none). The
 * sandbox sends it as Google does; a callback with a forged or missing `iss` is refused before any token request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors } from '../../../generated/connectors.gen.js';
import { consent } from '../../../sandbox/consent-driver.js';
import { startHarness, type Harness } from '../harness.js';
import { openLinkInBrowser } from './helpers.js';

const GOOGLE = 'https://accounts.google.com';
let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  token = await h.token(h.a);
  await h.sandboxConnection(h.a, 'calendar', 'cal');
});
afterAll(() => h?.close());

async function callbackWith(identifier: string, iss: string | null, decision: 'allow' | 'deny' = 'allow') {
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal', identifier } });
  const browser = await openLinkInBrowser(link.body.link);
  const answer = await consent(browser.authorizeUrl, { user: `${identifier}@example.com`, decision });
  const sentIss = answer.params.get('iss');
  const callback = new URL(answer.location);
  if (iss === null) callback.searchParams.delete('iss');
  else callback.searchParams.set('iss', iss);
  const res = await fetch(callback, { redirect: 'manual', headers: { cookie: browser.cookie } });
  return { status: res.status, page: await res.text(), sentIss };
}

describe('iss in the authorization response (item 9)', () => {
  it('declares the issuer for the Google connectors only', async () => {
    const issuers = Object.fromEntries(Object.values(connectors).map((c) => [c.name, c.oauth.issuer]));
    expect(issuers).toEqual({ calendar: GOOGLE, sheets: GOOGLE, docs: GOOGLE, crm: null, workspace: null });
  });

  it('accepts the callback the sandbox sends, with Google issuer', async () => {
    const res = await callbackWith('good', GOOGLE);
    expect(res.sentIss).toBe(GOOGLE);
    expect(res.status).toBe(200);
    expect(res.page).toContain('Connected');
  });

  it.each([['a forged issuer', 'https://evil.example'], ['a look-alike', 'https://accounts.google.com/'], ['no iss at all', null]])(
    'refuses %s before any token request',
    async (_label, iss) => {
      const before = h.sandbox.control.tokenRequestCount('google');
      const res = await callbackWith(`forged-${Math.random().toString(36).slice(2, 8)}`, iss);
      expect(res.status).toBe(400);
      expect(res.page).toContain('did not come from the expected issuer');
      expect(h.sandbox.control.tokenRequestCount('google')).toBe(before);
    },
  );

  it('checks iss on error responses too', async () => {
    const res = await callbackWith('denied', 'https://evil.example', 'deny');
    expect(res.page).toContain('did not come from the expected issuer');
  });
});
