/**
 * The one-page list commands against a running service: `accounts --limit/--cursor` and `executions`. Pages are
 * followed by running the printed `Next page:` line (its words as a POSIX shell splits them) until there is none;
 * `--json` prints the page as the API answers it; a bad `--limit` or `--cursor` is the service's 400, naming it. The
 * line repeats `--env-url` and `--client-id` given as flags (run by `sh` as the real command, it reaches the same
 * service) and never `--client-secret`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { runCli } from '../../runtime/cli/program.js';
import { freePort } from '../../runtime/service/free-port.js';
import { startHarness, type Harness } from '../service/harness.js';

let h: Harness;

/** The variables each command runs with by default: environment A's client of the harness's service. */
const variables = (): Record<string, string> => ({ AGENT_CONNECTOR_URL: h.url, AGENT_CONNECTOR_CLIENT_ID: h.a.clientId, AGENT_CONNECTOR_CLIENT_SECRET: h.a.clientSecret });

async function cli(args: string[], env: Record<string, string> = variables()): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env };
  const result = await runCli(args, io);
  return { code: result.code, out: out.join('\n'), err: err.join('\n') };
}

/** The command of a `Next page:` line as a shell would run it: its words after `agent-connector`, quotes removed. */
function nextPageArgs(out: string): string[] | undefined {
  const line = out.split('\n').find((l) => l.startsWith('Next page: '));
  if (line === undefined) return undefined;
  const command = line.slice('Next page: '.length);
  expect(command.startsWith('agent-connector ')).toBe(true);
  const words = execFileSync('sh', ['-c', `printf '%s\\0' ${command.slice('agent-connector '.length)}`], { encoding: 'utf8' });
  return words.split('\0').slice(0, -1);
}

/** The table rows' values of column `name` (a header and a rule first; the table ends at a blank line). */
function column(out: string, name: string): string[] {
  const [header, , ...rows] = out.split('\n\n')[0]!.split('\n');
  const starts = [...header!.matchAll(/\S+/g)];
  const at = starts.findIndex((m) => m[0] === name);
  expect(at).toBeGreaterThanOrEqual(0);
  const end = starts[at + 1]?.index;
  return rows.map((row) => row.slice(starts[at]!.index, end).trim());
}

/** Runs `args` and every printed next page: each page's output. Bounded, so a hint that never ends fails. */
async function followPages(args: string[], env?: Record<string, string>): Promise<string[]> {
  const pages: string[] = [];
  let next: string[] | undefined = args;
  for (let n = 0; n < 20 && next !== undefined; n++) {
    const res = await cli(next, env);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    pages.push(res.out);
    next = nextPageArgs(res.out);
  }
  expect(next).toBeUndefined();
  return pages;
}

async function authorize(connection: string, identifier: string): Promise<void> {
  const link = await cli(['--json', 'link', connection, identifier]);
  expect((await consentThroughSandbox(JSON.parse(link.out).link, { user: `${identifier}@example.com` })).status).toBe(200);
}

