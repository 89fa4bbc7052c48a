import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnector } from '../../../runtime/connector.js';
import { SecretBox, secretAad } from '../../../runtime/crypto/secret-box.js';
import { BASE_URL, ENV, loadDefinitions, startHarness, type Harness } from '../connector-harness.js';

let h: Harness;
const sleeps: number[] = [];
let databaseId = '';

beforeAll(async () => {
  h = await startHarness({ runtime: { httpHooks: { sleep: async (ms) => void sleeps.push(ms) }, http: { maxRetries: 2, maxRetryDelayMs: 30_000 } } });
  await h.connection('workspace', 'notes');
  await h.connection('calendar', 'cal');
  await h.authorize('notes', 'ada');
  const found = await h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'ada', tool_input: { query: 'Tasks' } });
  const results = (found.data as { results: Array<{ object: string; id: string }> }).results;
  databaseId = results.find((r) => r.object === 'database')?.id ?? '';
  expect(databaseId).not.toBe('');
});
afterAll(() => h.close());
beforeEach(() => {
  sleeps.length = 0;
  h.sandbox.control.clearFaults();
  h.sandbox.control.clearRequests();
});

const retrieve = (input: Record<string, unknown> = {}, extra: { connection_name?: string; identifier?: string } = {}) =>
  h.env.executeTool({ tool_name: 'workspace_database_retrieve', connection_name: 'notes', identifier: 'ada', tool_input: { database_id: databaseId, ...input }, ...extra });
const sent = () => h.sandbox.control.requests('workspace');

