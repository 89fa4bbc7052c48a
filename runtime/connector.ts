/**
 * `createConnector(options)`: the runtime as a library. Opens (or takes) the store, builds the HTTP policy, the
 * refresh coordinator and the tool registry once, and hands out per-environment scopes.
 *
 * @example
 * const connector = await createConnector({ baseUrl: 'http://localhost:3000' });
 * const env = connector.environment('env_dev');
 * const { link } = await env.authorizationLink({ connection_name: 'calendar', identifier: 'user-1' });
 * const { data } = await env.executeTool({ tool_name: 'calendar_list_events', identifier: 'user-1', tool_input: {} });
 */
import type { AccountListFilter, AccountView, ConnectionView, RevocationCounts, Connector, ConnectorOptions, EnvironmentScope, OAuthFlow } from './api.js';
import { loadKeyring } from './crypto/index.js';
import { checkTextInput } from './validation/text-input.js';
import { ConnectorError } from './errors.js';
import type { RuntimeContext } from './executor/context.js';
import { executeTool } from './executor/execute-tool.js';
import { LookupCache } from './executor/lookup-cache.js';
import { PrecheckCache } from './executor/precheck-cache.js';
import { TokenRedactions } from './executor/token-redactions.js';
import { TtlCache } from './executor/ttl-cache.js';
import { connectionNameHint } from './executor/connection-hint.js';
import { createToolRegistry } from './executor/tool-registry.js';
import { resolvedAddressRefusal } from './connection-override-policy.js';
import { createUpstreamClient, type UpstreamClientHooks } from './http/client.js';
import { guardedLookup } from './http/guarded-lookup.js';
import { resolveHttpPolicy } from './http/policy.js';
import { redirectUriFor } from './oauth/endpoints.js';
import { completeAuthorization, createAuthorizationLink, disconnectAccount, inspectAuthorizationLink, openAuthorizationLink, revokeAccountTokens, type FlowDeps } from './oauth/flow.js';
import { bindAuthorizationLink, checkLinkBinding } from './oauth/link-binding.js';
import { RefreshCoordinator, type RefreshOptions } from './oauth/refresh.js';
import { runProxy } from './proxy/proxy.js';
import { openStore } from './store/index.js';
import type { AccountFilter, AccountRecord, ConnectionRecord, ExecutionRecord, Store } from './store/types.js';
import type { ConnectorDefinition, ConnectorName, ToolDefinition } from './types.js';
import { checkConnectionInput } from './connection-input.js';
import { executionFilter, executionView, proxyStart, toolStart } from './executions/execution-start.js';
import { readKeysetPage } from './list-page.js';
import { isIdOf } from './store/ids.js';
import { ExecutionTracker, isExecutionId } from './executions/execution-tracker.js';
import { Telemetry } from './telemetry/telemetry.js';
import { webhookAddressRefusal, webhookUrlRefusal } from './webhooks/endpoint-url.js';
import { webhookApi } from './webhooks/webhook-api.js';
import { readConnectorConfig } from './service/config.js';

/**
 * Options beyond the public {@link ConnectorOptions}, for tests and tools: definitions other than the generated
 * ones, refresh timing, and HTTP hooks (a test records retry delays instead of waiting for them).
 */