/** A refusal: exit 1, the service's `invalid_request`, its request id and the parameter named. */
function expectRefused(res: { code: number; out: string; err: string }, parameter: 'limit' | 'cursor'): void {
  expect(res.code).toBe(1);
  expect(res.out).toBe('');
  expect(res.err).toMatch(/^error: invalid_request: .*\(request id req_/);
  expect(res.err).toContain(`  /${parameter}: `);
  expect(res.err.split('\n')[0]).toContain(parameter);
}

beforeAll(async () => {
  // Each command run asks for a token (a credential check): this file runs more than the default budget's 60 a minute.
  h = await startHarness({ credentialRateLimit: false });
  await h.sandboxConnection(h.a, 'crm', 'crm-pages');
  for (const n of [1, 2, 3, 4, 5]) await authorize('crm-pages', `pager-${n}`);
});
afterAll(async () => h?.close());

describe('accounts --limit / --cursor', () => {
  it('reads one page at a time; following the printed next page reads every account once, then prints no hint', async () => {
    const all = await cli(['--json', 'accounts', '--connection', 'crm-pages']);
    const ids = (JSON.parse(all.out) as { id: string }[]).map((a) => a.id);
    expect(ids).toHaveLength(5);
    // Without --limit or --cursor: every account in one table, no hint.
    const table = await cli(['accounts', '--connection', 'crm-pages']);
    expect(column(table.out, 'id')).toEqual(ids);
    expect(table.out).not.toContain('Next page');

    const pages = await followPages(['accounts', '--connection', 'crm-pages', '--limit', '2']);
    expect(pages.map((p) => column(p, 'id'))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    // The hint keeps the filter and the limit.
    expect(nextPageArgs(pages[0]!)).toEqual(['accounts', '--connection', 'crm-pages', '--limit', '2', '--cursor', expect.any(String)]);
    expect(pages[2]).not.toContain('Next page');

    // --cursor alone: the default page size from there, the rest in one page.
    const cursor = nextPageArgs(pages[0]!)!.at(-1)!;
    const rest = await cli(['accounts', '--connection', 'crm-pages', '--cursor', cursor]);
    expect(column(rest.out, 'id')).toEqual(ids.slice(2));
    expect(rest.out).not.toContain('Next page');
  });

  it('--json prints the page as the API answers it', async () => {
    const first = await cli(['--json', 'accounts', '--connection', 'crm-pages', '--limit', '3']);
    expect(first.code).toBe(0);
    const page = JSON.parse(first.out);
    expect(Object.keys(page).sort()).toEqual(['connected_accounts', 'next_cursor']);
    expect(page.connected_accounts.map((a: { identifier: string }) => a.identifier)).toEqual(['pager-1', 'pager-2', 'pager-3']);
    expect(page.next_cursor).toEqual(expect.any(String));
    const last = JSON.parse((await cli(['--json', 'accounts', '--connection', 'crm-pages', '--limit', '3', '--cursor', page.next_cursor])).out);
    expect(last.connected_accounts.map((a: { identifier: string }) => a.identifier)).toEqual(['pager-4', 'pager-5']);
    expect(last.next_cursor).toBeNull();
    expect(first.out).not.toContain('Next page');
  });

  it('a bad --limit or --cursor is the service refusal naming it, exit 1', async () => {
    for (const limit of ['0', '201', 'abc']) expectRefused(await cli(['accounts', '--limit', limit]), 'limit');
    expectRefused(await cli(['accounts', '--cursor', 'not-a-cursor']), 'cursor');
    expectRefused(await cli(['--json', 'accounts', '--limit', '2', '--cursor', 'not-a-cursor']), 'cursor');
  });
});

describe('executions', () => {
  /** The history for `identifier` once it holds `count` records (they are written just after each call's answer). */
  async function history(identifier: string, count: number): Promise<{ id: string; outcome: string; operation: string }[]> {
    for (let i = 0; i < 100; i++) {
      const res = await cli(['--json', 'executions', '--identifier', identifier, '--limit', '200']);
      expect(res.code).toBe(0);
      const { executions } = JSON.parse(res.out);
      if (executions.length >= count) return executions;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the history never held ${count} records for ${identifier}`);
  }

  let records: { id: string; outcome: string; operation: string }[];
  beforeAll(async () => {
    // Three successes (two tool calls and a proxy request) and two failures (invalid input, an upstream 404).
    const calls = [
      ['tools', 'call', 'crm_contact_create', '--identifier', 'pager-1', '--input', '{"email":"ada@example.com"}'],
      ['tools', 'call', 'crm_contact_get', '--identifier', 'pager-1', '--input', '{}'],
      ['proxy', 'crm-pages', 'pager-1', 'GET', '/crm/v3/objects/contacts', '--query', 'limit=1'],
      ['tools', 'call', 'crm_contacts_list', '--identifier', 'pager-1', '--input', '{}'],
      ['tools', 'call', 'crm_contact_get', '--identifier', 'pager-1', '--input', '{"contact_id":"999999"}'],
    ];
    for (const args of calls) await cli(args);
    records = await history('pager-1', calls.length);
  });

  it('lists the history newest first in a table, one page with a next-page hint that reads the rest', async () => {
    const table = await cli(['executions', '--identifier', 'pager-1']);
    expect(table.code).toBe(0);
    expect(table.out.split('\n')[0]).toMatch(/^started_at\s+identifier\s+connection_name\s+operation\s+outcome\s+error_code\s+duration_ms\s+id$/);
    expect(column(table.out, 'id')).toEqual(records.map((r) => r.id));
    expect(column(table.out, 'operation')).toEqual(['crm_contact_get', 'crm_contacts_list', 'GET /crm/v3/objects/contacts', 'crm_contact_get', 'crm_contact_create']);
    expect(table.out).not.toContain('Next page');

    const pages = await followPages(['executions', '--identifier', 'pager-1', '--limit', '2']);
    expect(pages.map((p) => column(p, 'id'))).toEqual([records.slice(0, 2).map((r) => r.id), records.slice(2, 4).map((r) => r.id), [records[4]!.id]]);
    expect(nextPageArgs(pages[0]!)?.slice(0, 5)).toEqual(['executions', '--identifier', 'pager-1', '--limit', '2']);
  });

  it('applies the filters: --outcome error shows only the failures, --error-code and --operation narrow further', async () => {
    const failures = await cli(['executions', '--identifier', 'pager-1', '--outcome', 'error']);
    expect(failures.code).toBe(0);
    expect(column(failures.out, 'outcome')).toEqual(['error', 'error']);
    expect(column(failures.out, 'error_code').sort()).toEqual(['invalid_input', 'upstream_error']);
    const invalid = await cli(['executions', '--identifier', 'pager-1', '--error-code', 'invalid_input']);
    expect(column(invalid.out, 'operation')).toEqual(['crm_contact_get']);
    const successes = await cli(['executions', '--identifier', 'pager-1', '--outcome', 'success', '--connection', 'crm-pages']);
    expect(column(successes.out, 'operation')).toEqual(['crm_contacts_list', 'GET /crm/v3/objects/contacts', 'crm_contact_create']);
    const future = await cli(['executions', '--identifier', 'pager-1', '--since', new Date(Date.now() + 3_600_000).toISOString()]);
    expect(future.out).toBe('(none)');
    const past = await cli(['executions', '--identifier', 'pager-1', '--until', '2000-01-01T00:00:00Z']);
    expect(past.out).toBe('(none)');
  });

  it('quotes the values in the hint as a shell needs them: a proxy operation with spaces pages as printed', async () => {
    for (const n of [1, 2]) expect((await cli(['proxy', 'crm-pages', 'pager-2', 'GET', '/crm/v3/objects/contacts', '--query', `limit=${n}`])).code).toBe(0);
    await history('pager-2', 2);
    const pages = await followPages(['executions', '--identifier', 'pager-2', '--operation', 'GET /crm/v3/objects/contacts', '--limit', '1']);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("--operation 'GET /crm/v3/objects/contacts'");
    expect(pages.map((p) => column(p, 'operation'))).toEqual([['GET /crm/v3/objects/contacts'], ['GET /crm/v3/objects/contacts']]);
  });

  it('--json prints the page as the API answers it', async () => {
    const res = await cli(['--json', 'executions', '--identifier', 'pager-1', '--outcome', 'error', '--limit', '1']);
    expect(res.code).toBe(0);
    const page = JSON.parse(res.out);
    expect(Object.keys(page).sort()).toEqual(['executions', 'next_cursor']);
    expect(page.executions).toHaveLength(1);
    expect(page.executions[0]).toMatchObject({ id: records.filter((r) => r.outcome === 'error')[0]!.id, outcome: 'error', kind: 'tool', identifier: 'pager-1' });
    expect(page.next_cursor).toEqual(expect.any(String));
    const last = JSON.parse((await cli(['--json', 'executions', '--identifier', 'pager-1', '--outcome', 'error', '--limit', '1', '--cursor', page.next_cursor])).out);
    expect(last.executions).toHaveLength(1);
    expect(last.next_cursor).toBeNull();
  });

  it('refuses a bad --limit or --cursor (the service, naming it, exit 1) and an unknown --outcome (usage, exit 2)', async () => {
    for (const limit of ['0', '201', 'abc']) expectRefused(await cli(['executions', '--limit', limit]), 'limit');
    expectRefused(await cli(['executions', '--cursor', 'not-a-cursor']), 'cursor');
    // Another list's cursor is refused: the history's is not one of the accounts list...
    const executions = JSON.parse((await cli(['--json', 'executions', '--limit', '1'])).out);
    expect(executions.next_cursor).toEqual(expect.any(String));
    expectRefused(await cli(['accounts', '--limit', '2', '--cursor', executions.next_cursor]), 'cursor');
    // Nor is an accounts cursor one of the history.
    const accounts = JSON.parse((await cli(['--json', 'accounts', '--limit', '1'])).out);
    expect(accounts.next_cursor).toEqual(expect.any(String));
    expectRefused(await cli(['executions', '--cursor', accounts.next_cursor]), 'cursor');
    const outcome = await cli(['executions', '--outcome', 'failed']);
    expect(outcome.code).toBe(2);
    // The choices are the API's outcomes.
    const openapi = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../generated/openapi.json'), 'utf8'));
    expect(outcome.err).toContain(`Allowed choices are ${openapi.components.schemas.ExecutionOutcome.enum.join(', ')}.`);
  });
});

describe('the next-page line and the global flags', () => {
  const run = promisify(execFile);
  /** A directory whose `agent-connector` is this checkout's command (bin/agent-connector.js), for `sh` to find. */
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'ac-bin-'));
    writeFileSync(join(bin, 'agent-connector'), `#!/bin/sh\nexec '${process.execPath}' '${resolve(import.meta.dirname, '../../bin/agent-connector.js')}' "$@"\n`);
    chmodSync(join(bin, 'agent-connector'), 0o755);
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  /** The `Next page:` line of `out`, whole. */
  function nextPageLine(out: string): string | undefined {
    return out.split('\n').find((l) => l.startsWith('Next page: '));
  }

  /**
   * The printed next page run by `sh` as it is printed (a separate process, the real command), with only `env` for
   * its variables; then every page it prints in turn. Each page's output.
   */
  async function followInShell(out: string, env: Record<string, string>): Promise<string[]> {
    const pages: string[] = [];
    let line = nextPageLine(out);
    for (let n = 0; n < 10 && line !== undefined; n++) {
      const res = await run('sh', ['-c', line.slice('Next page: '.length)], {
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? tmpdir(), ...env },
        timeout: 60_000,
      });
      expect(res.stderr).toBe('');
      pages.push(res.stdout.trimEnd());
      line = nextPageLine(res.stdout);
    }
    expect(line).toBeUndefined();
    return pages;
  }

  /** Variables that name another service (nothing listens there) and no client id: only the flags reach the harness. */
  async function elsewhere(): Promise<Record<string, string>> {
    return { AGENT_CONNECTOR_URL: `http://127.0.0.1:${await freePort()}`, AGENT_CONNECTOR_CLIENT_SECRET: h.a.clientSecret };
  }

  it('repeats --env-url and --client-id given as flags: the line, run by sh, reads the rest from that service', async () => {
    const ids = (JSON.parse((await cli(['--json', 'accounts', '--connection', 'crm-pages'])).out) as { id: string }[]).map((a) => a.id);
    const env = await elsewhere();
    // The variables alone reach no service.
    expect((await cli(['--client-id', h.a.clientId, 'accounts', '--limit', '2'], env)).code).toBe(1);

    const flags = ['--env-url', h.url, '--client-id', h.a.clientId];
    const first = await cli([...flags, 'accounts', '--connection', 'crm-pages', '--limit', '2'], env);
    expect(first.code).toBe(0);
    expect(column(first.out, 'id')).toEqual(ids.slice(0, 2));
    expect(nextPageArgs(first.out)).toEqual([...flags, 'accounts', '--connection', 'crm-pages', '--limit', '2', '--cursor', expect.any(String)]);
    const rest = await followInShell(first.out, env);
    expect(rest.map((p) => column(p, 'id'))).toEqual([ids.slice(2, 4), ids.slice(4)]);
    expect(nextPageArgs(rest[0]!)?.slice(0, 4)).toEqual(flags);
    // Flags after the command are global flags too, and repeated the same way.
    const after = await cli(['accounts', '--connection', 'crm-pages', '--limit', '2', ...flags], env);
    expect(nextPageArgs(after.out)?.slice(0, 4)).toEqual(flags);
  }, 120_000);

  it('pages the history the same way, a quoted filter and all', async () => {
    for (const n of [1, 2, 3]) expect((await cli(['proxy', 'crm-pages', 'pager-3', 'GET', '/crm/v3/objects/contacts', '--query', `limit=${n}`])).code).toBe(0);
    let ids: string[] = [];
    await expect.poll(async () => (ids = JSON.parse((await cli(['--json', 'executions', '--identifier', 'pager-3'])).out).executions.map((e: { id: string }) => e.id)).length).toBe(3);
    const env = await elsewhere();
    const first = await cli(['--env-url', h.url, '--client-id', h.a.clientId, 'executions', '--identifier', 'pager-3', '--operation', 'GET /crm/v3/objects/contacts', '--limit', '2'], env);
    expect(first.code).toBe(0);
    expect(nextPageLine(first.out)).toContain(`agent-connector --env-url ${h.url} --client-id ${h.a.clientId} executions --identifier pager-3 --operation 'GET /crm/v3/objects/contacts' --limit 2 --cursor `);
    const rest = await followInShell(first.out, env);
    expect([column(first.out, 'id'), ...rest.map((p) => column(p, 'id'))]).toEqual([ids.slice(0, 2), ids.slice(2)]);
  }, 120_000);

  it('never prints --client-secret: the line leaves it out, and the next run reads AGENT_CONNECTOR_CLIENT_SECRET', async () => {
    const secret = h.a.clientSecret;
    const env = { AGENT_CONNECTOR_URL: h.url, AGENT_CONNECTOR_CLIENT_ID: h.a.clientId };
    const runs = [
      ['--client-secret', secret, 'accounts', '--connection', 'crm-pages', '--limit', '2'],
      ['accounts', '--connection', 'crm-pages', '--limit', '2', '--client-secret', secret],
      ['--env-url', h.url, '--client-id', h.a.clientId, '--client-secret', secret, 'executions', '--limit', '1'],
      ['--json', '--client-secret', secret, 'accounts', '--limit', '2'],
      ['--json', '--client-secret', secret, 'executions', '--limit', '1'],
    ];
    for (const args of runs) {
      const res = await cli(args, env);
      expect(res.code, res.err).toBe(0);
      expect(`${res.out}\n${res.err}`).not.toContain(secret);
      expect(nextPageLine(res.out) === undefined).toBe(args[0] === '--json');
    }
    const first = await cli(runs[0]!, env);
    const next = nextPageArgs(first.out)!;
    expect(next).toEqual(['accounts', '--connection', 'crm-pages', '--limit', '2', '--cursor', expect.any(String)]);
    // As printed, it needs the secret from the variable: without it the command stops naming it (exit 2)...
    const without = await cli(next, env);
    expect(without.code).toBe(2);
    expect(without.err).toContain('AGENT_CONNECTOR_CLIENT_SECRET');
    // ... and with it, it reads the next page.
    const withVariable = await cli(next, { ...env, AGENT_CONNECTOR_CLIENT_SECRET: secret });
    expect(withVariable.code).toBe(0);
    expect(column(withVariable.out, 'id')).toHaveLength(2);
  });

  it('prints no next-page line with --json, whatever flags were given: the page is the JSON alone', async () => {
    const res = await cli(['--json', '--env-url', h.url, '--client-id', h.a.clientId, 'accounts', '--connection', 'crm-pages', '--limit', '2'], await elsewhere());
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out).next_cursor).toEqual(expect.any(String));
  });
});
