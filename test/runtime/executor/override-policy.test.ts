/**
 * A connection's stored API base override is checked again when a tool call uses it: a policy stricter than the one
 * in force when the connection was written refuses the call before anything is sent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConnectionOverridePolicy } from '../../../runtime/connection-override-policy.js';
import { createConnector } from '../../../runtime/connector.js';
import { BASE_URL, ENV, loadDefinitions, startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('crm');
  await h.authorize('crm', 'policy-user');
});
afterAll(async () => {
  await h?.close();
});

/** The same call through another connector on the same store, under `policy`. */
async function callUnder(policy: ConnectionOverridePolicy): Promise<unknown> {
  const other = await createConnector({ baseUrl: BASE_URL, store: h.store, definitions: await loadDefinitions(), connectionOverrides: policy });
  try {
    return await other.environment(ENV).executeTool({ tool_name: 'crm_contacts_list', identifier: 'policy-user', tool_input: { limit: 1 } });
  } finally {
    await other.close();
  }
}

it('refuses a tool call whose stored apiBaseUrl the policy no longer allows, sending nothing', async () => {
  const call = () => h.env.executeTool({ tool_name: 'crm_contacts_list', identifier: 'policy-user', tool_input: { limit: 1 } });
  await expect(call()).resolves.toMatchObject({ data: { results: expect.any(Array) } });

  h.sandbox.control.clearRequests();
  await expect(callUnder({ mode: 'none', allowedOrigins: [] })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('overrides.apiBaseUrl') });
  expect(h.sandbox.control.requests('crm')).toHaveLength(0);

  await expect(callUnder({ mode: 'allowlist', allowedOrigins: [h.sandbox.url] })).resolves.toMatchObject({ data: { results: expect.any(Array) } });
});
