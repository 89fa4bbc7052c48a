/**
 * Restarts lose nothing: `npm start` twice on one data directory keeps the embedded sandbox's clients, grants,
 * tokens, data and port, so an account authorized before the restart still calls tools after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient } from '../../runtime/client/index.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import type { RunningService } from '../../runtime/service/start.js';
import { SANDBOX_STATE_FILE, startDevelopmentService } from '../../sandbox/dev-service.js';
import type { Sandbox } from '../../sandbox/types.js';

const KEY = randomBytes(32).toString('base64');
const dirs: string[] = [];
const running: RunningService<Sandbox>[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<RunningService<Sandbox>> {
  const service = await startDevelopmentService({
    env: { PORT: '0', AGENT_CONNECTOR_DATA_DIR: dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${KEY}`, AGENT_CONNECTOR_CLIENT_ID: 'app', AGENT_CONNECTOR_CLIENT_SECRET: 'restart-test-secret' },
    logger: false,
  });
  running.push(service);
  return service;
}

async function stop(service: RunningService<Sandbox>): Promise<void> {
  await service.close();
  running.splice(running.indexOf(service), 1);
}

describe('restarting npm start', () => {
  it('keeps accounts, sandbox data and the sandbox port; a connection made like the dashboard does keeps working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-restart-'));
    dirs.push(dir);
    const first = await start(dir);
    const client = createClient({ envUrl: first.url, clientId: 'app', clientSecret: 'restart-test-secret' });
    const { link } = await client.authorizationLink({ connection_name: 'crm', identifier: 'user-1' });
    expect((await consentThroughSandbox(link, { user: 'pat@example.com' })).status).toBe(200);
    const created = await client.executeTool({
      tool_name: 'crm_contact_create',
      identifier: 'user-1',
      tool_input: { email: 'grace@example.com', firstname: 'Grace' },
    });
    const contactId = (created.data as { id: string }).id;
    // A connection made in the dashboard with "use the sandbox": overrides at the sandbox, its client registered there.
    const env = first.connector.environment(first.environmentId);
    const own = await env.createConnection({ name: 'my-calendar', connector: 'calendar', client_id: 'my-client', client_secret: 'my-secret', overrides: first.sandbox!.endpoints('calendar') });
    registerWithSandbox(first.sandbox!, own, 'my-secret');
    const ownLink = await client.authorizationLink({ connection_name: 'my-calendar', identifier: 'user-2' });
    expect((await consentThroughSandbox(ownLink.link, { user: 'kim@example.com' })).status).toBe(200);
    const sandboxPort = first.sandbox?.port;
    await stop(first);
    expect(statSync(join(dir, SANDBOX_STATE_FILE)).mode & 0o777).toBe(0o600);

    const second = await start(dir);
    expect(second.sandbox?.port).toBe(sandboxPort);
    const again = createClient({ envUrl: second.url, clientId: 'app', clientSecret: 'restart-test-secret' });
    // The same account, its tokens issued by the sandbox before the restart: the call works and sees the data.
    const got = await again.executeTool({ tool_name: 'crm_contact_get', identifier: 'user-1', tool_input: { contact_id: contactId } });
    expect((got.data as { properties: { email: string } }).properties.email).toBe('grace@example.com');
    // A refresh works too (the refresh token and the client survived): expire the access token at the provider.
    second.sandbox?.control.expireAccessTokens('hubspot', 'pat@example.com');
    const afterRefresh = await again.executeTool({ tool_name: 'crm_contact_get', identifier: 'user-1', tool_input: { contact_id: contactId } });
    expect((afterRefresh.data as { id: string }).id).toBe(contactId);
    const [account] = await again.listAccounts({ identifier: 'user-1' });
    expect(account?.status).toBe('ACTIVE');
    const calendars = await again.executeTool({ tool_name: 'calendar_list_calendars', connection_name: 'my-calendar', identifier: 'user-2', tool_input: {} });
    expect(JSON.stringify(calendars.data)).toContain('kim@example.com');
  });
});