describe('executeTool', () => {
  it('concurrent calls for a user not in the lookup cache share one account read', async () => {
    await h.authorize('notes', 'grace');
    const store = h.store as { findAccount: typeof h.store.findAccount };
    const original = store.findAccount;
    let reads = 0;
    store.findAccount = (...args) => {
      reads++;
      return original.apply(h.store, args);
    };
    try {
      await Promise.all(Array.from({ length: 5 }, () => h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'grace', tool_input: { query: 'x' } })));
    } finally {
      store.findAccount = original;
    }
    expect(reads).toBe(1);
    expect(sent()).toHaveLength(5);
  });

  it('a call without connection_name that misses the lookup cache is one query: the connection list is cached too', async () => {
    await h.authorize('notes', 'implicit-reader');
    await h.authorize('notes', 'implicit-reader-2');
    const store = h.store as { findAccount: typeof h.store.findAccount; listAccounts: typeof h.store.listAccounts; listConnections: typeof h.store.listConnections };
    const [findAccount, listAccounts, listConnections] = [store.findAccount, store.listAccounts, store.listConnections];
    const reads: string[] = [];
    store.findAccount = (...args) => (reads.push(`findAccount ${args[2]}`), findAccount.apply(h.store, args));
    store.listAccounts = (...args) => (reads.push('listAccounts'), listAccounts.apply(h.store, args));
    store.listConnections = (...args) => (reads.push('listConnections'), listConnections.apply(h.store, args));
    const search = (identifier: string) => h.env.executeTool({ tool_name: 'workspace_search', identifier, tool_input: { query: 'x' } });
    try {
      // Two concurrent misses for one user share one read of the list and one of the account.
      await Promise.all([search('implicit-reader'), search('implicit-reader')]);
      // Another user within the TTL: only their account is read (one query), the environment's connections are cached.
      await search('implicit-reader-2');
      // A connection created in this process is seen at once by the next implicit lookup: the list is read again.
      await h.env.createConnection({ name: 'notes-2', connector: 'workspace', client_id: 'c2', client_secret: 's2', overrides: h.sandbox.endpoints('workspace') });
      await search('implicit-reader');
    } finally {
      Object.assign(store, { findAccount, listAccounts, listConnections });
    }
    // The one workspace connection's account, by the per-call lookup; not every account of the identifier. After the
    // new connection, both workspace connections are asked (the user has an account on the first only).
    expect(reads).toEqual(['listConnections', 'findAccount implicit-reader', 'findAccount implicit-reader-2', 'listConnections', 'findAccount implicit-reader', 'findAccount implicit-reader']);
  });

  it('a call without connection_name decrypts only the access token it sends: no client secret, no other account', async () => {
    await h.authorize('notes', 'decrypt-reader');
    await h.authorize('cal', 'decrypt-reader');
    const [account] = await h.env.listAccounts({ identifier: 'decrypt-reader', connection_name: 'notes' });
    const open = vi.spyOn(SecretBox.prototype, 'open');
    try {
      await h.env.executeTool({ tool_name: 'workspace_search', identifier: 'decrypt-reader', tool_input: { query: 'x' } });
      expect(open.mock.calls.map(([, aad]) => aad)).toEqual([secretAad('connected_accounts', account!.id, 'access_token')]);
    } finally {
      open.mockRestore();
    }
  });

  it('returns the upstream JSON as data with an execution id, sending Bearer and Notion-Version', async () => {
    const result = await retrieve();
    expect((result.data as { id: string }).id).toBe(databaseId);
    expect(result.execution_id).toMatch(/^[0-9a-f-]{36}$/);
    const [req] = sent();
    expect(req?.method).toBe('GET');
    expect(req?.headers['notion-version']).toBe('2022-06-28');
    expect(req?.headers.authorization).toMatch(/^Bearer /);
  });

  it('resolves aliases and refuses unknown tools before anything is sent', async () => {
    await expect(h.env.executeTool({ tool_name: 'no_such_tool', identifier: 'ada', tool_input: {} })).rejects.toMatchObject({ code: 'unknown_tool', status: 404 });
    expect(h.connector.tools.resolve('googlecalendar_list_events')?.name).toBe('calendar_list_events');
    expect(sent()).toHaveLength(0);
  });

  it('refuses invalid input with every violation and sends nothing', async () => {
    const error = await h.env
      .executeTool({ tool_name: 'workspace_database_query', connection_name: 'notes', identifier: 'ada', tool_input: { page_size: 500, unknown_param: 1 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400 });
    const violations = (error as { details: { violations: Array<{ pointer: string; message: string }> } }).details.violations;
    const pointers = violations.map((v) => v.pointer);
    expect(pointers).toContain('/page_size');
    expect(violations.length).toBeGreaterThanOrEqual(3);
    for (const v of violations) expect(v.message.length).toBeGreaterThan(0);
    expect(sent()).toHaveLength(0);
    await expect(h.env.executeTool({ tool_name: 'workspace_search', identifier: 'ada', tool_input: 'x' as never })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('validates tool_version / schema_version and strips them before building', async () => {
    await expect(retrieve({ tool_version: '9.9.9' })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(sent()).toHaveLength(0);
    const tool = h.connector.tools.resolve('workspace_database_retrieve')!;
    await retrieve({ tool_version: tool.version, schema_version: tool.schemaVersions[0] });
    const [req] = sent();
    expect(JSON.stringify(req?.query)).not.toContain('tool_version');
    expect(JSON.stringify(req?.query)).not.toContain('schema_version');
  });

  it('workspace_version overrides the version header', async () => {
    await retrieve({ workspace_version: '2025-09-03' });
    expect(sent()[0]?.headers['notion-version']).toBe('2025-09-03');
  });

  it('connection_name may be omitted with exactly one account; ambiguous with two; account_not_found with none', async () => {
    const result = await h.env.executeTool({ tool_name: 'workspace_database_retrieve', identifier: 'ada', tool_input: { database_id: databaseId } });
    expect((result.data as { id: string }).id).toBe(databaseId);
    await expect(h.env.executeTool({ tool_name: 'workspace_search', identifier: 'nobody', tool_input: {} })).rejects.toMatchObject({
      code: 'account_not_found',
      details: { violations: [{ pointer: '/identifier', keyword: 'not_found' }] },
    });
    await h.connection('workspace', 'notes2');
    await h.authorize('notes2', 'ada');
    await expect(h.env.executeTool({ tool_name: 'workspace_search', identifier: 'ada', tool_input: {} })).rejects.toMatchObject({
      code: 'ambiguous_connection',
      status: 409,
      details: { connections: ['notes', 'notes2'] },
    });
    const notes2 = (await h.env.listAccounts({ identifier: 'ada', connection_name: 'notes2' }))[0]!;
    await h.env.disconnectAccount(notes2.id);
    expect((await h.env.executeTool({ tool_name: 'workspace_search', identifier: 'ada', tool_input: {} })).data).toMatchObject({ object: 'list' });
  });

  it('without connection_name, a sole DISCONNECTED or EXPIRED account is reauthorization_required, as with it', async () => {
    const search = (identifier: string, named = false) =>
      h.env.executeTool({ tool_name: 'workspace_search', identifier, tool_input: {}, ...(named ? { connection_name: 'notes' } : {}) });
    const account = await h.authorize('notes', 'dora');
    expect((await search('dora')).data).toMatchObject({ object: 'list' });
    await h.env.disconnectAccount(account.id);
    h.sandbox.control.clearRequests();
    await expect(search('dora', true)).rejects.toMatchObject({ code: 'reauthorization_required', status: 409 });
    const implicit = await search('dora').catch((e: unknown) => e);
    expect(implicit).toMatchObject({ code: 'reauthorization_required', status: 409, details: { connected_account_id: account.id, status: 'DISCONNECTED' } });
    expect((implicit as Error).message).toBe('The account of "dora" on connection "notes" must be authorized again (disconnected); create a new authorization link.');
    expect(sent()).toHaveLength(0);

    const expired = await h.authorize('notes', 'eve');
    await h.store.setAccountStatus(expired.id, 'EXPIRED', 'invalid_grant');
    await expect(search('eve')).rejects.toMatchObject({ code: 'reauthorization_required', details: { status: 'EXPIRED' } });
    // With nothing at all for the identifier, it stays account_not_found.
    await expect(search('nobody-at-all')).rejects.toMatchObject({ code: 'account_not_found' });
  });

  it('refuses unknown connections, connections of another connector, and accounts that are not ACTIVE', async () => {
    await expect(retrieve({}, { connection_name: 'nope' })).rejects.toMatchObject({
      code: 'connection_not_found',
      details: { violations: [{ pointer: '/connection_name', keyword: 'not_found', message: expect.stringMatching(/^connection_name "nope" names no connection in this environment\. Its connections: [a-z0-9, -]+\.$/) }] },
    });
    // A near miss names the connection meant; the list is the environment's own.
    const names = (await h.env.listConnections()).map((c) => c.name);
    expect(names.length).toBeGreaterThan(1);
    await expect(retrieve({}, { connection_name: `${names[0]}x` })).rejects.toThrow(`No connection named "${names[0]}x" in this environment. Did you mean "${names[0]}"?`);
    await expect(retrieve({}, { connection_name: 'nope' })).rejects.toThrow(`Its connections: ${[...names].sort().join(', ')}.`);
    await expect(retrieve({}, { connection_name: 'cal' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(retrieve({}, { identifier: 'stranger' })).rejects.toMatchObject({
      code: 'account_not_found',
      details: { violations: [{ pointer: '/identifier', keyword: 'not_found', message: 'identifier "stranger" has no connected account on connection "notes"' }] },
    });
    await h.env.authorizationLink({ connection_name: 'notes', identifier: 'pending-user' });
    // Never authorized: the message says the link is unfinished, not that a grant must be renewed.
    const pending = await retrieve({}, { identifier: 'pending-user' }).catch((e: unknown) => e);
    expect(pending).toMatchObject({ code: 'reauthorization_required', status: 409, details: { status: 'PENDING_AUTH', reason: 'pending_auth' } });
    expect((pending as Error).message).toBe(
      'The account of "pending-user" on connection "notes" is not authorized yet (pending_auth): the user has not finished the authorization link; send it to them, or create a new one.',
    );
    expect(sent()).toHaveLength(0);
  });

  it('another environment does not see this one', async () => {
    await h.store.createEnvironment({ id: 'env_other', name: 'other' });
    const other = h.connector.environment('env_other');
    await expect(other.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'ada', tool_input: {} })).rejects.toMatchObject({
      code: 'connection_not_found',
    });
    await expect(other.getConnection('notes')).rejects.toMatchObject({ code: 'connection_not_found' });
    const [account] = await h.env.listAccounts({ identifier: 'ada', connection_name: 'notes' });
    await expect(other.getAccount(account!.id)).rejects.toMatchObject({ code: 'account_not_found' });
    expect(await other.listAccounts()).toEqual([]);
    expect((await h.store.getAccount(ENV, account!.id))?.identifier).toBe('ada');
  });
});

describe('lookup cache', () => {
  it('an account disconnected by another process is refused at once: the 401 re-reads the row', async () => {
    await h.authorize('notes', 'cached');
    const call = () => h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'cached', tool_input: {} });
    await call();
    const other = await createConnector({ store: h.store, baseUrl: BASE_URL, now: () => h.clock.now, definitions: await loadDefinitions() });
    try {
      const [account] = await other.environment(ENV).listAccounts({ identifier: 'cached', connection_name: 'notes' });
      await other.environment(ENV).disconnectAccount(account!.id);
    } finally {
      await other.close();
    }
    h.sandbox.control.clearRequests();
    await expect(call()).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect(sent().length).toBeLessThanOrEqual(1);
    await expect(call()).rejects.toMatchObject({ code: 'reauthorization_required' });
    expect(sent().length).toBeLessThanOrEqual(1);
  });

  it('a re-authorized account is usable at once', async () => {
    const account = await h.authorize('notes', 'again');
    await h.env.disconnectAccount(account.id);
    await expect(h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'again', tool_input: {} })).rejects.toMatchObject({
      code: 'reauthorization_required',
    });
    await h.authorize('notes', 'again');
    expect((await h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'again', tool_input: {} })).data).toMatchObject({ object: 'list' });
  });
});

