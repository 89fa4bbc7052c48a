/**
 * RFC 9207: where a connector names its issuer, the callback must carry exactly that `iss`. The Google connectors
 * declare `https://accounts.google.com` and the sandbox sends it as Google does; this replaces or removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/index.js';
import { startHarness, type Harness } from '../connector-harness.js';

const ISSUER = 'https://accounts.google.com';
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('calendar');
});
afterAll(() => h.close());

async function callbackWith(iss: string | null) {
  const { link } = await h.env.authorizationLink({ connection_name: 'calendar', identifier: `iss-${iss ?? 'none'}` });
  const opened = await h.connector.oauth.openLink(link.split('/').pop() as string);
  const answer = await consent(opened.redirectTo);
  const params = new URLSearchParams(answer.params);
  if (iss === null) params.delete('iss');
  else params.set('iss', iss);
  const connectionId = new URL(answer.location).pathname.split('/')[4] as string;
  return h.connector.oauth.callback(connectionId, params, opened.browserCookie);
}

describe('iss check', () => {
  it('accepts the expected issuer', async () => {
    expect((await callbackWith(ISSUER)).account.status).toBe('ACTIVE');
  });

  it.each([['https://evil.example'], [null]])('refuses iss=%s before any token request', async (iss) => {
    const before = h.sandbox.control.tokenRequestCount('google');
    await expect(callbackWith(iss)).rejects.toMatchObject({ code: 'authorization_failed' });
    expect(h.sandbox.control.tokenRequestCount('google')).toBe(before);
  });
});
