import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pkg from '../../runtime/index.js';
import { createConnector, MAX_ENVIRONMENT_SCOPES } from '../../runtime/connector.js';
import { BASE_URL, ENV, loadDefinitions, startHarness, TEST_KEYS, type Harness } from './connector-harness.js';
import { tools as generatedTools } from '../../generated/tools.gen.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('connections', () => {
  it('create returns the view: redirect URI, default scopes, never the secret', async () => {
    const view = await h.env.createConnection({ name: 'gcal', connector: 'calendar', client_id: 'cid', client_secret: 'very-secret-client-secret' });
    expect(view.redirect_uri).toBe(`${BASE_URL}/sso/v1/oauth/${view.id}/callback`);
    const calendar = (await loadDefinitions()).connectors.find((c) => c.name === 'calendar')!;
    expect(calendar.oauth.defaultScopes.length).toBeGreaterThan(0);
    expect(view.scopes).toEqual([...calendar.oauth.defaultScopes]);
    expect(view.has_client_secret).toBe(true);
    expect(JSON.stringify(view)).not.toContain('very-secret-client-secret');
    expect(JSON.stringify(await h.env.listConnections())).not.toContain('very-secret-client-secret');
    expect((await h.env.getConnection('gcal')).id).toBe(view.id);
    expect((await h.env.getConnection(view.id)).name).toBe('gcal');
  });

  it('update changes fields, keeps the secret write-only, refuses a connector change', async () => {
    const view = await h.env.updateConnection('gcal', { name: 'gcal2', scopes: ['https://www.googleapis.com/auth/calendar'], client_secret: 'rotated-secret-value' });
    expect(view.name).toBe('gcal2');
    expect(view.scopes).toEqual(['https://www.googleapis.com/auth/calendar']);
    expect(JSON.stringify(view)).not.toContain('rotated-secret-value');
    expect(await h.store.getClientCredentials(ENV, view.id)).toEqual({ clientId: 'cid', clientSecret: 'rotated-secret-value' });
    await expect(h.env.updateConnection('gcal2', { connector: 'crm' } as never)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('refuses a new client_id without its client_secret, and keeps the stored pair', async () => {
    const before = await h.env.getConnection('gcal2');
    const error = await h.env.updateConnection('gcal2', { client_id: 'another-client' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'invalid_input',
      details: { violations: [{ pointer: '/client_secret', keyword: 'required', message: expect.stringContaining('client_secret is required when client_id changes') }] },
    });
    expect(await h.store.getClientCredentials(ENV, before.id)).toEqual({ clientId: 'cid', clientSecret: 'rotated-secret-value' });
    // The same id again needs no secret; a new id with its secret is taken.
    await expect(h.env.updateConnection('gcal2', { client_id: 'cid' })).resolves.toMatchObject({ client_id: 'cid' });
    await h.env.updateConnection('gcal2', { client_id: 'another-client', client_secret: 'another-secret' });
    expect(await h.store.getClientCredentials(ENV, before.id)).toEqual({ clientId: 'another-client', clientSecret: 'another-secret' });
    await h.env.updateConnection('gcal2', { client_id: 'cid', client_secret: 'rotated-secret-value' });
  });

  it('refuses invalid input with violations, and duplicate names with conflict', async () => {
    const error = await h.env
      .createConnection({ name: '', connector: 'nope' as never, client_id: '', client_secret: '', overrides: { apiBaseUrl: 'javascript:alert(1)' }, allowed_redirect_urls: ['not a url'] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input' });
    const pointers = (error as { details: { violations: Array<{ pointer: string }> } }).details.violations.map((v) => v.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/name', '/connector', '/client_id', '/client_secret', '/overrides/apiBaseUrl', '/allowed_redirect_urls']));
    await expect(h.env.createConnection({ name: 'gcal2', connector: 'calendar', client_id: 'a', client_secret: 'b' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses scopes for a Notion connection, which has none, on create and update, saying where its capabilities are set', async () => {
    const forbidden = (error: unknown) => {
      expect(error).toMatchObject({ code: 'invalid_input', details: { violations: [{ pointer: '/scopes', keyword: 'forbidden' }] } });
      const [violation] = (error as { details: { violations: Array<{ message: string }> } }).details.violations;
      expect(violation!.message).toBe(
        "scopes cannot be set: Notion has no OAuth scopes: what the integration may do is set by its capabilities, in the integration's settings at https://www.notion.so/my-integrations (Capabilities), and each user picks the pages it may reach when connecting",
      );
    };
    forbidden(await h.env.createConnection({ name: 'notion-scoped', connector: 'workspace', client_id: 'c', client_secret: 's', scopes: ['read_content'] }).catch((e: unknown) => e));
    await expect(h.env.getConnection('notion-scoped')).rejects.toMatchObject({ code: 'connection_not_found' });
    // No scopes is what Notion has: an empty list is taken (the dashboard's edit form sends one).
    const view = await h.env.createConnection({ name: 'notion-plain', connector: 'workspace', client_id: 'c', client_secret: 's', scopes: [] });
    expect(view.scopes).toEqual([]);
    forbidden(await h.env.updateConnection('notion-plain', { scopes: ['insert_comments'] }).catch((e: unknown) => e));
    expect((await h.env.getConnection('notion-plain')).scopes).toEqual([]);
    await expect(h.env.updateConnection('notion-plain', { name: 'notion-renamed', scopes: [] })).resolves.toMatchObject({ name: 'notion-renamed', scopes: [] });
    // Malformed scopes are said to be malformed, as for any connector; the others take scopes as before.
    const malformed = await h.env.updateConnection('notion-renamed', { scopes: ['two words'] }).catch((e: unknown) => e);
    expect(malformed).toMatchObject({ details: { violations: [{ pointer: '/scopes', keyword: 'items' }] } });
    await h.env.deleteConnection('notion-renamed');
  });

  it('delete removes the connection and its accounts', async () => {
    await h.connection('crm', 'hub');
    const account = await h.authorize('hub', 'del-user');
    await h.env.deleteConnection('hub');
    await expect(h.env.getConnection('hub')).rejects.toMatchObject({ code: 'connection_not_found' });
    await expect(h.env.getAccount(account.id)).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(h.env.deleteConnection('hub')).rejects.toMatchObject({ code: 'connection_not_found' });
  });
});

describe('accounts', () => {
  it('list filters by identifier, connection and status; views carry no token', async () => {
    await h.connection('workspace', 'notes');
    const account = await h.authorize('notes', 'lister');
    await h.env.authorizationLink({ connection_name: 'notes', identifier: 'pending' });
    expect((await h.env.listAccounts({ identifier: 'lister' })).map((a) => a.id)).toEqual([account.id]);
    expect((await h.env.listAccounts({ connection_name: 'notes', status: 'PENDING_AUTH' })).map((a) => a.identifier)).toEqual(['pending']);
    expect(await h.env.listAccounts({ connection_name: 'missing' })).toEqual([]);
    const token = (await h.store.getAccount(ENV, account.id))!.tokens!.accessToken;
    expect(JSON.stringify(await h.env.listAccounts())).not.toContain(token);
    expect(account).toMatchObject({ connection_name: 'notes', connector: 'workspace', status: 'ACTIVE' });
  });

  it('pageAccounts is listAccounts a page at a time: same filter and order, the page clamped to the last, the total counted', async () => {
    for (const identifier of ['page-a', 'page-b', 'page-c', 'page-d', 'page-e']) await h.env.authorizationLink({ connection_name: 'notes', identifier });
    const filter = { connection_name: 'notes', status: 'PENDING_AUTH' as const };
    const all = await h.env.listAccounts(filter);
    expect(all.length).toBeGreaterThan(4);
    const pages = Math.ceil(all.length / 2);
    const read = [];
    for (let n = 1; n <= pages; n++) {
      const page = await h.env.pageAccounts(filter, { limit: 2, page: n });
      expect(page).toMatchObject({ total: all.length, page: n });
      read.push(...page.accounts);
    }
    expect(read).toEqual(all);
    expect(await h.env.pageAccounts(filter, { limit: 2, page: pages + 5 })).toEqual({ accounts: all.slice((pages - 1) * 2), total: all.length, page: pages });
    expect(await h.env.pageAccounts(filter, { limit: 2, page: 0 })).toEqual({ accounts: all.slice(0, 2), total: all.length, page: 1 });
    expect(await h.env.pageAccounts({ identifier: 'page-c' }, { limit: 2, page: 1 })).toMatchObject({ accounts: [{ identifier: 'page-c' }], total: 1, page: 1 });
    expect(await h.env.pageAccounts({ connection_name: 'missing' }, { limit: 2, page: 3 })).toEqual({ accounts: [], total: 0, page: 1 });
  });

  it('countAccountsByStatus counts what listAccounts lists, per status, by the same filter', async () => {
    const statuses = ['PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'] as const;
    for (const identifier of ['count-a', 'count-b']) await h.env.authorizationLink({ connection_name: 'notes', identifier });
    for (const filter of [{ connection_name: 'notes' }, { identifier: 'count-a' }, {}]) {
      const listed = await h.env.listAccounts(filter);
      expect(listed.length).toBeGreaterThan(0);
      expect(await h.env.countAccountsByStatus(filter)).toEqual(Object.fromEntries(statuses.map((s) => [s, listed.filter((a) => a.status === s).length])));
    }
    expect(await h.env.countAccountsByStatus({ connection_name: 'missing' })).toEqual({ PENDING_AUTH: 0, ACTIVE: 0, EXPIRED: 0, DISCONNECTED: 0 });
  });

  it('listAccountsPage is listAccounts by cursor: same filter and order, limit clamped to 1..200 (default 50)', async () => {
    for (let i = 0; i < 3; i++) await h.env.authorizationLink({ connection_name: 'notes', identifier: `cursor-${i}` });
    const filter = { connection_name: 'notes', status: 'PENDING_AUTH' as const };
    const all = await h.env.listAccounts(filter);
    expect(all.length).toBeGreaterThan(2);
    const read = [];
    let cursor: string | undefined;
    do {
      const page = await h.env.listAccountsPage({ ...filter, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.connected_accounts.length).toBeLessThanOrEqual(2);
      read.push(...page.connected_accounts);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(read).toEqual(all);
    // In process nothing validates the query first: the limit is clamped as the OpenAPI document's bounds would refuse it.
    expect((await h.env.listAccountsPage({ ...filter, limit: 0 })).connected_accounts).toEqual(all.slice(0, 1));
    expect((await h.env.listAccountsPage({ ...filter, limit: Number.NaN })).connected_accounts).toEqual(all.slice(0, 50));
    expect((await h.env.listAccountsPage({ ...filter, limit: 10_000 })).next_cursor).toBeNull();
    await expect(h.env.listAccountsPage({ cursor: 'forged' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await h.env.listAccountsPage({ connection_name: 'missing' })).toEqual({ connected_accounts: [], next_cursor: null });
  });
});

describe('createConnector', () => {
  it('opens its own SQLite store in dataDir when none is given, and closes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-own-'));
    try {
      const connector = await createConnector({ baseUrl: 'http://localhost:1/', dataDir, encryptionKeys: TEST_KEYS });
      expect(connector.store.kind).toBe('sqlite');
      expect(connector.baseUrl).toBe('http://localhost:1');
      expect(connector.tools.list().map((t) => t.name)).toEqual(generatedTools.map((t) => t.name));
      await connector.store.createEnvironment({ id: 'e', name: 'e' });
      const view = await connector.environment('e').createConnection({ name: 'n', connector: 'workspace', client_id: 'c', client_secret: 's' });
      expect(view.scopes).toEqual([]);
      await connector.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps one scope per environment, and past the bound drops only the oldest built', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-scopes-'));
    try {
      const connector = await createConnector({ baseUrl: 'http://localhost:1/', dataDir, encryptionKeys: TEST_KEYS });
      const first = connector.environment('env_0');
      const second = connector.environment('env_1');
      expect(connector.environment('env_0')).toBe(first);
      for (let i = 2; i <= MAX_ENVIRONMENT_SCOPES; i++) connector.environment(`env_${i}`);
      // One past the bound: env_0, built first, went; env_1 and the newest are the same objects as before.
      expect(connector.environment('env_1')).toBe(second);
      const newest = connector.environment(`env_${MAX_ENVIRONMENT_SCOPES}`);
      expect(connector.environment(`env_${MAX_ENVIRONMENT_SCOPES}`)).toBe(newest);
      const rebuilt = connector.environment('env_0');
      expect(rebuilt).not.toBe(first);
      expect(rebuilt.environmentId).toBe('env_0');
      await connector.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the package entry point exports the public surface', () => {
    expect(typeof pkg.createConnector).toBe('function');
    // The sandbox is a development aid on its own entry point (agent-connector/sandbox), not the product's.
    expect('startSandbox' in pkg).toBe(false);
    expect(typeof pkg.createToolClient).toBe('function');
    expect(pkg.ERROR_CATALOGUE.reauthorization_required.status).toBe(409);
    expect(new pkg.ConnectorError('internal', 'x').status).toBe(500);
  });
});
