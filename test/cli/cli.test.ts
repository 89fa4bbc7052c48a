import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { runCli } from '../../runtime/cli/program.js';
import { developmentCommands } from '../../sandbox/dev-commands.js';
import { startHarness, type Harness } from '../service/harness.js';
import { startChild, type StartedChild } from './start-child.js';

const exec = promisify(execFile);
let h: Harness;

async function cli(args: string[], env: Record<string, string | undefined> = {}, development = true): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (t: string) => out.push(t),
    err: (t: string) => err.push(t),
    env: { AGENT_CONNECTOR_URL: h.url, AGENT_CONNECTOR_CLIENT_ID: h.a.clientId, AGENT_CONNECTOR_CLIENT_SECRET: h.a.clientSecret, ...env },
  };
  const result = await runCli(args, io, development ? developmentCommands : undefined);
  return { code: result.code, out: out.join(''), err: err.join('') };
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('agent-connector CLI against a running service', () => {
  it('creates and lists connections, links a user, calls a tool and the proxy', async () => {
    const endpoints = JSON.stringify(h.sandbox.endpoints('calendar'));
    const created = await cli(['--json', 'connections', 'create', '--name', 'cal', '--connector', 'calendar', '--oauth-client-id', 'cli-client', '--oauth-client-secret', 'cli-secret', '--overrides', endpoints]);
    expect(created.code).toBe(0);
    const view = JSON.parse(created.out);
    h.sandbox.control.registerClient({ provider: 'google', clientId: 'cli-client', clientSecret: 'cli-secret', redirectUris: [view.redirect_uri] });

    const listed = await cli(['connections', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^name\s+connector/);
    expect(listed.out).toContain('cal');

    const link = await cli(['--json', 'link', 'cal', 'user-cli']);
    expect(link.code).toBe(0);
    expect((await consentThroughSandbox(JSON.parse(link.out).link)).status).toBe(200);

    const tools = await cli(['tools', 'list', '--connector', 'calendar']);
    expect(tools.code).toBe(0);
    expect(tools.out).toContain('calendar_list_calendars');
    expect(tools.out).not.toContain('crm_');
    const readOnly = await cli(['--json', 'tools', 'list', '--connector', 'calendar', '--read-only']);
    expect(readOnly.code).toBe(0);
    const readOnlyNames = (JSON.parse(readOnly.out) as { name: string; annotations: { read_only: boolean } }[]).map((t) => t.name);
    expect(readOnlyNames).toContain('calendar_list_calendars');
    expect(readOnlyNames).not.toContain('calendar_create_event');
    const anthropic = await cli(['tools', 'list', '--connector', 'calendar', '--read-only', '--format', 'anthropic']);
    expect((JSON.parse(anthropic.out) as { name: string }[]).map((t) => t.name)).toEqual(readOnlyNames);

    const call = await cli(['tools', 'call', 'calendar_list_calendars', '--identifier', 'user-cli', '--input', '{"max_results": 5}']);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.out)).toHaveProperty('execution_id');

    const proxy = await cli(['proxy', 'cal', 'user-cli', 'get', '/calendar/v3/users/me/calendarList', '--query', 'maxResults=2']);
    expect(proxy.code).toBe(0);
    expect(JSON.parse(proxy.out).status).toBe(200);
  });

  it('exits 2 naming the problem when --input is not JSON, before calling anything', async () => {
    const res = await cli(['tools', 'call', 'calendar_list_calendars', '--identifier', 'u', '--input', '{max_results: 5}']);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/--input is not valid JSON/);
    const array = await cli(['tools', 'call', 'calendar_list_calendars', '--identifier', 'u', '--input', '[1]']);
    expect(array.code).toBe(2);
    expect(array.err).toMatch(/--input must be a JSON object/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await cli(['connections', 'create', '--name', 'x'])).code).toBe(2);
    expect((await cli(['tools', 'call', 'calendar_list_calendars'])).err).toMatch(/--identifier/);
    expect((await cli(['proxy', 'cal', 'u', 'TRACE', '/x'])).code).toBe(2);
    expect((await cli(['no-such-command'])).code).toBe(2);
    const noCreds = await cli(['connections', 'list'], { AGENT_CONNECTOR_CLIENT_ID: undefined, AGENT_CONNECTOR_CLIENT_SECRET: undefined });
    expect(noCreds.code).toBe(2);
    expect(noCreds.err).toMatch(/AGENT_CONNECTOR_CLIENT_ID/);
  });

  it('exits 1 with the service error code and request id when the service refuses', async () => {
    const res = await cli(['link', 'nope', 'u']);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/connection_not_found: .*\(request id req_/);
    const invalid = await cli(['tools', 'call', 'calendar_list_calendars', '--identifier', 'user-cli', '--input', '{"max_results":"x"}']);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/invalid_input/);
    expect(invalid.err).toMatch(/\/max_results/);
    // A failed call names its execution record, which `executions show` then reads.
    const executionId = /\(request id req_\S+, execution ([0-9a-f-]{36})\)/.exec(invalid.err)?.[1];
    expect(executionId, invalid.err).toBeDefined();
    await expect.poll(async () => (await cli(['executions', 'show', executionId!])).out).toMatch(/error_code\s+invalid_input/);
    // A refusal that is no call names none.
    expect(res.err).not.toMatch(/execution/);
    const badCreds = await cli(['connections', 'list'], { AGENT_CONNECTOR_CLIENT_SECRET: 'wrong' });
    expect(badCreds.code).toBe(1);
    expect(badCreds.err).toMatch(/unauthorized/);
  });

  it('reads the service URL and credentials from the environment through the configuration, a flag winning over its variable', async () => {
    // A wrong secret in the environment, the right one as a flag: the flag is used.
    const flagSecret = await cli(['--client-secret', h.a.clientSecret, 'connections', 'list'], { AGENT_CONNECTOR_CLIENT_SECRET: 'wrong' });
    expect(flagSecret.code).toBe(0);
    // No secret in the environment at all: the flag alone is enough.
    expect((await cli(['--client-secret', h.a.clientSecret, 'connections', 'list'], { AGENT_CONNECTOR_CLIENT_SECRET: undefined })).code).toBe(0);
    // A right URL in the environment, an unreachable one as a flag: the flag is used.
    const flagUrl = await cli(['--env-url', 'http://127.0.0.1:9', 'connections', 'list']);
    expect(flagUrl.code).toBe(1);
    expect(flagUrl.err).toMatch(/cannot reach the service at http:\/\/127\.0\.0\.1:9 \(--env-url\): /);
    // A bad URL in the environment, a good one as a flag: the flag wins, and the variable is not in the way.
    expect((await cli(['--env-url', h.url, 'connections', 'list'], { AGENT_CONNECTOR_URL: 'not a url' })).code).toBe(0);
  });

  it('exits 2 naming the variable (or the flag) when the URL is not http(s) or the secret is missing', async () => {
    const badUrl = await cli(['connections', 'list'], { AGENT_CONNECTOR_URL: 'localhost:3000' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.err).toMatch(/AGENT_CONNECTOR_URL must be the service's http:\/\/ or https:\/\/ URL/);
    const badFlag = await cli(['--env-url', 'ftp://host', 'connections', 'list']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toMatch(/--env-url must be/);
    const noSecret = await cli(['mcp', '--identifier', 'user-cli'], { AGENT_CONNECTOR_CLIENT_SECRET: undefined });
    expect(noSecret.code).toBe(2);
    expect(noSecret.err).toContain('AGENT_CONNECTOR_CLIENT_SECRET');
    expect(noSecret.err).not.toContain('AGENT_CONNECTOR_CLIENT_ID');
  });

  it('start exits 2 naming an OTEL_* variable the SDK would silently ignore, before it opens anything', async () => {
    const res = await cli(['start'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', AGENT_CONNECTOR_DATA_DIR: join(tmpdir(), 'ac-cli-never-created') }, false);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/);
  });

  it('exits 1 when the service cannot be reached', async () => {
    const res = await cli(['connections', 'list'], { AGENT_CONNECTOR_URL: 'http://127.0.0.1:9/' });
    expect(res.code).toBe(1);
    // It says where it looked and why: the URL and the variable it came from.
    expect(res.err).toMatch(/^error: cannot reach the service at http:\/\/127\.0\.0\.1:9 \(AGENT_CONNECTOR_URL\): [^;]+; is it running\?/);
    expect(res.err).toContain('Start it with npm start');
    // The built CLI has no npm start to offer.
    const built = await cli(['connections', 'list'], { AGENT_CONNECTOR_URL: 'http://127.0.0.1:9' }, false);
    expect(built.err).toContain('Start it with agent-connector start, or point --env-url (or AGENT_CONNECTOR_URL) at it');
  });
});

describe('agent-connector sandbox', () => {
  it('documents --client and POST /_sandbox/clients in its help, and refuses a malformed --client with exit code 2', async () => {
    const help = await cli(['sandbox', '--help']);
    expect(help.out + help.err).toContain('--client <spec>');
    expect(help.out + help.err).toContain('/_sandbox/clients');
    const bad = await cli(['sandbox', '--client', 'myspace,id,secret,http://x/cb']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--client expects provider,clientId,clientSecret,redirectUri');
  });

  it('is a development command: the production CLI does not have it', async () => {
    const res = await cli(['sandbox', '--port', '0'], {}, false);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/unknown command 'sandbox'/);
  });
});

describe('the installed bin', () => {
  it('prints help with exit code 0 and refuses bad JSON with exit code 2', async () => {
    const help = await exec('node', ['bin/agent-connector.js', '--help'], { cwd: process.cwd() });
    expect(help.stdout).toContain('Usage: agent-connector');
    expect(help.stdout).toContain('tools');
    const bad = await exec('node', ['bin/agent-connector.js', 'tools', 'call', 'x', '--identifier', 'u', '--input', 'nope'], { cwd: process.cwd() }).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(2);
    expect((bad as { stderr: string }).stderr).toMatch(/--input is not valid JSON/);
    // The process's own environment reaches the configuration: a bad AGENT_CONNECTOR_URL is named.
    const env = { ...process.env, AGENT_CONNECTOR_URL: 'localhost:3000', AGENT_CONNECTOR_CLIENT_ID: 'ac_x', AGENT_CONNECTOR_CLIENT_SECRET: 'acs_x' };
    const badUrl = await exec('node', ['bin/agent-connector.js', 'connections', 'list'], { cwd: process.cwd(), env }).catch((e: { code: number; stderr: string }) => e);
    expect((badUrl as { code: number }).code).toBe(2);
    expect((badUrl as { stderr: string }).stderr).toMatch(/AGENT_CONNECTOR_URL must be/);
  }, 60_000);
});

describe('agent-connector start', () => {
  it('serves, answers /healthz, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-cli-start-'));
    let started: StartedChild | undefined;
    try {
      started = await startChild('bin/agent-connector.js', process.cwd(), dataDir);
      expect(started.banner).toMatch(/client secret acs_/);
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      expect(await started.stop()).toBe(0);
    } finally {
      started?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
