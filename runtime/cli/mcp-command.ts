/**
 * `agent-connector mcp`: an MCP server on stdio for local agent hosts (Claude Desktop/Code, Cursor), for one end user.
 *
 * - Against a running service (default): mints a session with the application's credentials and bridges stdio to
 *   the service's `/mcp` (runtime/mcp/stdio-bridge.ts).
 * - `--local`: in this process, on the store the service uses (DATABASE_URL / AGENT_CONNECTOR_DATA_DIR /
 *   AGENT_CONNECTOR_ENCRYPTION_KEY, as `start` reads them), with the same scope rules as a minted session. Whoever
 *   can run this can read the store anyway, so no session token is involved.
 *
 * stdout carries protocol messages only; every log line goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { HttpClient } from '../client/index.js';
import { createConnector } from '../connector.js';
import { KeyringError } from '../crypto/index.js';
import { isConnectorError } from '../errors.js';
import { createMcpServer } from '../mcp/server.js';
import { checkSessionScope, type SessionScopeInput } from '../mcp/session-scope.js';
import { runBridge, type MintedSession } from '../mcp/stdio-bridge.js';
import { ConfigError, readConfig, serviceUrlFor } from '../service/config.js';
import { readDevState } from '../service/dev-state.js';
import type { McpSessionMode } from '../store/types.js';
import { requireServiceStore } from './environments-command.js';
import { UsageError, type CliIo } from './io.js';

export interface McpCommandOptions {
  identifier: string;
  connections?: string[];
  tools?: string[];
  readOnly?: boolean;
  mode?: string;
  expiresIn?: string;
  local?: boolean;
  environment?: string;
}

/** The scope flags as a request body: what `POST /api/v1/mcp_sessions` takes and `checkSessionScope` checks. */
interface ScopeRequest extends SessionScopeInput {
  connections?: string[];
  tools?: string[];
  read_only?: boolean;
  mode?: McpSessionMode;
}

function scopeInput(opts: McpCommandOptions): ScopeRequest {
  if (opts.mode !== undefined && opts.mode !== 'tools' && opts.mode !== 'search') throw new UsageError(`--mode must be tools or search (got ${JSON.stringify(opts.mode)})`);
  return {
    identifier: opts.identifier,
    ...(opts.connections?.length ? { connections: opts.connections } : {}),
    ...(opts.tools?.length ? { tools: opts.tools } : {}),
    ...(opts.readOnly ? { read_only: true } : {}),
    ...(opts.mode ? { mode: opts.mode as McpSessionMode } : {}),
  };
}

/** Resolves when the host closes stdin. */
function untilStdinCloses(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
}

export async function mcpRemoteCommand(io: CliIo, opts: McpCommandOptions, client: () => HttpClient): Promise<void> {
  const input = scopeInput(opts);
  const expiresIn = opts.expiresIn === undefined ? undefined : Number(opts.expiresIn);
  if (expiresIn !== undefined && !Number.isInteger(expiresIn)) throw new UsageError(`--expires-in must be a number of seconds (got ${JSON.stringify(opts.expiresIn)})`);
  const api = client();
  const mint = async (): Promise<MintedSession> => {
    const created = await api.createMcpSession({ ...input, ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) });
    io.err(`agent-connector mcp: session ${created.id} for ${JSON.stringify(opts.identifier)} until ${created.expires_at}`);
    return created;
  };
  // Mint once before speaking MCP, so bad credentials or a bad scope fail the command with a clear message.
  const first = await mint();
  let used = false;
  const stdio = new StdioServerTransport();
  const done = untilStdinCloses().then(() => stdio.close());
  await runBridge({ local: stdio, mint: async () => (used ? mint() : ((used = true), first)), log: (m) => io.err(`agent-connector mcp: ${m}`) });
  await done;
}

export async function mcpLocalCommand(io: CliIo, opts: McpCommandOptions): Promise<void> {
  let config;
  try {
    config = readConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  // Before the keyring and the store are opened, which would create a key file and an empty database.
  requireServiceStore(config, io.env);
  const baseUrl = config.baseUrl ?? serviceUrlFor(config.host, config.port);
  let connector;
  try {
    connector = await createConnector({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, encryptionKeys: config.encryptionKeys, baseUrl, connectionOverrides: config.connectionOverrides });
  } catch (error) {
    if (error instanceof KeyringError) throw new UsageError(error.message);
    throw error;
  }
  try {
    const environments = await connector.store.listEnvironments();
    const wanted = opts.environment ?? readDevState(config.dataDir)?.environmentId ?? (environments.length === 1 ? environments[0]!.id : undefined);
    if (wanted === undefined) throw new UsageError('Name the environment with --environment <id or name> (agent-connector environments list shows them)');
    const environment = environments.find((e) => e.id === wanted || e.name === wanted);
    if (environment === undefined) throw new UsageError(`No environment ${JSON.stringify(wanted)} in the store (agent-connector environments list shows them)`);
    let scope;
    try {
      scope = await checkSessionScope(connector, environment.id, scopeInput(opts));
    } catch (error) {
      if (isConnectorError(error)) throw new UsageError(error.message);
      throw error;
    }
    io.err(`agent-connector mcp: serving ${JSON.stringify(opts.identifier)} in environment ${environment.name} from the local store`);
    const server = createMcpServer({ connector, scope, onInternalError: (error) => io.err(`agent-connector mcp: ${(error as Error).stack ?? String(error)}`) });
    const closed = untilStdinCloses();
    await server.connect(new StdioServerTransport());
    await closed;
    await server.close();
  } finally {
    await connector.close();
  }
}
