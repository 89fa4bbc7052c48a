/**
 * `agent-connector environments create|list` against the store `start` uses (SQLite in a temporary data directory),
 * then the printed credentials exchanged at a service started on that same directory.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../runtime/cli/program.js';
import { startService } from '../../runtime/service/start.js';
import { requireExistingStore, StoreMissingError } from '../../runtime/store/index.js';

let dataDir: string;
let baseEnv: Record<string, string>;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ac-cli-env-'));
  baseEnv = { AGENT_CONNECTOR_DATA_DIR: dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` };
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const result = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { ...baseEnv, ...env } });
  return { code: result.code, out: out.join('\n'), err: err.join('\n') };
}

function dataDirText(): string {
  return readdirSync(dataDir).map((f) => readFileSync(join(dataDir, f)).toString('latin1')).join('\n');
}

describe('agent-connector environments', () => {
  it('creates an environment whose printed credentials work at the service, and stores only the hash', async () => {
    const created = await cli(['environments', 'create', '--name', 'acme']);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const id = /Created environment acme \((env_[0-9a-f]+)\)/.exec(created.out)?.[1];
    const clientId = /client id\s+(ac_\S+)/.exec(created.out)?.[1];
    const clientSecret = /client secret\s+(acs_\S+)/.exec(created.out)?.[1];
    expect(id && clientId && clientSecret).toBeTruthy();
    expect(created.out).toMatch(/shown once/);
    expect(dataDirText()).not.toContain(clientSecret);

    const listed = await cli(['environments', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^name\s+id\s+created_at/);
    expect(listed.out).toContain(`acme`);
    expect(listed.out).toContain(id);
    expect(listed.out).not.toContain(clientSecret);

    const service = await startService({ env: { ...baseEnv, PORT: '0', AGENT_CONNECTOR_SANDBOX: '0' }, logger: false });
    try {
      const token = await fetch(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      });
      expect(token.status).toBe(200);
      const wrong = await fetch(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: `${clientSecret}x` }),
      });
      expect(wrong.status).toBe(401);
    } finally {
      await service.close();
    }
  });

  it("a start named an environment's client by AGENT_CONNECTOR_CLIENT_ID refuses it by its environment, not as a wrong secret", async () => {
    const created = JSON.parse((await cli(['--json', 'environments', 'create', '--name', 'tenant'])).out) as Record<string, string>;
    await expect(startService({ env: { ...baseEnv, PORT: '0', AGENT_CONNECTOR_SANDBOX: '0', AGENT_CONNECTOR_CLIENT_ID: created.client_id }, logger: false })).rejects.toThrow(
      `The client ${created.client_id} belongs to environment ${created.id}, not to env_development, which this start bootstraps`,
    );
  });

  it('--json prints the credentials and the list as JSON; a second environment of the same name is refused', async () => {
    const created = await cli(['--json', 'environments', 'create', '--name', 'beta']);
    expect(created.code).toBe(0);
    const body = JSON.parse(created.out) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['client_id', 'client_secret', 'id', 'name']);
    expect(body.name).toBe('beta');

    const again = await cli(['environments', 'create', '--name', ' beta ']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/an environment named "beta" already exists/);

    const listed = await cli(['--json', 'environments', 'list']);
    expect(JSON.parse(listed.out)).toEqual([{ id: body.id, name: 'beta', created_at: expect.any(String) }]);
  });

  it('exits 2 on usage errors, before writing anything', async () => {
    const missing = await cli(['environments', 'create']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--name/);
    const blank = await cli(['environments', 'create', '--name', '  ']);
    expect(blank.code).toBe(2);
    expect(blank.err).toMatch(/--name must be 1 to 100 printable characters/);
    expect(readdirSync(dataDir)).toEqual([]);
    expect((await cli(['environments', 'rename'])).code).toBe(2);
  });

  it('exits 2 naming the variable when NODE_ENV=production has no encryption key, and creates no key file', async () => {
    const res = await cli(['environments', 'create', '--name', 'acme'], { NODE_ENV: 'production', AGENT_CONNECTOR_ENCRYPTION_KEY: undefined });
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/AGENT_CONNECTOR_ENCRYPTION_KEY is not set and NODE_ENV=production/);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('agent-connector start under NODE_ENV=production', () => {
  it('exits 2 naming AGENT_CONNECTOR_ENCRYPTION_KEY when its value is not a key, without quoting it', async () => {
    const signing = { NODE_ENV: 'production', PORT: '0', AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('hex') };
    for (const [value, why] of [
      [`k1:${randomBytes(16).toString('base64')}`, /^error: AGENT_CONNECTOR_ENCRYPTION_KEY: encryption key "k1": expected 32 bytes/],
      ['passphrase-of-my-own', /^error: AGENT_CONNECTOR_ENCRYPTION_KEY: encryption key "k1": expected 32 bytes/],
      [`bad id!:${randomBytes(32).toString('base64')}`, /^error: AGENT_CONNECTOR_ENCRYPTION_KEY: encryption key #1: the key id/],
    ] as const) {
      const res = await cli(['start'], { ...signing, AGENT_CONNECTOR_ENCRYPTION_KEY: value });
      expect(res.code).toBe(2);
      expect(res.err).toMatch(why);
      expect(res.err).not.toContain(value.slice(value.indexOf(':') + 1));
    }
  });

  it('exits 2 naming AGENT_CONNECTOR_TOKEN_SIGNING_KEY when it is neither hex nor base64 (a pass phrase is no key)', async () => {
    const res = await cli(['start'], { NODE_ENV: 'production', PORT: '0', AGENT_CONNECTOR_TOKEN_SIGNING_KEY: 'this is my long pass phrase, surely good enough!' });
    expect(res.code).toBe(2);
    // The phrase has a comma, so it reads as two keys (the variable takes a list): the first is named by position.
    expect(res.err).toMatch(/^error: AGENT_CONNECTOR_TOKEN_SIGNING_KEY \(key 1\) must be hex or base64/);
    expect(res.err).not.toContain('pass phrase');
    const single = await cli(['start'], { NODE_ENV: 'production', PORT: '0', AGENT_CONNECTOR_TOKEN_SIGNING_KEY: 'this is my long pass phrase surely good enough!' });
    expect(single.code).toBe(2);
    expect(single.err).toMatch(/^error: AGENT_CONNECTOR_TOKEN_SIGNING_KEY must be hex or base64/);
    expect(single.err).not.toContain('pass phrase');
  });

  it('exits 2 naming AGENT_CONNECTOR_CLIENT_ID and _SECRET when it would have to generate the client secret, printing none', async () => {
    const production = { NODE_ENV: 'production', PORT: '0', AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('hex') };
    const res = await cli(['start'], production);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/^error: NODE_ENV=production: refusing to start: set AGENT_CONNECTOR_CLIENT_ID and AGENT_CONNECTOR_CLIENT_SECRET/);
    expect(res.err).toMatch(/AGENT_CONNECTOR_CLIENT_SECRET="\$\(openssl rand -hex 32\)"/);
    expect(res.out).toBe('');
    expect(res.err).not.toMatch(/acs_/);
    // No environment or client was made: the refusal comes before any write to the store.
    const listed = await cli(['--json', 'environments', 'list'], { NODE_ENV: 'production' });
    expect(JSON.parse(listed.out)).toEqual([]);
  });

  it('a client made with both variables can be given a new secret on a terminal and restarted on by its id alone', async () => {
    const production = { NODE_ENV: 'production', AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('hex') };
    const first = await startService({ env: { ...baseEnv, ...production, PORT: '0', AGENT_CONNECTOR_CLIENT_ID: 'ac_ops', AGENT_CONNECTOR_CLIENT_SECRET: randomBytes(32).toString('hex') }, logger: false });
    await first.close();
    // rotate-secret works on the store (no running service, no old secret needed) and prints to the operator's terminal.
    const rotated = await cli(['--json', 'environments', 'rotate-secret'], { ...production, AGENT_CONNECTOR_CLIENT_ID: 'ac_ops' });
    expect(rotated.code).toBe(0);
    const secret = (JSON.parse(rotated.out) as { client_secret: string }).client_secret;
    const service = await startService({ env: { ...baseEnv, ...production, PORT: '0', AGENT_CONNECTOR_CLIENT_ID: 'ac_ops' }, logger: false });
    try {
      expect(service.generatedClientSecret).toBeUndefined();
      const token = await fetch(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'ac_ops', client_secret: secret }),
      });
      expect(token.status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('exits 2 naming AGENT_CONNECTOR_TOKEN_SIGNING_KEY when it is missing', async () => {
    const res = await cli(['start'], { NODE_ENV: 'production', PORT: '0' });
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/NODE_ENV=production: refusing to start without AGENT_CONNECTOR_TOKEN_SIGNING_KEY/);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('agent-connector environments delete', () => {
  it('deletes an environment: its access token stops working at the running service within a second', async () => {
    const created = JSON.parse((await cli(['--json', 'environments', 'create', '--name', 'doomed'])).out) as Record<string, string>;
    const service = await startService({ env: { ...baseEnv, PORT: '0', AGENT_CONNECTOR_SANDBOX: '0' }, logger: false });
    try {
      const issued = await fetch(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: created.client_id, client_secret: created.client_secret }),
      });
      const { access_token: token } = (await issued.json()) as { access_token: string };
      const call = () => fetch(`${service.url}/api/v1/connections`, { headers: { authorization: `Bearer ${token}` } });
      expect((await call()).status).toBe(200);
      const deleted = await cli(['environments', 'delete', created.id!]);
      expect(deleted.code).toBe(0);
      expect(deleted.out).toContain(`Deleted environment ${created.id}`);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await call()).status).toBe(401);
      expect((await cli(['environments', 'list'])).out).not.toContain(created.id);
    } finally {
      await service.close();
    }
    const again = await cli(['environments', 'delete', created.id!]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/no environment/);
  });

  it('a client or environment not in the store names the store it looked in, and the variables that choose it', async () => {
    // An operator who runs the command from another directory, or without the service's AGENT_CONNECTOR_DATA_DIR,
    // opens another store: the refusal says which one, not only "this store".
    expect((await cli(['environments', 'create', '--name', 'other'])).code).toBe(0);
    const rotated = await cli(['environments', 'rotate-secret', '--client', 'ac_elsewhere']);
    expect(rotated.code).toBe(1);
    expect(rotated.err).toContain('no application client "ac_elsewhere"');
    expect(rotated.err).toContain(`SQLite in ${dataDir}`);
    expect(rotated.err).toMatch(/AGENT_CONNECTOR_DATA_DIR.*DATABASE_URL/);
    const deleted = await cli(['environments', 'delete', 'env_elsewhere']);
    expect(deleted.code).toBe(1);
    expect(deleted.err).toContain(`no environment "env_elsewhere" in the store this command opened, SQLite in ${dataDir}`);
    // Unset, the variable's default is named as relative to the working directory, where it was resolved.
    const { AGENT_CONNECTOR_DATA_DIR: _unused, ...withoutDataDir } = baseEnv;
    expect((await cli(['environments', 'create', '--name', 'other'], { AGENT_CONNECTOR_DATA_DIR: join(dataDir, '.agent-connector') })).code).toBe(0);
    const cwd = process.cwd();
    process.chdir(dataDir);
    try {
      const out: string[] = [];
      const err: string[] = [];
      const result = await runCli(['environments', 'rotate-secret', '--client', 'ac_elsewhere'], { out: (t) => out.push(t), err: (t) => err.push(t), env: withoutDataDir });
      expect(result.code).toBe(1);
      expect(err.join('\n')).toContain(`SQLite in ${join(dataDir, '.agent-connector')} (AGENT_CONNECTOR_DATA_DIR unset: ./.agent-connector in the working directory`);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('commands on an existing store, run where there is none', () => {
  // Run from another directory or without the service's AGENT_CONNECTOR_DATA_DIR, these commands used to create a
  // data directory, a key file and an empty database there, and only then report that nothing was found.
  const commands = [
    ['environments', 'rotate-secret', '--client', 'ac_elsewhere'],
    ['environments', 'delete', 'env_elsewhere'],
    ['environments', 'list'],
    ['mcp', '--local', '--identifier', 'alice'],
  ];

  it.each(commands)('%s %s refuses naming the missing directory and AGENT_CONNECTOR_DATA_DIR, creating nothing', async (...args) => {
    const missing = join(dataDir, 'not-here');
    const res = await cli(args, { AGENT_CONNECTOR_DATA_DIR: missing, AGENT_CONNECTOR_ENCRYPTION_KEY: undefined });
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(res.err).toBe(
      `error: no store to open: the data directory ${missing} (AGENT_CONNECTOR_DATA_DIR) does not exist. ` +
        "Run this command with the service's AGENT_CONNECTOR_DATA_DIR (or its DATABASE_URL); only start creates a store, and nothing was created.",
    );
    expect(existsSync(missing)).toBe(false);
  });

  it.each(commands)('%s %s refuses an existing empty directory (no database), leaving it empty', async (...args) => {
    const res = await cli(args, { AGENT_CONNECTOR_ENCRYPTION_KEY: undefined });
    expect(res.code).toBe(2);
    expect(res.err).toContain(`there is no database ${join(dataDir, 'agent-connector.db')} (AGENT_CONNECTOR_DATA_DIR)`);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('unset, the default ./.agent-connector of the working directory is named as such, and not created', async () => {
    const { AGENT_CONNECTOR_DATA_DIR: _unused, ...withoutDataDir } = baseEnv;
    const cwd = process.cwd();
    process.chdir(dataDir);
    try {
      const err: string[] = [];
      const result = await runCli(['environments', 'rotate-secret', '--client', 'ac_elsewhere'], { out: () => {}, err: (t) => err.push(t), env: withoutDataDir });
      expect(result.code).toBe(2);
      expect(err.join('\n')).toContain(`the data directory ${join(dataDir, '.agent-connector')} (AGENT_CONNECTOR_DATA_DIR unset: ./.agent-connector in the working directory) does not exist`);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('under DATABASE_URL the data directory is not checked (PostgreSQL is never created by the CLI)', () => {
    const missing = join(dataDir, 'not-here');
    expect(() => requireExistingStore({ databaseUrl: 'postgres://user:pw@127.0.0.1/db', dataDir: missing })).not.toThrow();
    expect(() => requireExistingStore({ dataDir: missing })).toThrow(StoreMissingError);
    expect(existsSync(missing)).toBe(false);
  });

  it('a store start made is opened as before', async () => {
    const service = await startService({ env: { ...baseEnv, PORT: '0', AGENT_CONNECTOR_SANDBOX: '0' }, logger: false });
    await service.close();
    const listed = await cli(['--json', 'environments', 'list']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as { id: string }[]).map((e) => e.id)).toContain('env_development');
  });
});
