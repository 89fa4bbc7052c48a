/**
 * RFC 9207: where a connector names its issuer, the callback must carry exactly that `iss`. None of the five real
 * providers does today, so this runs a copy of the calendar connector that declares one (the sandbox does not send
 * `iss`, so the test adds it to the callback as a provider would).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consent } from '../../../sandbox/index.js';
import { loadDefinitions, startHarness, type Harness } from '../connector-harness.js';

const ISSUER = 'https://accounts.google.com';
let h: Harness;
beforeAll(async () => {
  const defs = await loadDefinitions();
  const connectors = defs.connectors.map((c) => (c.name === 'calendar' ? { ...c, oauth: { ...c.oauth, issuer: ISSUER } } : c));
  h = await startHarness({ runtime: { definitions: { tools: defs.tools, connectors } } });
  await h.connection('calendar');
});
afterAll(() => h.close());

async function callbackWith(iss: string | null) {
  const { link } = await h.env.authorizationLink({ connection_name: 'calendar', identifier: `iss-${iss ?? 'none'}` });
  const opened = await h.connector.oauth.openLink(link.split('/').pop() as string);
  const answer = await consent(opened.redirectTo);
  const params = new URLSearchParams(answer.params);
  if (iss !== null) params.set('iss', iss);
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