export interface RuntimeOptions extends ConnectorOptions {
  definitions?: { tools: readonly ToolDefinition[]; connectors: readonly ConnectorDefinition[] };
  refresh?: Partial<RefreshOptions>;
  httpHooks?: UpstreamClientHooks;
  /** Initial retry backoff step in ms (default 500). */
  baseRetryDelayMs?: number;
  /** Lifetime of cached connection/account lookups in ms (default 1000; 0 disables the cache). */
  lookupCacheTtlMs?: number;
  /** Where settings the options leave out are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** Environment scopes a connector keeps built; past it the oldest built goes (see `environment()` in createConnector). */
export const MAX_ENVIRONMENT_SCOPES = 10_000;

async function loadGeneratedDefinitions(): Promise<{ tools: readonly ToolDefinition[]; connectors: readonly ConnectorDefinition[] }> {
  const [toolsModule, connectorsModule] = await Promise.all([import('../generated/tools.gen.js'), import('../generated/connectors.gen.js')]);
  const connectors = connectorsModule.connectors as readonly ConnectorDefinition[] | Record<string, ConnectorDefinition>;
  return {
    tools: toolsModule.tools as readonly ToolDefinition[],
    connectors: Array.isArray(connectors) ? connectors : Object.values(connectors),
  };
}

function connectionView(baseUrl: string, c: ConnectionRecord): ConnectionView {
  return {
    id: c.id,
    name: c.name,
    connector: c.connector,
    client_id: c.clientId,
    // Every connection stores one (it is required on creation and can only be replaced); records never carry it.
    has_client_secret: true,
    scopes: [...c.scopes],
    redirect_uri: redirectUriFor(baseUrl, c.id),
    overrides: { ...c.overrides },
    allowed_redirect_urls: [...c.allowedRedirectUrls],
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

function accountView(a: AccountRecord, c: Pick<ConnectionRecord, 'name' | 'connector'>): AccountView {
  return {
    id: a.id,
    identifier: a.identifier,
    connection_id: a.connectionId,
    connection_name: c.name,
    connector: c.connector,
    status: a.status,
    status_reason: a.statusReason,
    scopes: a.tokens?.scopes ?? [],
    created_at: a.createdAt,
    updated_at: a.updatedAt,
  };
}

export async function createConnector(options: RuntimeOptions): Promise<Connector> {
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) throw new TypeError('createConnector: baseUrl must be an http(s) URL.');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const definitions = options.definitions ?? (await loadGeneratedDefinitions());
  const connectorsByName = new Map<ConnectorName, ConnectorDefinition>(definitions.connectors.map((c) => [c.name, c]));
  const connectorFor = (name: ConnectorName): ConnectorDefinition => {
    const def = connectorsByName.get(name);
    if (def === undefined) throw new ConnectorError('internal', `No definition for connector ${name}.`);
    return def;
  };

  // What the options leave out comes from the environment, read and checked by the one configuration module. The
  // database is only ever the one named in the options (an application embedding the connector chooses it).
  const config = readConnectorConfig(options.env ?? process.env);
  const ownsStore = options.store === undefined;
  const store: Store =
    options.store ??
    (await (async () => {
      const dataDir = options.dataDir ?? config.dataDir;
      const { keyring } = loadKeyring({
        encryptionKeys: options.encryptionKeys ?? config.encryptionKeys,
        dataDir,
        production: config.production,
        warn: (message: string) => options.logger?.warn({}, message),
      });
      return openStore({ databaseUrl: options.databaseUrl, dataDir, keyring, pgPoolSize: options.databasePoolSize ?? config.databasePoolSize });
    })());

  const overridePolicy = options.connectionOverrides ?? config.connectionOverrides;
  const policy = resolveHttpPolicy({
    ...config.http,
    ...options.http,
    ...(options.baseRetryDelayMs === undefined ? {} : { baseRetryDelayMs: options.baseRetryDelayMs }),
  });
  const telemetry = new Telemetry();
  // Every upstream connection's answer is checked: a host name (an override's above all) resolving to a link-local,
  // unspecified or local-use NAT64 address is refused (connection-override-policy.ts, resolvedAddressRefusal).
  const http = createUpstreamClient(policy, {
    now,
    tracer: telemetry.tracer,
    ...options.httpHooks,
    lookup: guardedLookup(resolvedAddressRefusal, options.httpHooks?.lookup),
  });
  const refresher = new RefreshCoordinator({
    store,
    http,
    now,
    telemetry,
    overridePolicy,
    ...(options.logger ? { logger: options.logger } : {}),
    options: {
      skewMs: 60_000,
      // A lease outlives one token request (the only thing done under it), so a live holder never loses it.
      leaseTtlMs: policy.timeoutMs + 5_000,
      pollIntervalMs: 50,
      waitTimeoutMs: 2 * (policy.timeoutMs + 5_000),
      ...options.refresh,
    },
  });
  const tools = createToolRegistry(definitions.tools);
  const cache = new LookupCache({ now, ttlMs: options.lookupCacheTtlMs });
  const prechecks = new PrecheckCache(now);
  const redactions = new TokenRedactions();
  const executions = new ExecutionTracker({ store, telemetry, now, ...(options.logger ? { logger: options.logger } : {}), settings: { ...config.executions, ...options.executions } });
  const ctx: RuntimeContext = { store, http, refresher, tools, cache, prechecks, redactions, overridePolicy, connectorFor, now, ...(options.logger ? { logger: options.logger } : {}) };
  const toolName = (name: string) => tools.resolve(name)?.name;
  const flow: FlowDeps = { store, http, baseUrl, now, connectorFor, overridePolicy, ...(options.logger ? { logger: options.logger } : {}) };

  const oauth: OAuthFlow = {
    async inspectLink(linkToken, presentedBinding) {
      const { link, connection } = await inspectAuthorizationLink(flow, linkToken);
      checkLinkBinding(link, presentedBinding);
      return { connectionName: connection.name, connector: connection.connector, displayName: connectorFor(connection.connector).displayName };
    },
    async openLink(linkToken, presentedBinding) {
      const linkBinding = await bindAuthorizationLink(store, linkToken, presentedBinding);
      const opened = await openAuthorizationLink(flow, linkToken);
      return {
        redirectTo: opened.redirectTo,
        browserCookie: opened.browserCookie,
        linkBinding,
        connectionName: opened.connection.name,
        connector: opened.connection.connector,
      };
    },
    async callback(connectionId, query, browserCookie) {
      const done = await completeAuthorization(flow, connectionId, query, browserCookie);
      cache.invalidateAccount(done.account);
      return { redirectTo: done.redirectTo, account: accountView(done.account, done.connection), displayName: connectorFor(done.connection.connector).displayName };
    },
  };

  /**
   * Scopes hold no state of their own (only the id and this connector's parts), so one per environment is kept:
   * the HTTP service asks for the caller's scope on every request, and building its ~20 closures each time showed.
   * Past {@link MAX_ENVIRONMENT_SCOPES} the oldest one built goes, to be built again if asked for: the bound of the
   * runtime's caches (`executor/ttl-cache.ts`), without their lifetime, since a scope never goes stale (an infinite
   * TTL on a clock that stands still: no clock, however set, expires one).
   */
  const scopes = new TtlCache<string, EnvironmentScope>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: MAX_ENVIRONMENT_SCOPES, now: () => 0 });
  function environment(environmentId: string): EnvironmentScope {
    let scope = scopes.get(environmentId);
    if (scope === undefined) {
      scope = newEnvironmentScope(environmentId);
      scopes.set(environmentId, scope);
    }
    return scope;
  }

