/**
 * The pages an end user sees name the system the same way from the link to the end: the service's "Connected" page
 * names it as the link's page did ("HubSpot", "Notion"), for each of the five, not by the connector's id (`crm`,
 * `workspace`), which the user never saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { CONNECTOR_NAMES } from '../../runtime/types.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('the Connected page', () => {
  it.each(CONNECTOR_NAMES.map((c) => [c]))('names %s as the link page did', async (connector) => {
    await h.sandboxConnection(h.a, connector, `named-${connector}`);
    const token = await h.token(h.a);
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: `named-${connector}`, identifier: `named-${connector}-user` } });
    expect(link.status).toBe(200);
    const continuePage = await (await fetch(link.body.link)).text();
    const named = /Connect your (.+?) account/.exec(continuePage)?.[1];
    expect(named).toBeDefined();
    const consent = await consentThroughSandbox(link.body.link);
    expect(consent.status).toBe(200);
    expect(consent.page).toContain(`Your ${named} account is connected (named-${connector}).`);
  });
});
