/**
 * `createClient({envUrl, clientId, clientSecret})`: the service over HTTP with the same interface as the in-process
 * runtime's environment scope (`connector.environment(id)`), plus the tool catalog. It fetches and renews its own
 * access token and retries a request once with a fresh token if the service says the old one expired.
 */
import type {
  AccountListFilter,
  AccountListQuery,
  AuthorizationLinkInput,
  CreateConnectionInput,
  EnvironmentScope,
  ExecuteToolInput,
  ExecutionListQuery,
  ExecutionView,
  ProxyInput,
  UpdateConnectionInput,
} from '../api.js';
import { createToolClient, type ToolClient } from '../../generated/client.gen.js';
import type { components } from '../../generated/openapi-types.gen.js';
import { PAGE_SIZE } from '../list-page.js';
import type { ToolDefinitionFor, ToolFormat } from '../agent/formats/index.js';
import type { ConnectorName } from '../types.js';
import { readServiceResponse } from './errors.js';
import { queryString, seg } from './query-string.js';
import { TokenSource } from './token-source.js';
import { webhookClient } from './webhook-client.js';

export interface ClientOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:3000`. */
  envUrl: string;
  clientId: string;
  clientSecret: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  now?: () => number;
}

/** Wire shapes, from the emitted OpenAPI document. */
type Schemas = components['schemas'];

/** A catalog entry as `GET /api/v1/tools` returns it. */
export type CatalogTool = Required<Schemas['Tool']>;

/**
 * One entry of `listTools({ format })`: the catalog's wire shape for `catalog` (the default), else the format's
 * definition, the type `toolDefinitions(format)` gives in process ({@link ToolDefinitionFor}); a format known only at
 * run time gives the union.
 */
export type ListedTool<F extends ToolFormat> = F extends 'catalog' ? CatalogTool : ToolDefinitionFor<F>;

export interface ListToolsQuery {
  connector?: ConnectorName;
  /** A natural-language query: the tools it matches, best first. */
  query?: string;
  /** Shape of each entry (see docs/agents.md, "Tool definitions"); `catalog` by default. */
  format?: ToolFormat;
  /** Only the tools of connectors where this end user has an ACTIVE connected account. */
  identifier?: string;
  /** true: only the tools that only read; false: only those that write. */
  read_only?: boolean;
}

/**
 * What both transports offer: the environment scope without its id (the HTTP client learns it from its token) and
 * without the dashboard's in-process page of accounts.
 */
export type EnvironmentApi = Omit<EnvironmentScope, 'environmentId' | 'pageAccounts' | 'countAccountsByStatus'>;

export interface HttpClient extends EnvironmentApi {
  readonly envUrl: string;
  /** One typed method per tool (the generated client over this transport). */
  readonly tools: ToolClient;
  /** The selected tools in `query.format` (`catalog` when left out), typed by that format (see {@link ListedTool}). */
  listTools<F extends ToolFormat = 'catalog'>(query?: ListToolsQuery & { format?: F }): Promise<ListedTool<F>[]>;
  getTool(name: string): Promise<CatalogTool>;
  /**
   * The selected tools in one format, ready for a model API's `tools` (e.g. `toolDefinitions('openai-strict',
   * { identifier: 'user-1' })`): the service's GET /api/v1/tools.
   */
  toolDefinitions<F extends ToolFormat>(format: F, options?: Omit<ListToolsQuery, 'format'>): Promise<ToolDefinitionFor<F>[]>;
  /** Mints an MCP session for one end user: `{id, url, token, expires_at, ...}`; give `url` and `token` to the agent. */
  createMcpSession(input: Schemas['CreateMcpSession']): Promise<Schemas['CreatedMcpSession']>;
  listMcpSessions(filter?: { identifier?: string }): Promise<Schemas['McpSessionView'][]>;
  revokeMcpSession(id: string): Promise<Schemas['McpSessionView']>;
  /** A raw call with the client's token; `path` starts with `/`. */
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
}

export function createClient(options: ClientOptions): HttpClient {
  const envUrl = options.envUrl.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(envUrl)) throw new TypeError('envUrl must be an http(s) URL');
  const doFetch = options.fetch ?? fetch;
  const tokens = new TokenSource({ envUrl, clientId: options.clientId, clientSecret: options.clientSecret, fetch: doFetch, now: options.now ?? Date.now });

  async function send(method: string, path: string, body: unknown, token: string): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return doFetch(`${envUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let token = await tokens.get();
    let response = await send(method, path, body, token);
    if (response.status === 401) {
      // The token may have expired early (service restarted with a new key): one retry with a fresh token.
      await response.body?.cancel();
      tokens.invalidate(token);
      token = await tokens.get();
      response = await send(method, path, body, token);
    }
    if (response.status === 204) return undefined as T;
    return (await readServiceResponse(response)) as T;
  }

  const listAccountsPage = (query: AccountListQuery = {}) => request<Schemas['AccountList']>('GET', `/api/v1/connected_accounts${queryString(query)}`);

  const api: Omit<HttpClient, 'tools'> = {
    envUrl,
    request,
    createConnection: (input: CreateConnectionInput) => request<Schemas['ConnectionView']>('POST', '/api/v1/connections', input satisfies Schemas['CreateConnection']),
    listConnections: async () => (await request<{ connections: Schemas['ConnectionView'][] }>('GET', '/api/v1/connections')).connections,
    getConnection: (idOrName: string) => request<Schemas['ConnectionView']>('GET', `/api/v1/connections/${seg(idOrName)}`),
    updateConnection: (idOrName: string, patch: UpdateConnectionInput) => request<Schemas['ConnectionView']>('PATCH', `/api/v1/connections/${seg(idOrName)}`, patch satisfies Schemas['UpdateConnection']),
    deleteConnection: (idOrName: string) => request<Schemas['ConnectionDeletion']>('DELETE', `/api/v1/connections/${seg(idOrName)}`),
    authorizationLink: (input: AuthorizationLinkInput) => request<Schemas['AuthorizationLink']>('POST', '/api/v1/connected_accounts/magic_link', input satisfies Schemas['MagicLinkRequest']),
    listAccounts: async (filter: AccountListFilter = {}) => {
      // The route answers a page at a time: every account is every page, read in turn, each as large as it allows.
      const accounts: Schemas['AccountView'][] = [];
      let cursor: string | undefined;
      do {
        const page = await listAccountsPage({ ...filter, limit: PAGE_SIZE.max, ...(cursor === undefined ? {} : { cursor }) });
        accounts.push(...page.connected_accounts);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return accounts;
    },
    listAccountsPage,
    getAccount: (id: string) => request<Schemas['AccountView']>('GET', `/api/v1/connected_accounts/${seg(id)}`),
    disconnectAccount: (id: string) => request<Schemas['AccountDisconnection']>('DELETE', `/api/v1/connected_accounts/${seg(id)}`),
    executeTool: (input: ExecuteToolInput) => request<Schemas['ExecuteToolResponse']>('POST', '/api/v1/execute_tool', input),
    proxy: (input: ProxyInput) => request<Schemas['ProxyResponse']>('POST', '/api/v1/proxy', input),
    listExecutions: (query: ExecutionListQuery = {}) =>
      request<Awaited<ReturnType<EnvironmentScope['listExecutions']>>>('GET', `/api/v1/executions${queryString(query)}`),
    getExecution: (id: string) => request<ExecutionView>('GET', `/api/v1/executions/${seg(id)}`),
    listTools: async <F extends ToolFormat = 'catalog'>(query: ListToolsQuery & { format?: F } = {}) =>
      (await request<{ tools: ListedTool<F>[] }>('GET', `/api/v1/tools${queryString(query)}`)).tools,
    toolDefinitions: async <F extends ToolFormat>(format: F, options: Omit<ListToolsQuery, 'format'> = {}) =>
      (await request<{ tools: ToolDefinitionFor<F>[] }>('GET', `/api/v1/tools${queryString({ ...options, format })}`)).tools,
    getTool: (name: string) => request<CatalogTool>('GET', `/api/v1/tools/${seg(name)}`),
    ...webhookClient(request),
    createMcpSession: (input: Schemas['CreateMcpSession']) => request<Schemas['CreatedMcpSession']>('POST', '/api/v1/mcp_sessions', input),
    listMcpSessions: async (filter: { identifier?: string } = {}) =>
      (await request<{ mcp_sessions: Schemas['McpSessionView'][] }>('GET', `/api/v1/mcp_sessions${queryString(filter)}`)).mcp_sessions,
    revokeMcpSession: (id: string) => request<Schemas['McpSessionView']>('DELETE', `/api/v1/mcp_sessions/${seg(id)}`),
  };
  return { ...api, tools: createToolClient(api) };
}
