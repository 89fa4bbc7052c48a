/**
 * The execution history over HTTP: every tool call and proxy request leaves one record (ids, outcome, codes,
 * attempts; no input unless capture is on, then redacted), `GET /api/v1/executions` filters and pages them,
 * `GET /api/v1/executions/{execution_id}` answers one (404 for any id that is not one of this environment's), and the
 * service writes exactly one log line per request, carrying the same fields.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';
import { conformanceProblems } from './openapi-conformance.js';
import { cursorOf, pagedList, refusedPageQueries } from './paged-list.js';

class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/** Record writes happen after the answer; wait until the history holds `count` records for the query. */
async function history(h: Harness, token: string, query: string, count: number): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const res = await h.call('GET', `/api/v1/executions${query}`, { token });
    expect(res.status).toBe(200);
    if (res.body.executions.length >= count) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the history never held ${count} records for ${query}`);
}

describe('execution history', () => {
  let h: Harness;
  let token: string;
  const logs = new Capture();
  beforeAll(async () => {
    h = await startHarness({ logStream: logs });
    token = await h.token(h.a);
    await connectSandboxUser(h, { connector: 'crm', identifier: 'u1', user: 'u1@example.com' });
  });
  afterAll(async () => h?.close());

  it('records a successful tool call under the id the call returned, without its input', async () => {
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_create', identifier: 'u1', tool_input: { email: 'ada@example.com' } } });
    expect(res.status).toBe(200);
    const body = await history(h, token, '?tool=crm_contact_create', 1);
    const [rec] = body.executions;
    expect(rec).toMatchObject({
      id: res.body.execution_id,
      kind: 'tool',
      connection_name: 'crm',
      identifier: 'u1',
      operation: 'crm_contact_create',
      outcome: 'success',
      error_code: null,
      upstream_status: 201,
      attempts: 1,
      input: null,
    });
    expect(rec.connection_id).toMatch(/\S/);
    expect(Date.parse(rec.started_at)).not.toBeNaN();
    expect(JSON.stringify(body)).not.toContain('ada@example.com');
  });

  it('records failures with their code, under the execution_id their error body names: invalid input, an upstream error after retries', async () => {
    const bad = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', identifier: 'u1', tool_input: {} } });
    expect(bad.status).toBe(400);
    h.sandbox.control.setFault('crm', { failNext: { count: 5, status: 503 } });
    const failed = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', identifier: 'u1', tool_input: { contact_id: '1' } } });
    h.sandbox.control.clearFaults('crm');
    expect(failed.status).toBe(502);
    const body = await history(h, token, '?tool=crm_contact_get&outcome=error', 2);
    const [upstream, invalid] = body.executions;
    // Nothing was sent for the invalid input, but its record names the connection the call would have used.
    expect(invalid).toMatchObject({ error_code: 'invalid_input', connection_name: 'crm', connection_id: upstream.connection_id, upstream_status: null, attempts: 0 });
    // The harness allows one retry: two attempts, the last status kept.
    expect(upstream).toMatchObject({ error_code: 'upstream_error', connection_name: 'crm', upstream_status: 503, attempts: 2 });
    expect((await history(h, token, '?error_code=invalid_input', 1)).executions).toHaveLength(1);
    // Each error body names its record, beside the request id.
    expect(bad.body.error).toMatchObject({ code: 'invalid_input', execution_id: invalid.id, request_id: bad.headers.get('x-request-id') });
    expect(failed.body.error).toMatchObject({ code: 'upstream_error', execution_id: upstream.id });
    expect(conformanceProblems('POST', '/api/v1/execute_tool', failed)).toEqual([]);
    // Each record keeps the message its caller got: what was wrong and where, or the provider's answer.
    expect(invalid.error_message).toBe(bad.body.error.message);
    expect(invalid.error_message).toMatch(/^Invalid input for crm_contact_get: .*contact_id/);
    expect(upstream.error_message).toBe(failed.body.error.message);
    expect(upstream.error_message).toMatch(/^The upstream API answered 503/);
  });

  it('records a tool call refused for bad input with the connection it would have used, so the connection filter finds it', async () => {
    const refuse = async (body: Record<string, unknown>) => {
      const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', tool_input: { contact_id: 7 }, ...body } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      const id = res.body.error.execution_id as string;
      await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${id}`, { token })).status).toBe(200);
      return (await h.call('GET', `/api/v1/executions/${id}`, { token })).body;
    };
    const crm = (await h.call('GET', '/api/v1/connections', { token })).body.connections.find((c: { name: string }) => c.name === 'crm');
    // connection_name omitted: the identifier's one crm account's connection, as a valid call would have used.
    const implied = await refuse({ identifier: 'u1' });
    expect(implied).toMatchObject({ connection_name: 'crm', connection_id: crm.id, attempts: 0 });
    const filtered = (await h.call('GET', '/api/v1/executions?connection_name=crm&outcome=error&error_code=invalid_input&limit=200', { token })).body.executions;
    expect(filtered.map((e: { id: string }) => e.id)).toContain(implied.id);
    // Named: that connection.
    expect(await refuse({ identifier: 'u1', connection_name: 'crm' })).toMatchObject({ connection_name: 'crm', connection_id: crm.id });
    // Named, but no connection has the name: kept as given, with no id.
    expect(await refuse({ identifier: 'u1', connection_name: 'crm-typo' })).toMatchObject({ connection_name: 'crm-typo', connection_id: null });
    // Omitted, and the identifier has no crm account: no connection the call would have used.
    expect(await refuse({ identifier: 'nobody' })).toMatchObject({ connection_name: null, connection_id: null });
    // A valid call that fails once its connection is found (no account there) is recorded with that connection too.
    const noAccount = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', connection_name: 'crm', identifier: 'nobody', tool_input: { contact_id: '7' } } });
    expect(noAccount.body.error.code).toBe('account_not_found');
    await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${noAccount.body.error.execution_id}`, { token })).body.connection_id).toBe(crm.id);
  });

  it('records proxy requests under their path template', async () => {
    const res = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'u1', method: 'get', path: '/crm/v3/objects/contacts/987654', query: { archived: 'false' } } });
    expect(res.status).toBe(200);
    const body = await history(h, token, `?tool=${encodeURIComponent('GET /crm/v3/objects/contacts/{}')}`, 1);
    expect(body.executions[0]).toMatchObject({ kind: 'proxy', outcome: 'success', upstream_status: res.body.status, attempts: 1 });
    expect(JSON.stringify(body)).not.toContain('987654');
  });

  it('answers one execution by the id the call returned: the list item, every field', async () => {
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u1', tool_input: { limit: 1 } } });
    expect(res.status).toBe(200);
    const id = res.body.execution_id as string;
    // Written just after the answer, in the background.
    await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${id}`, { token })).status).toBe(200);
    const one = await h.call('GET', `/api/v1/executions/${id}`, { token });
    const listed = (await h.call('GET', '/api/v1/executions?identifier=u1&limit=200', { token })).body.executions as { id: string }[];
    expect(conformanceProblems('GET', '/api/v1/executions/{execution_id}', one)).toEqual([]);
    expect(one.body).toEqual(listed.find((e) => e.id === id));
    expect(Object.keys(one.body).sort()).toEqual(
      ['attempts', 'connection_id', 'connection_name', 'duration_ms', 'error_code', 'error_message', 'id', 'identifier', 'input', 'kind', 'operation', 'outcome', 'started_at', 'upstream_status'],
    );
    expect(one.body).toMatchObject({ id, kind: 'tool', connection_name: 'crm', identifier: 'u1', operation: 'crm_contacts_list', outcome: 'success', error_code: null, error_message: null, upstream_status: 200, attempts: 1, input: null });
    // A failed call is found the same way, by the execution_id of its error body, with its code.
    const bad = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', identifier: 'u1', tool_input: {} } });
    expect(bad.status).toBe(400);
    const failedId = bad.body.error.execution_id as string;
    await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${failedId}`, { token })).status).toBe(200);
    const failed = (await h.call('GET', `/api/v1/executions/${failedId}`, { token })).body;
    expect(failed).toMatchObject({ id: failedId, outcome: 'error', error_code: 'invalid_input', error_message: bad.body.error.message, operation: 'crm_contact_get' });
    expect(failed).toEqual((await history(h, token, '?error_code=invalid_input&limit=1', 1)).executions[0]);
    // A failed proxy request too.
    const refused = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'nobody', method: 'GET', path: '/crm/v3/objects/contacts' } });
    expect(refused.status).toBe(404);
    await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${refused.body.error.execution_id}`, { token })).body.error_code).toBe('account_not_found');
  });

  it('answers 404 not_found naming the id for an unknown id, another environment\'s, and one that is no execution id', async () => {
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u1', tool_input: {} } });
    const ours = res.body.execution_id as string;
    await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${ours}`, { token })).status).toBe(200);
    const other = await h.token(h.b);
    const cases = [
      // Well formed (a version 7 UUID), but no record has it.
      ['0196a1b2-0000-7000-8000-000000000000', token],
      // Environment A's record, asked for by environment B: the same answer as an unknown id.
      [ours, other],
      // Not an execution id at all: refused before the store is asked.
      ['not-an-execution', token],
      ['exe_001', token],
      [`${ours}x`, token],
    ] as const;
    const reads = vi.spyOn(h.connector.store, 'getExecution');
    try {
      for (const [id, bearer] of cases) {
        const missing = await h.call('GET', `/api/v1/executions/${encodeURIComponent(id)}`, { token: bearer });
        expect(missing.status, id).toBe(404);
        expect(conformanceProblems('GET', '/api/v1/executions/{execution_id}', missing)).toEqual([]);
        expect(missing.body.error).toMatchObject({ code: 'not_found', message: `No execution ${JSON.stringify(id)} in this environment.`, request_id: missing.headers.get('x-request-id') });
        // Only a tool call's or proxy request's error names an execution.
        expect(missing.body.error).not.toHaveProperty('execution_id');
      }
      // The store was asked for the two well-formed ids only.
      expect(reads.mock.calls.map(([, id]) => id)).toEqual([cases[0][0], ours]);
    } finally {
      reads.mockRestore();
    }
    // Environment A still reads its own.
    expect((await h.call('GET', `/api/v1/executions/${ours}`, { token })).body.id).toBe(ours);
    // An id longer than any id is the document's 400, naming the parameter.
    const long = await h.call('GET', `/api/v1/executions/${'e'.repeat(250)}`, { token });
    expect(long.status).toBe(400);
    expect(conformanceProblems('GET', '/api/v1/executions/{execution_id}', long)).toEqual([]);
    expect(long.body.error.details.violations).toEqual([expect.objectContaining({ pointer: '/execution_id', keyword: 'maxLength' })]);
    // Without a token, as every API route.
    expect((await h.call('GET', `/api/v1/executions/${ours}`)).status).toBe(401);
  });

  it('filters by identifier, connection and time, pages with a cursor, and keeps environments apart', async () => {
    await connectSandboxUser(h, { connection: 'crm', identifier: 'u2', user: 'u2@example.com' });
    for (let i = 0; i < 3; i++) {
      await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u2', tool_input: {} } });
    }
    const all = await history(h, token, '?identifier=u2', 3);
    expect(all.executions.every((e: any) => e.identifier === 'u2')).toBe(true);
    const first = await h.call('GET', '/api/v1/executions?identifier=u2&limit=2', { token });
    expect(first.body.executions).toHaveLength(2);
    const second = await h.call('GET', `/api/v1/executions?identifier=u2&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { token });
    expect(second.body.executions).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    expect(new Set([...first.body.executions, ...second.body.executions].map((e: any) => e.id)).size).toBe(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await h.call('GET', `/api/v1/executions?since=${future}`, { token })).body.executions).toEqual([]);
    expect((await h.call('GET', '/api/v1/executions?connection_name=nope', { token })).body.executions).toEqual([]);
    expect((await h.call('GET', '/api/v1/executions', { token: await h.token(h.b) })).body.executions).toEqual([]);
  });

  it('refuses bad filters with a pointer', async () => {
    const limit = await h.call('GET', '/api/v1/executions?limit=0', { token });
    expect(limit.status).toBe(400);
    expect(JSON.stringify(limit.body.error.details)).toContain('/limit');
    const cursor = await h.call('GET', '/api/v1/executions?cursor=forged', { token });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.details.violations[0].pointer).toBe('/cursor');
    expect((await h.call('GET', '/api/v1/executions?outcome=maybe', { token })).status).toBe(400);
  });

  it.each([
    ...refusedPageQueries('0196a1b2-0000-7000-8000-000000000000', ['ca_aaaaaaaaaaaaaaaaaaaaaaaaaa', 'whdl_aaaaaaaaaaaaaaaaaaaaaaaaaa']),
    ['identifier=nobody&cursor=forged', '/cursor'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, pointer) => {
    await pagedList(() => h, '/api/v1/executions', 'executions').expectRefused(query, pointer, token);
  });

  it.each([
    // Well formed, but another list's: a connected account's, a webhook delivery's.
    ['an account cursor', cursorOf('2026-05-01T08:00:00.000Z', 'ca_aaaaaaaaaaaaaaaaaaaaaaaaaa')],
    ['a delivery cursor', cursorOf('2026-05-01T08:00:00.000Z', 'whdl_aaaaaaaaaaaaaaaaaaaaaaaaaa')],
    ['a bare execution id', '0196a1b2-0000-7000-8000-000000000000'],
    ['a time that is not one', cursorOf('soon', '0196a1b2-0000-7000-8000-000000000000')],
  ])('refuses %s with 400 invalid_request at /cursor, whatever the filter matches', async (_what, cursor) => {
    for (const filter of ['', '&identifier=nobody']) {
      const res = await h.call('GET', `/api/v1/executions?cursor=${encodeURIComponent(cursor)}${filter}`, { token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/cursor']);
    }
  });

  it("takes back the cursor of its own page, and pages in the same order the API's cursor names", async () => {
    await connectSandboxUser(h, { connection: 'crm', identifier: 'u3', user: 'u3@example.com' });
    for (let i = 0; i < 3; i++) {
      await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u3', tool_input: {} } });
    }
    const all = (await history(h, token, '?identifier=u3', 3)).executions.map((e: any) => e.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await h.call('GET', `/api/v1/executions?identifier=u3&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { token });
      expect(res.status).toBe(200);
      walked.push(...res.body.executions.map((e: any) => e.id));
      cursor = res.body.next_cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(walked).toEqual(all);
  });

  it('takes a cursor back only with the filters of the page that returned it, at any limit', async () => {
    const paged = pagedList(() => h, '/api/v1/executions', 'executions');
    // u3's three calls, made by the test before.
    await paged.expectCursorBoundToFilters({ identifier: 'u3' }, [
      [{ identifier: 'u2' }, 'identifier'],
      [{}, 'identifier'],
      [{ identifier: 'u3', tool: 'crm_contacts_list' }, 'tool'],
      [{ identifier: 'u3', outcome: 'success' }, 'outcome'],
      [{ tool: 'crm_contacts_list' }, 'identifier, tool'],
    ], token);
    await paged.expectCursorBoundToFilters({ tool: 'crm_contacts_list', outcome: 'success' }, [[{ tool: 'crm_contacts_list', outcome: 'error' }, 'outcome']], token);
  });

  it('logs one line per request, with the execution fields for a call', async () => {
    const before = logs.lines.length;
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u1', tool_input: {} } });
    const lines = logs.lines.slice(before).map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: res.headers.get('x-request-id'),
      req: { method: 'POST', url: '/api/v1/execute_tool' },
      res: { statusCode: 200 },
      execution: { execution_id: res.body.execution_id, operation: 'crm_contacts_list', outcome: 'success', identifier: 'u1', connection_name: 'crm', attempts: 1, upstream_status: 200 },
    });
    const proxied = logs.lines.length;
    const proxy = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'u1', method: 'GET', path: '/crm/v3/objects/contacts' } });
    expect(proxy.status).toBe(200);
    const proxyLines = logs.lines.slice(proxied).map((l) => JSON.parse(l));
    expect(proxyLines).toHaveLength(1);
    expect(proxyLines[0]).toMatchObject({ req: { url: '/api/v1/proxy' }, execution: { execution_id: expect.any(String), kind: 'proxy', outcome: 'success', identifier: 'u1', connection_name: 'crm' } });
    const plain = logs.lines.length;
    await h.call('GET', '/healthz');
    expect(logs.lines.slice(plain).map((l) => JSON.parse(l).msg)).toEqual(['request completed']);
  });
});

describe('execution input capture (opt-in)', () => {
  it('keeps the input with secret-looking and configured fields redacted', async () => {
    const h = await startHarness({ executions: { captureInputs: true, redactFields: ['email'] } });
    try {
      const token = await h.token(h.a);
      await connectSandboxUser(h, { connector: 'crm', identifier: 'u1', user: 'u1@example.com' });
      await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_create', identifier: 'u1', tool_input: { email: 'kim@example.com', firstname: 'Kim' } } });
      await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'u1', method: 'POST', path: '/crm/v3/objects/contacts/search', body: { api_key: 'k-123', filterGroups: [] } } });
      const body = await history(h, token, '', 2);
      const [proxy, tool] = body.executions;
      expect(tool.input).toEqual({ email: '[redacted]', firstname: 'Kim' });
      expect(proxy.input).toEqual({ method: 'POST', path: '/crm/v3/objects/contacts/search', query: null, body: { api_key: '[redacted]', filterGroups: [] } });
      // One execution by id carries the same recorded input.
      expect((await h.call('GET', `/api/v1/executions/${tool.id}`, { token })).body).toEqual(tool);
    } finally {
      await h.close();
    }
  });
});

describe('a failed call\'s message in the history', () => {
  it('has the values of fields input capture redacts taken out, with capture off too', async () => {
    const h = await startHarness({ executions: { redactFields: ['after'] } });
    try {
      const token = await h.token(h.a);
      await connectSandboxUser(h, { connector: 'crm', identifier: 'u1', user: 'u1@example.com' });
      // The refusal quotes the refused value, which the caller sees as it sent it.
      const bad = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'u1', tool_input: { after: 12345678901 } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('Invalid input for crm_contacts_list: after must be a string, not the number 12345678901: send "12345678901"');
      await expect.poll(async () => (await h.call('GET', `/api/v1/executions/${bad.body.error.execution_id}`, { token })).status).toBe(200);
      const rec = (await h.call('GET', `/api/v1/executions/${bad.body.error.execution_id}`, { token })).body;
      expect(rec).toMatchObject({
        error_code: 'invalid_input',
        error_message: 'Invalid input for crm_contacts_list: after must be a string, not the number [redacted]: send "[redacted]"',
        input: null,
      });
    } finally {
      await h.close();
    }
  });
});
