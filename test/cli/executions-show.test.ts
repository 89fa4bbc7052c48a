/**
 * `agent-connector executions show <execution_id>` against a running service (input capture on, `email` redacted): the execution's
 * fields as a table and its recorded input as JSON, `--json` the API's object, and an id that is none of this
 * environment's executions the service's `not_found` with exit code 1. `executions` alone still lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { runCli } from '../../runtime/cli/program.js';
import { startHarness, type Harness, type TestEnv } from '../service/harness.js';

let h: Harness;

async function cli(args: string[], as: TestEnv = h.a): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (t: string) => out.push(t),
    err: (t: string) => err.push(t),
    env: { AGENT_CONNECTOR_URL: h.url, AGENT_CONNECTOR_CLIENT_ID: as.clientId, AGENT_CONNECTOR_CLIENT_SECRET: as.clientSecret },
  };
  const result = await runCli(args, io);
  return { code: result.code, out: out.join('\n'), err: err.join('\n') };
}

/** The `name  value` rows of the table `executions show` prints (before the blank line), as an object. */
function fields(out: string): Record<string, string> {
  const rows = out.split('\n\n')[0]!.split('\n');
  return Object.fromEntries(rows.map((row) => {
    const [, name, value] = /^(\S+)\s*(.*)$/.exec(row)!;
    return [name!, value!];
  }));
}