  function newEnvironmentScope(environmentId: string): EnvironmentScope {
    /** `pointer`: the body field that named it, for details.violations (a name from the URL path has none). */
    async function connection(idOrName: string, pointer?: string): Promise<ConnectionRecord> {
      const notFound = (message: string, violation: string): ConnectorError =>
        new ConnectorError('connection_not_found', message, pointer === undefined ? {} : { details: { violations: [{ pointer, message: violation, keyword: 'not_found' }] } });
      if (typeof idOrName !== 'string' || idOrName === '') throw notFound('No connection with an empty name.', 'connection_name is empty');
      checkTextInput(idOrName, pointer ?? '', 'The connection id or name');
      const found = (await store.getConnection(environmentId, idOrName)) ?? (await store.getConnectionByName(environmentId, idOrName));
      if (found === null) {
        const shown = JSON.stringify(idOrName.slice(0, 100));
        const hint = connectionNameHint(idOrName, (await store.listConnections(environmentId)).map((c) => c.name));
        throw notFound(`No connection ${shown} in this environment.${hint}`, `connection_name ${shown} names no connection in this environment.${hint}`);
      }
      return found;
    }
    /**
     * A list filter as the store takes it (the connection by id), and how its rows become views; null when the
     * named connection does not exist (nothing matches).
     */
    async function accountSelection(filter: AccountListFilter): Promise<{ filter: AccountFilter; views(rows: AccountRecord[]): AccountView[] } | null> {
      checkTextInput(filter.identifier, '/identifier', 'identifier');
      checkTextInput(filter.connection_name, '/connection_name', 'connection_name');
      const connections = await store.listConnections(environmentId);
      const byId = new Map(connections.map((c) => [c.id, c]));
      let connectionId: string | undefined;
      if (filter.connection_name !== undefined) {
        const named = connections.find((c) => c.name === filter.connection_name);
        if (named === undefined) return null;
        connectionId = named.id;
      }
      return {
        filter: {
          ...(filter.identifier === undefined ? {} : { identifier: filter.identifier }),
          ...(connectionId === undefined ? {} : { connectionId }),
          ...(filter.status === undefined ? {} : { status: filter.status }),
        },
        views: (rows) =>
          rows.flatMap((a) => {
            const conn = byId.get(a.connectionId);
            return conn === undefined ? [] : [accountView(a, conn)];
          }),
      };
    }
    async function account(id: string): Promise<{ account: AccountRecord; connection: ConnectionRecord }> {
      checkTextInput(id, '', 'The account id');
      const found = typeof id === 'string' && id !== '' ? await store.getAccount(environmentId, id) : null;
      const conn = found === null ? null : await store.getConnection(environmentId, found.connectionId);
      if (found === null || conn === null) throw new ConnectorError('account_not_found', `No connected account ${JSON.stringify(String(id))} in this environment.`);
      return { account: found, connection: conn };
    }
    return {
      environmentId,
      async createConnection(input) {
        const checked = checkConnectionInput(input, 'create', connectorFor, overridePolicy);
        const rec = await store.createConnection({
          environmentId,
          name: checked.name as string,
          connector: input.connector,
          clientId: checked.clientId as string,
          clientSecret: checked.clientSecret as string,
          scopes: checked.scopes ?? [...connectorFor(input.connector).oauth.defaultScopes],
          overrides: checked.overrides ?? {},
          allowedRedirectUrls: checked.allowedRedirectUrls ?? [],
        });
        // A call without connection_name may now have a second connection to choose from.
        cache.invalidateEnvironment(environmentId);
        return connectionView(baseUrl, rec);
      },
      async listConnections() {
        return (await store.listConnections(environmentId)).map((c) => connectionView(baseUrl, c));
      },
      async getConnection(idOrName) {
        return connectionView(baseUrl, await connection(idOrName));
      },
      async updateConnection(idOrName, patch) {
        const current = await connection(idOrName);
        const checked = checkConnectionInput(patch, 'update', connectorFor, overridePolicy, current);
        const updated = await store.updateConnection(environmentId, current.id, checked);
        cache.invalidateEnvironment(environmentId);
        if (updated === null) throw new ConnectorError('connection_not_found', `No connection ${JSON.stringify(idOrName)} in this environment.`);
        return connectionView(baseUrl, updated);
      },
      async deleteConnection(idOrName) {
        const current = await connection(idOrName);
        // Deleting the rows alone would leave every grant alive at the provider: revoke first, then delete (the
        // store writes account.disconnected for each account that held tokens, with the deletion).
        const holding = (await store.listAccounts(environmentId, { connectionId: current.id })).filter((a) => a.tokens !== null);
        const revocations: RevocationCounts = { revoked: 0, refused: 0, unreachable: 0, not_offered: 0, not_sent: 0 };
        for (const held of holding) {
          const { outcome } = await revokeAccountTokens(flow, held, current);
          if (outcome !== 'no_tokens') revocations[outcome] += 1;
        }
        const deleted = await store.deleteConnection(environmentId, current.id);
        cache.invalidateEnvironment(environmentId);
        if (!deleted) throw new ConnectorError('connection_not_found', `No connection ${JSON.stringify(idOrName)} in this environment.`);
        return { id: current.id, name: current.name, deleted: true, disconnected_accounts: holding.length, revocations };
      },
      async authorizationLink(input) {
        const conn = await connection(input?.connection_name, '/connection_name');
        const made = await createAuthorizationLink(flow, conn, input.identifier, input.redirect_url, input.scopes);
        // The new (PENDING_AUTH) account may make this identifier's calls without connection_name ambiguous: drop
        // the implicit choice remembered for it rather than keep using the other connection for up to a TTL.
        cache.invalidateAccount(made.account);
        return { link: made.link, expiry: made.expiry, connected_account_id: made.account.id };
      },
      async listAccounts(filter = {}) {
        const selection = await accountSelection(filter);
        return selection === null ? [] : selection.views(await store.listAccounts(environmentId, selection.filter));
      },
      async listAccountsPage(query = {}) {
        const page = await readKeysetPage(query, isIdOf('ca'), (a: AccountView) => ({ time: a.created_at, id: a.id }), async (limit, after) => {
          const selection = await accountSelection(query);
          if (selection === null) return [];
          return selection.views(await store.listAccounts(environmentId, selection.filter, { limit, ...(after === undefined ? {} : { after: { createdAt: after.time, id: after.id } }) }));
        });
        return { connected_accounts: page.items, next_cursor: page.nextCursor };
      },
      async pageAccounts(filter, page) {
        const selection = await accountSelection(filter);
        const total = selection === null ? 0 : await store.countAccounts(environmentId, selection.filter);
        const limit = Math.max(1, Math.floor(page.limit));
        const last = Math.max(1, Math.ceil(total / limit));
        const current = Number.isInteger(page.page) && page.page >= 1 ? Math.min(page.page, last) : 1;
        if (selection === null || total === 0) return { accounts: [], total, page: current };
        const rows = await store.listAccounts(environmentId, selection.filter, { limit, offset: (current - 1) * limit });
        return { accounts: selection.views(rows), total, page: current };
      },
      async countAccountsByStatus(filter) {
        const selection = await accountSelection(filter);
        return selection === null ? { PENDING_AUTH: 0, ACTIVE: 0, EXPIRED: 0, DISCONNECTED: 0 } : store.countAccountsByStatus(environmentId, selection.filter);
      },
      async getAccount(id) {
        const found = await account(id);
        return accountView(found.account, found.connection);
      },
      async disconnectAccount(id) {
        const found = await account(id);
        const revocation = await disconnectAccount(flow, found.account, found.connection);
        cache.invalidateAccount(found.account);
        const view = accountView((await store.getAccount(environmentId, id)) ?? { ...found.account, status: 'DISCONNECTED', tokens: null }, found.connection);
        return { ...view, revocation };
      },
      executeTool: (input, options) =>
        executions.run(
          toolStart(environmentId, input, toolName),
          async (execution) => {
            const result = await executeTool({ ...ctx, execution }, environmentId, input);
            // The id the caller sees is the one its record has.
            result.execution_id = execution.id;
            return result;
          },
          options?.logExecution,
        ),
      proxy: (input, options) => executions.run(proxyStart(environmentId, input), (execution) => runProxy({ ...ctx, execution }, environmentId, input), options?.logExecution),
      async listExecutions(query = {}) {
        const page = await readKeysetPage(query, isExecutionId, (e: ExecutionRecord) => ({ time: e.startedAt, id: e.id }), (limit, before) =>
          store.listExecutions(environmentId, executionFilter(query), { limit, ...(before === undefined ? {} : { before: { startedAt: before.time, id: before.id } }) }),
        );
        return { executions: page.items.map(executionView), next_cursor: page.nextCursor };
      },
      async getExecution(id) {
        // Only a well-formed id reaches the store: anything else names no execution, as an unknown one does.
        const found = typeof id === 'string' && isExecutionId(id) ? await store.getExecution(environmentId, id) : null;
        if (found === null) throw new ConnectorError('not_found', `No execution ${JSON.stringify(String(id).slice(0, 100))} in this environment.`);
        return executionView(found);
      },
      ...webhookApi(store, environmentId, { now, urlRefusal: (url) => webhookUrlRefusal(url, overridePolicy) }),
    };
  }

  return {
    store,
    baseUrl,
    environment,
    oauth,
    webhookUrlRefusal: (url) => webhookUrlRefusal(url, overridePolicy),
    webhookAddressRefusal: (hostname, address) => webhookAddressRefusal(hostname, address, overridePolicy),
    tools,
    async close() {
      http.close();
      await executions.drain();
      if (ownsStore) await store.close();
    },
  };
}

