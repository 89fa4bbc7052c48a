import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBanner } from '../../runtime/cli/start-command.js';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient } from '../../runtime/client/index.js';
import { registerWithSandbox } from '../../runtime/service/sandbox-connections.js';
import { DEV_STATE_FILE } from '../../runtime/service/dev-state.js';
import { ConfigError } from '../../runtime/service/config.js';
import { startService, type RunningService } from '../../runtime/service/start.js';
import { startDevelopmentService } from '../../sandbox/dev-service.js';

const dirs: string[] = [];
const running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ac-start-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<RunningService> {
  const service = await startDevelopmentService({
    env: { PORT: '0', AGENT_CONNECTOR_DATA_DIR: dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${KEY}`, ...env },
    logger: false,
  });
  running.push(service);
  return service;
}

const KEY = randomBytes(32).toString('base64');

/** Every byte under the data directory, as text, to look for plaintext secrets. */
function dataDirText(dir: string): string {
  return readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');
}

describe('startService (npm start)', () => {
  it('starts fresh with credentials and the five sandbox connections, and restarts idempotently', async () => {
    const dir = freshDir();
    const first = await start(dir);
    expect(first.generatedClientSecret).toMatch(/^acs_/);
    expect(first.sandboxConnections.map((c) => c.name)).toEqual(['workspace', 'calendar', 'crm', 'sheets', 'docs']);
    expect(startBanner(first, false)).toContain(first.generatedClientSecret as string);
    // The demo is offered only where it exists: with the sandbox (npm start in a checkout), not by the installed command.
    expect(startBanner(first, false)).toContain('Try: npm run demo, or sign in to the dashboard');
    const withoutSandbox = startBanner({ ...first, sandbox: null }, false);
    expect(withoutSandbox).not.toContain('npm run demo');
    expect(withoutSandbox).not.toContain('sandbox');
    expect(withoutSandbox).toContain('Sign in to the dashboard with the client id and secret.');
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    const secret = first.generatedClientSecret as string;
    const client = createClient({ envUrl: first.url, clientId: first.clientId, clientSecret: secret });
    expect((await client.listConnections()).map((c) => c.name).sort()).toEqual(['calendar', 'crm', 'docs', 'sheets', 'workspace']);
    await first.close();
    running.splice(0);
    expect(dataDirText(dir)).not.toContain(secret);

    const second = await start(dir);
    expect(second.clientId).toBe(first.clientId);
    expect(second.generatedClientSecret).toBeUndefined();
    expect(startBanner(second, false)).not.toContain('acs_');
    // A lost secret does not cost the data: the banner names the command that prints a new one.
    expect(startBanner(second, false)).toContain('agent-connector environments rotate-secret');
    const again = createClient({ envUrl: second.url, clientId: second.clientId, clientSecret: secret });
    const connections = await again.listConnections();
    expect(connections).toHaveLength(5);
    // Re-pointed at this run's sandbox.
    expect(connections.every((c) => c.overrides.apiBaseUrl?.startsWith(second.sandbox?.url as string))).toBe(true);
  });

  it('uses credentials from the environment without printing or storing the secret', async () => {
    const dir = freshDir();
    const secret = `env-secret-${randomBytes(16).toString('hex')}`;
    const service = await start(dir, { AGENT_CONNECTOR_CLIENT_ID: 'my-app', AGENT_CONNECTOR_CLIENT_SECRET: secret });
    expect(service.clientId).toBe('my-app');
    expect(service.generatedClientSecret).toBeUndefined();
    expect(startBanner(service, true)).not.toContain(secret);
    const client = createClient({ envUrl: service.url, clientId: 'my-app', clientSecret: secret });
    expect(await client.listConnections()).toHaveLength(5);
    await service.close();
    running.splice(0);
    expect(dataDirText(dir)).not.toContain(secret);
    // A different secret for the same client is refused, not silently replaced.
    await expect(start(dir, { AGENT_CONNECTOR_CLIENT_ID: 'my-app', AGENT_CONNECTOR_CLIENT_SECRET: 'other' })).rejects.toThrow(/different secret/);
  });

  it('fails on a taken port without touching what a running instance on the same data directory uses', async () => {
    const dir = freshDir();
    const first = await start(dir);
    const secret = first.generatedClientSecret as string;
    const devState = readFileSync(join(dir, DEV_STATE_FILE), 'utf8');
    const port = new URL(first.url).port;

    // A direct caller (no CLI port pre-check) on the same data directory and the port the first instance holds.
    await expect(start(dir, { PORT: port, AGENT_CONNECTOR_CLIENT_ID: 'second-app' })).rejects.toThrow(/EADDRINUSE|address already in use/i);

    const client = createClient({ envUrl: first.url, clientId: first.clientId, clientSecret: secret });
    const connections = await client.listConnections();
    expect(connections).toHaveLength(5);
    // Still pointed at the first instance's sandbox, which is still running: nothing was re-pointed.
    expect(connections.every((c) => c.overrides.apiBaseUrl?.startsWith(first.sandbox?.url as string))).toBe(true);
    expect(readFileSync(join(dir, DEV_STATE_FILE), 'utf8')).toBe(devState);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });
});

/** The application client a production start needs (it generates none). */
const PRODUCTION_CLIENT = { AGENT_CONNECTOR_CLIENT_ID: 'ac_production', AGENT_CONNECTOR_CLIENT_SECRET: randomBytes(32).toString('hex') };

describe('startService under NODE_ENV=production: the application client', () => {
  const signingKey = randomBytes(32).toString('hex');
  async function startProduction(dataDir: string, env: Record<string, string> = {}): Promise<RunningService> {
    const service = await startService({
      env: { NODE_ENV: 'production', PORT: '0', AGENT_CONNECTOR_DATA_DIR: dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${KEY}`, AGENT_CONNECTOR_TOKEN_SIGNING_KEY: signingKey, ...env },
      logger: false,
    });
    running.push(service);
    return service;
  }
  async function tokenStatus(service: RunningService, clientSecret: string): Promise<number> {
    const res = await fetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: service.clientId, client_secret: clientSecret }),
    });
    return res.status;
  }

  it('refuses without AGENT_CONNECTOR_CLIENT_ID and _SECRET, naming both and how to make them, and generates nothing', async () => {
    const dir = freshDir();
    const refusal = await startProduction(dir).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    const message = (refusal as Error).message;
    expect(message).toMatch(/^NODE_ENV=production: refusing to start: set AGENT_CONNECTOR_CLIENT_ID and AGENT_CONNECTOR_CLIENT_SECRET \(AGENT_CONNECTOR_CLIENT_ID is not set\)/);
    expect(message).toContain('openssl rand -hex 32');
    expect(message).not.toMatch(/acs_/);
    // Nothing was written for it: no development state (nor, test/cli/environments.test.ts checks, an environment).
    expect(existsSync(join(dir, DEV_STATE_FILE))).toBe(false);
    // The secret alone is not enough either: each instance would make a client id of its own.
    await expect(startProduction(dir, { AGENT_CONNECTOR_CLIENT_SECRET: PRODUCTION_CLIENT.AGENT_CONNECTOR_CLIENT_SECRET })).rejects.toThrow(
      /set AGENT_CONNECTOR_CLIENT_ID and AGENT_CONNECTOR_CLIENT_SECRET \(AGENT_CONNECTOR_CLIENT_ID is not set\)/,
    );
    // An id that names no client cannot be created without its secret.
    await expect(startProduction(dir, { AGENT_CONNECTOR_CLIENT_ID: 'ac_unknown' })).rejects.toThrow(/\(the client ac_unknown named by AGENT_CONNECTOR_CLIENT_ID is not in the database\)/);
  });

  it('refuses before it binds its port: a refused start is never reachable, so a probe never sees it', async () => {
    const dir = freshDir();
    // The port is held by another listener: a start that listened before refusing would fail with EADDRINUSE instead.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const PORT = String((holder.address() as AddressInfo).port);
    try {
      await expect(startProduction(dir, { PORT })).rejects.toThrow(/^NODE_ENV=production: refusing to start/);
      await expect(startProduction(dir, { PORT, AGENT_CONNECTOR_CLIENT_ID: 'ac_unknown' })).rejects.toThrow(/ac_unknown named by AGENT_CONNECTOR_CLIENT_ID is not in the database/);
      const first = await startProduction(dir, PRODUCTION_CLIENT);
      await first.close();
      running.splice(0);
      await expect(startProduction(dir, { PORT, AGENT_CONNECTOR_CLIENT_ID: 'ac_production', AGENT_CONNECTOR_CLIENT_SECRET: 'another' })).rejects.toThrow(/already exists with a different secret/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses a data directory it cannot write, or a development.json it cannot read, by name and before it binds its port', async () => {
    const dir = freshDir();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const PORT = String((holder.address() as AddressInfo).port);
    try {
      // A path under a file: the start used to bind its port, then fail writing development.json with a bare ENOTDIR.
      writeFileSync(join(dir, 'a-file'), '');
      const unusable = join(dir, 'a-file', 'data');
      const refusal = await startProduction(unusable, { PORT, ...PRODUCTION_CLIENT }).then(() => null, (error: unknown) => error);
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as Error).message).toMatch(new RegExp(`^AGENT_CONNECTOR_DATA_DIR=${unusable.replace(/[.\\/]/g, '\\$&')} cannot be used: ENOTDIR`));
      // A development.json cut short (a full disk, a crash mid-write) is named, not a bare JSON syntax error.
      writeFileSync(join(dir, DEV_STATE_FILE), '{"environmentId": "env_deve');
      await expect(startProduction(dir, { PORT, AGENT_CONNECTOR_CLIENT_ID: 'ac_production' })).rejects.toThrow(`${join(dir, DEV_STATE_FILE)} cannot be read (`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('starts with both, then restarts on the client it finds in the database without the secret, never showing one', async () => {
    const dir = freshDir();
    const secret = PRODUCTION_CLIENT.AGENT_CONNECTOR_CLIENT_SECRET;
    const first = await startProduction(dir, PRODUCTION_CLIENT);
    expect(first.clientId).toBe('ac_production');
    expect(first.generatedClientSecret).toBeUndefined();
    expect(startBanner(first, true)).not.toContain(secret);
    expect(await tokenStatus(first, secret)).toBe(200);
    await first.close();
    running.splice(0);
    expect(dataDirText(dir)).not.toContain(secret);

    // A restart given only the id (the secret stays with the application): the stored client, the same secret.
    const byId = await startProduction(dir, { AGENT_CONNECTOR_CLIENT_ID: 'ac_production' });
    expect(byId.generatedClientSecret).toBeUndefined();
    expect(startBanner(byId, false)).toMatch(/client secret \(not shown: only its hash is stored; `agent-connector environments rotate-secret` prints a new one\)/);
    expect(await tokenStatus(byId, secret)).toBe(200);
    await byId.close();
    running.splice(0);

    // A restart with neither, on the data directory that remembers the client id: the client is there, so it starts.
    const remembered = await startProduction(dir);
    expect(remembered.clientId).toBe('ac_production');
    expect(remembered.generatedClientSecret).toBeUndefined();
    expect(startBanner(remembered, false)).not.toMatch(/acs_|[0-9a-f]{64}/);
    await remembered.close();
    running.splice(0);

    // Without that file (a container's fresh disk), nothing names the client: refused, not a second client.
    rmSync(join(dir, DEV_STATE_FILE));
    await expect(startProduction(dir)).rejects.toThrow(/AGENT_CONNECTOR_CLIENT_ID is not set/);
    // A remembered id whose client is gone is refused by where it came from.
    writeFileSync(join(dir, DEV_STATE_FILE), JSON.stringify({ environmentId: 'env_development', clientId: 'ac_gone' }));
    await expect(startProduction(dir)).rejects.toThrow(new RegExp(`the client ac_gone named in ${join(dir, DEV_STATE_FILE).replace(/[.\\/]/g, '\\$&')} is not in the database`));
  });
});

describe('startService in production with the sandbox enabled', () => {
  it('lets the sandbox connections point at the in-process sandbox although production refuses overrides', async () => {
    const service = await start(freshDir(), {
      NODE_ENV: 'production',
      AGENT_CONNECTOR_SANDBOX: '1',
      AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
      ...PRODUCTION_CLIENT,
    });
    expect(service.sandboxConnections.map((c) => c.name)).toEqual(['workspace', 'calendar', 'crm', 'sheets', 'docs']);
    const client = createClient({ envUrl: service.url, clientId: service.clientId, clientSecret: PRODUCTION_CLIENT.AGENT_CONNECTOR_CLIENT_SECRET });
    // Any other loopback origin is still refused: only the running sandbox's own origin is exempt.
    await expect(
      client.createConnection({ name: 'elsewhere', connector: 'crm', client_id: 'c', client_secret: 's', overrides: { apiBaseUrl: 'http://127.0.0.1:9' } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('the sandbox control API and tenants (issue 14, item 6)', () => {
  it('is never reachable through a connection, even in production with the sandbox on and every override allowed', async () => {
    const service = await start(freshDir(), {
      NODE_ENV: 'production',
      AGENT_CONNECTOR_SANDBOX: '1',
      AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: '1',
      AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
      ...PRODUCTION_CLIENT,
    });
    const sandbox = service.sandbox!;
    const client = createClient({ envUrl: service.url, clientId: service.clientId, clientSecret: PRODUCTION_CLIENT.AGENT_CONNECTOR_CLIENT_SECRET });
    // Another tenant's account, whose tokens the sandbox's records would show.
    const { link: victimLink } = await client.authorizationLink({ connection_name: 'calendar', identifier: 'victim' });
    expect((await consentThroughSandbox(victimLink, { user: 'victim@example.com' })).status).toBe(200);

    // The control origin is refused as any override, whatever the policy allows (loopback http here).
    for (const key of ['apiBaseUrl', 'tokenUrl', 'revocationUrl', 'authorizationUrl'] as const) {
      const overrides = { ...sandbox.endpoints('crm'), [key]: `${sandbox.controlUrl}/_sandbox${key === 'apiBaseUrl' ? '' : '/revoke'}` };
      await expect(client.createConnection({ name: `peek-${key}`, connector: 'crm', client_id: 'c', client_secret: 's', overrides })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }

    // A connection on the providers' own origin, at its root, cannot reach the control API by a path either.
    const peek = await client.createConnection({ name: 'peek', connector: 'crm', client_id: 'peek-client', client_secret: 'peek-secret', overrides: { ...sandbox.endpoints('crm'), apiBaseUrl: sandbox.url } });
    registerWithSandbox(sandbox, peek, 'peek-secret');
    const { link } = await client.authorizationLink({ connection_name: 'peek', identifier: 'attacker' });
    expect((await consentThroughSandbox(link, { user: 'attacker@example.com' })).status).toBe(200);
    const viaProxy = await client.proxy({ connection_name: 'peek', identifier: 'attacker', method: 'GET', path: '/_sandbox/requests' });
    expect(viaProxy.status).toBe(404);
    expect(JSON.stringify(viaProxy.body)).not.toContain('"requests"');

    // The records themselves (read by the operator on the control origin) hold no token or code.
    const records = JSON.stringify(await (await fetch(`${sandbox.controlUrl}/_sandbox/requests`)).json());
    expect(records).toContain('[redacted]');
    for (const field of ['refresh_token', 'access_token', 'code']) expect(records).not.toMatch(new RegExp(`"${field}":"(?!\\[redacted\\])`));
  });
});