describe('lookup cache and authorization links', () => {
  it('a link for a second connection makes calls without connection_name ambiguous at once, not after the TTL', async () => {
    await h.connection('workspace', 'notes-second');
    await h.authorize('notes', 'switcher');
    const implicit = () => h.env.executeTool({ tool_name: 'workspace_search', identifier: 'switcher', tool_input: {} });
    expect((await implicit()).data).toMatchObject({ object: 'list' });
    expect((await implicit()).data).toMatchObject({ object: 'list' }); // now served from the remembered implicit choice
    await h.env.authorizationLink({ connection_name: 'notes-second', identifier: 'switcher' });
    await expect(implicit()).rejects.toMatchObject({ code: 'ambiguous_connection', details: { connections: ['notes', 'notes-second'] } });
  });
});

describe('upstream errors and the HTTP policy on tool calls', () => {
  it('an upstream 404 is upstream_error with the status and the sanitized body', async () => {
    const error = await retrieve({ database_id: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error', details: { status: 404, body: { object: 'error', code: 'object_not_found' } } });
    expect((error as { status: number }).status).toBe(404);
    const token = (await h.store.findAccount(ENV, (await h.env.getConnection('notes')).id, 'ada'))!.tokens!.accessToken;
    expect(JSON.stringify(error)).not.toContain(token);
    expect((error as Error).message).not.toContain(token);
  });

  it('429 on an idempotent tool is retried honouring Retry-After', async () => {
    h.sandbox.control.setFault('workspace', { failNext: { count: 1, status: 429, retryAfterSeconds: 7 } });
    await retrieve();
    expect(sent().map((r) => r.status)).toEqual([429, 200]);
    expect(sleeps).toEqual([7_000]);
  });

  it('5xx on a GET tool is retried with backoff', async () => {
    h.sandbox.control.setFault('workspace', { failNext: { count: 2, status: 503 } });
    await retrieve();
    expect(sent().map((r) => r.status)).toEqual([503, 503, 200]);
    expect(sleeps).toHaveLength(2);
  });

  it('a create is never retried blindly', async () => {
    // The row's column check reads the schema first (a GET, which may be retried): read it now, so the fault
    // below hits the create itself.
    await h.env.executeTool({ tool_name: 'workspace_database_query_properties', connection_name: 'notes', identifier: 'ada', tool_input: { database_id: databaseId, property_id: 'title' } });
    h.sandbox.control.clearRequests();
    h.sandbox.control.setFault('workspace', { failNext: { count: 1, status: 503 } });
    const error = await h.env
      .executeTool({ tool_name: 'workspace_page_create', connection_name: 'notes', identifier: 'ada', tool_input: { database_id: databaseId, properties: { Name: { title: [{ text: { content: 'x' } }] } } } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_error', details: { status: 503 } });
    expect(sent()).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a POST marked safe (search) is retried', async () => {
    h.sandbox.control.setFault('workspace', { failNext: { count: 1, status: 500 } });
    await h.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'ada', tool_input: {} });
    expect(sent().map((r) => r.status)).toEqual([500, 200]);
  });

  it('429 after all retries -> upstream_rate_limited with retryAfterSeconds', async () => {
    h.sandbox.control.setFault('workspace', { failNext: { count: 3, status: 429, retryAfterSeconds: 5 } });
    await expect(retrieve()).rejects.toMatchObject({ code: 'upstream_rate_limited', status: 429, retryAfterSeconds: 5 });
    expect(sent()).toHaveLength(3);
  });

  it('401 -> refresh -> retry on a tool call', async () => {
    h.sandbox.control.expireAccessTokens('notion', 'ada@example.com');
    const before = h.sandbox.control.tokenRequestCount('notion', 'refresh_token');
    await retrieve();
    expect(sent().map((r) => r.status)).toEqual([401, 200]);
    expect(h.sandbox.control.tokenRequestCount('notion', 'refresh_token')).toBe(before + 1);
  });

  it('upstream timeout -> upstream_timeout', async () => {
    const slow = await startHarness({ runtime: { http: { timeoutMs: 200, maxRetries: 0 } } });
    try {
      await slow.connection('workspace', 'notes');
      await slow.authorize('notes', 'ada');
      slow.sandbox.control.setFault('workspace', { latencyMs: 1_000 });
      await expect(slow.env.executeTool({ tool_name: 'workspace_search', connection_name: 'notes', identifier: 'ada', tool_input: {} })).rejects.toMatchObject({
        code: 'upstream_timeout',
        status: 504,
      });
    } finally {
      await slow.close();
    }
  });
});