/** What the API answers for the id (waiting for the record, which is written just after the call's answer). */
async function apiExecution(id: string): Promise<Record<string, unknown>> {
  const token = await h.token(h.a);
  await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${id}`, { token })).status).toBe(200);
  return (await h.call('GET', `/api/v1/executions/${id}`, { token })).body;
}

let toolId: string;
beforeAll(async () => {
  h = await startHarness({ executions: { captureInputs: true, redactFields: ['email'] } });
  await h.sandboxConnection(h.a, 'crm', 'crm-show');
  const link = JSON.parse((await cli(['--json', 'link', 'crm-show', 'shown-user'])).out);
  expect((await consentThroughSandbox(link.link, { user: 'shown@example.com' })).status).toBe(200);
  const called = await cli(['tools', 'call', 'crm_contact_create', '--identifier', 'shown-user', '--input', '{"email":"ada@example.com","firstname":"Ada"}']);
  expect(called.code).toBe(0);
  toolId = JSON.parse(called.out).execution_id;
});
afterAll(async () => h?.close());

describe('executions show', () => {
  it('prints every field of the execution in a table, then the recorded input (redacted) as JSON', async () => {
    const view = await apiExecution(toolId);
    const res = await cli(['executions', 'show', toolId]);
    expect(res).toMatchObject({ code: 0, err: '' });
    const shown = fields(res.out);
    expect(Object.keys(shown)).toEqual(['id', 'started_at', 'kind', 'operation', 'outcome', 'error_code', 'error_message', 'identifier', 'connection_name', 'connection_id', 'upstream_status', 'attempts', 'duration_ms']);
    expect(shown).toMatchObject({
      id: toolId, kind: 'tool', operation: 'crm_contact_create', outcome: 'success', error_code: '', error_message: '', identifier: 'shown-user',
      connection_name: 'crm-show', upstream_status: '201', attempts: '1',
    });
    expect(shown.started_at).toBe(view.started_at);
    expect(shown.connection_id).toBe(view.connection_id);
    expect(shown.duration_ms).toBe(String(view.duration_ms));
    const [, input] = res.out.split('\n\nInput:\n');
    expect(JSON.parse(input!)).toEqual({ email: '[redacted]', firstname: 'Ada' });
    expect(res.out).not.toContain('ada@example.com');
  });

  it('shows a failed call with its error code, and says when no input was recorded', async () => {
    const failed = await cli(['proxy', 'crm-show', 'shown-user', 'GET', '/crm/v3/objects/contacts/999999']);
    expect(failed.code).toBe(0);
    const token = await h.token(h.a);
    let proxyId = '';
    await expect.poll(async () => {
      const listed = (await h.call('GET', '/api/v1/executions?identifier=shown-user&tool=GET%20%2Fcrm%2Fv3%2Fobjects%2Fcontacts%2F%7B%7D', { token })).body.executions;
      proxyId = listed[0]?.id ?? '';
      return proxyId;
    }).not.toBe('');
    const proxy = fields((await cli(['executions', 'show', proxyId])).out);
    expect(proxy).toMatchObject({ kind: 'proxy', operation: 'GET /crm/v3/objects/contacts/{}', outcome: 'success', upstream_status: '404' });

    // A record written before input capture was on (or with it off) has no input.
    const bare = {
      id: '0196a1b2-0000-7000-8000-00000000beef', environmentId: h.a.environmentId, startedAt: new Date().toISOString(), kind: 'tool' as const,
      connectionId: null, connectionName: null, identifier: 'shown-user', operation: 'crm_contact_get', outcome: 'error' as const,
      errorCode: 'invalid_input', errorMessage: 'Invalid input for crm_contact_get: contact_id is required;\n  a second line', upstreamStatus: null, attempts: 0, durationMs: 1, input: null,
    };
    await h.connector.store.recordExecutions([bare]);
    const res = await cli(['executions', 'show', bare.id]);
    expect(res.code).toBe(0);
    // The message on its one row, whatever line breaks it holds.
    expect(fields(res.out)).toMatchObject({ outcome: 'error', error_code: 'invalid_input', error_message: 'Invalid input for crm_contact_get: contact_id is required; a second line', connection_name: '', connection_id: '', upstream_status: '', attempts: '0' });
    expect(res.out.split('\n\n')[1]).toBe('Input: not recorded (the service keeps inputs only with AGENT_CONNECTOR_EXECUTION_CAPTURE_INPUTS=1)');
  });

  it('--json prints the object the API answers', async () => {
    const view = await apiExecution(toolId);
    const res = await cli(['--json', 'executions', 'show', toolId]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toEqual(view);
    // --json after the command, as commander takes it, too.
    expect(JSON.parse((await cli(['executions', 'show', toolId, '--json'])).out)).toEqual(view);
  });

  it("exits 1 with the service's not_found for an unknown id, another environment's and a malformed one", async () => {
    await apiExecution(toolId);
    const cases: [string, TestEnv][] = [
      ['0196a1b2-0000-7000-8000-000000000000', h.a],
      [toolId, h.b],
      ['not-an-execution', h.a],
    ];
    for (const [id, as] of cases) {
      for (const json of [[], ['--json']]) {
        const res = await cli([...json, 'executions', 'show', id], as);
        expect(res.code, id).toBe(1);
        expect(res.out).toBe('');
        expect(res.err).toMatch(new RegExp(`^error: not_found: No execution ${JSON.stringify(id)} in this environment\\. \\(request id req_\\S+\\)$`));
      }
    }
    // No id at all is a usage error.
    const missing = await cli(['executions', 'show']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'execution_id'");
  });

  it('leaves `executions` the list it was: the default subcommand, with its filters', async () => {
    await apiExecution(toolId);
    const listed = await cli(['executions', '--identifier', 'shown-user', '--operation', 'crm_contact_create']);
    expect(listed.code).toBe(0);
    expect(listed.out.split('\n')[0]).toMatch(/^started_at\s+identifier\s+connection_name\s+operation\s+outcome\s+error_code\s+duration_ms\s+id$/);
    expect(listed.out).toContain(toolId);
    expect((await cli(['executions', 'list', '--identifier', 'shown-user', '--operation', 'crm_contact_create'])).out).toBe(listed.out);
    const json = JSON.parse((await cli(['--json', 'executions', '--identifier', 'shown-user', '--operation', 'crm_contact_create'])).out);
    expect(json.executions.map((e: { id: string }) => e.id)).toEqual([toolId]);
  });
});
