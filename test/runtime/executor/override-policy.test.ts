/**
 * A connection's stored API base override is checked again when a tool call uses it: a policy stricter than the one
 * in force when the connection was written refuses the call before anything is sent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setConnectionOverridePolicy } from '../../../runtime/connection-override-policy.js';
import { startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.connection('crm');
  await h.authorize('crm', 'policy-user');
});
afterAll(async () => {
  setConnectionOverridePolicy(undefined);
  await h?.close();
});

it('refuses a tool call whose stored apiBaseUrl the policy no longer allows, sending nothing', async () => {
  const call = () => h.env.executeTool({ tool_name: 'crm_contacts_list', identifier: 'policy-user', tool_input: { limit: 1 } });
  await expect(call()).resolves.toMatchObject({ data: { results: [] } });

  setConnectionOverridePolicy({ mode: 'none', allowedOrigins: [] });
  h.sandbox.control.clearRequests();
  await expect(call()).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('overrides.apiBaseUrl') });
  expect(h.sandbox.control.requests('crm')).toHaveLength(0);

  setConnectionOverridePolicy({ mode: 'allowlist', allowedOrigins: [h.sandbox.url] });
  await expect(call()).resolves.toMatchObject({ data: { results: [] } });
});
