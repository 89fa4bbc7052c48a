/**
 * `--version`, `accounts disconnect`, `connections delete` (asks first, then says what it did), `tools show`
 * (schema and a working example), against a running service; `environments rotate-secret` on the store `start` uses.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { runCli } from '../../runtime/cli/program.js';
import { startService } from '../../runtime/service/start.js';
import { startHarness, type Harness } from '../service/harness.js';

let h: Harness;

async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (t: string) => out.push(t),
    err: (t: string) => err.push(t),
    env: { AGENT_CONNECTOR_URL: h?.url, AGENT_CONNECTOR_CLIENT_ID: h?.a.clientId, AGENT_CONNECTOR_CLIENT_SECRET: h?.a.clientSecret, ...env },
  };
  const result = await runCli(args, io);
  return { code: result.code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function authorized(connection: string, identifier: string): Promise<string> {
  const link = await cli(['--json', 'link', connection, identifier]);
  expect((await consentThroughSandbox(JSON.parse(link.out).link, { user: `${identifier}@example.com` })).status).toBe(200);
  const [account] = JSON.parse((await cli(['--json', 'accounts', '--identifier', identifier, '--connection', connection])).out);
  return account.id as string;
}

describe('operations commands', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    const res = await cli(['--version']);
    expect(res.code).toBe(0);
    expect(res.out.trim()).toBe(pkg.version);
  });

  it('accounts disconnect says when the provider could not be reached, and where to revoke by hand', async () => {
    const connection = await h.sandboxConnection(h.a, 'workspace', 'cli-down');
    const id = await authorized('cli-down', 'cli-down-user');
    const { freePort } = await import('../../runtime/service/free-port.js');
    const token = await h.token(h.a);
    const closed = await freePort();
    expect((await h.call('PATCH', `/api/v1/connections/${connection.id}`, { token, body: { overrides: { ...connection.overrides, revocationUrl: `http://127.0.0.1:${closed}/revoke` } } })).status).toBe(200);
    const res = await cli(['accounts', 'disconnect', id]);
    expect(res.code).toBe(0);
    expect(res.out).toContain(
      `Disconnected cli-down-user from cli-down (${id}); status DISCONNECTED: its tokens are deleted here; the provider could not be reached to revoke them: revoke this app's access in Notion's settings (Connections).`,
    );
    expect(JSON.parse((await cli(['--json', 'accounts', '--identifier', 'cli-down-user'])).out)[0].status).toBe('DISCONNECTED');
  });

  it('accounts disconnect revokes and disconnects; accounts alone still lists', async () => {
    await h.sandboxConnection(h.a, 'crm');
    const id = await authorized('crm', 'cli-disc');
    const res = await cli(['accounts', 'disconnect', id]);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`Disconnected cli-disc from crm (${id}); status DISCONNECTED: its tokens are deleted here and the provider revoked them.`);
    const listed = await cli(['accounts', '--identifier', 'cli-disc']);
    expect(listed.out).toMatch(/cli-disc\s+crm\s+DISCONNECTED/);
    expect((await cli(['accounts', 'list', '--identifier', 'cli-disc'])).out).toBe(listed.out);
    const call = await cli(['tools', 'call', 'crm_contacts_list', '--identifier', 'cli-disc', '--input', '{}']);
    expect(call.code).toBe(1);
    expect(call.err).toMatch(/reauthorization_required/);
    const missing = await cli(['accounts', 'disconnect', 'acct_missing']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/account_not_found/);
  });

  it('connections delete says what it would do, and does it only with --yes', async () => {
    await h.sandboxConnection(h.a, 'calendar', 'doomed-cal');
    await authorized('doomed-cal', 'cli-del-1');
    await authorized('doomed-cal', 'cli-del-2');
    // A link never opened: a PENDING_AUTH account, deleted with the connection but holding no token to revoke.
    expect((await cli(['link', 'doomed-cal', 'cli-del-3'])).code).toBe(0);
    const asked = await cli(['connections', 'delete', 'doomed-cal']);
    expect(asked.code).toBe(2);
    expect(asked.err).toMatch(/deleting connection doomed-cal \(\S+\) deletes its 3 account\(s\), asking the provider to revoke the tokens of those that hold any; run again with --yes/);
    expect((await cli(['connections', 'list'])).out).toContain('doomed-cal');
    // Google refuses the first revocation.
    h.sandbox.control.setFault('oauth:google', { failNext: { count: 1, status: 400 } });
    const done = await cli(['connections', 'delete', 'doomed-cal', '--yes']);
    h.sandbox.control.clearFaults('oauth:google');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/Deleted connection doomed-cal \(\S+\); 2 account\(s\) held tokens and are disconnected\./);
    expect(done.out).toContain(
      "Tokens deleted here; at the provider: 1 revoked by the provider, 1 refused by the provider. For those not revoked, the users should revoke this app's access in the Google Account's security settings (Third-party apps & services).",
    );
    expect((await cli(['connections', 'list'])).out).not.toContain('doomed-cal');
    expect((await cli(['connections', 'delete', 'doomed-cal', '--yes'])).code).toBe(1);
  });

  it('tools show prints the schema and an example call that works as printed', async () => {
    const res = await cli(['tools', 'show', 'hubspot_contact_create']);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^crm_contact_create \(crm, version \S+\)\s+aliases: hubspot_contact_create/);
    expect(res.out).toContain('"email"');
    const example = /--input '(.*)'$/m.exec(res.out)?.[1];
    expect(JSON.parse(example!)).toEqual({ email: 'ana@example.com' });
    await h.sandboxConnection(h.a, 'crm', 'crm-show');
    await authorized('crm-show', 'cli-show');
    const call = await cli(['tools', 'call', 'crm_contact_create', '--identifier', 'cli-show', '--connection', 'crm-show', '--input', example!]);
    expect(call.code).toBe(0);
    const json = JSON.parse((await cli(['--json', 'tools', 'show', 'workspace_page_create'])).out);
    expect(json.example_input).toBeDefined();
    expect((await cli(['tools', 'show', 'no_such_tool'])).code).toBe(1);
  });
});

describe('environments rotate-secret', () => {
  it('prints a new secret; the old secret and its tokens stop working, the new one works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-cli-rotate-'));
    const env = { AGENT_CONNECTOR_DATA_DIR: dataDir, AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`, AGENT_CONNECTOR_URL: undefined, AGENT_CONNECTOR_CLIENT_ID: undefined, AGENT_CONNECTOR_CLIENT_SECRET: undefined };
    const service = await startService({ env: { ...env, PORT: '0', AGENT_CONNECTOR_SANDBOX: '0' } as NodeJS.ProcessEnv, logger: false });
    try {
      const oldSecret = service.generatedClientSecret!;
      const token = async (secret: string) =>
        fetch(`${service.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: service.clientId, client_secret: secret }),
        });
      const issued = (await (await token(oldSecret)).json()) as { access_token: string };
      // Without --client, the client npm start created (development.json in the data directory).
      const rotated = await cli(['environments', 'rotate-secret'], env);
      expect(rotated.err).toBe('');
      expect(rotated.code).toBe(0);
      const newSecret = /client secret\s+(acs_\S+)/.exec(rotated.out)?.[1];
      expect(newSecret).toBeTruthy();
      expect(rotated.out).toContain(service.clientId);
      expect((await token(oldSecret)).status).toBe(401);
      expect((await token(newSecret!)).status).toBe(200);
      // Tokens issued with the old secret stop working too (the store bumps the client's token generation; each
      // instance re-checks it within a second).
      let status = 0;
      for (let i = 0; i < 30 && status !== 401; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        status = (await fetch(`${service.url}/api/v1/connections`, { headers: { authorization: `Bearer ${issued.access_token}` } })).status;
      }
      expect(status).toBe(401);
      const unknown = await cli(['environments', 'rotate-secret', '--client', 'ac_nobody'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toMatch(/no application client "ac_nobody"/);
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
