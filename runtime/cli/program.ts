/**
 * The `agent-connector` command line (commander). `start` and `sandbox` run servers in this process; `environments`
 * opens the store directly; every other command talks to a running service over HTTP with the application
 * credentials from flags or the environment.
 */
import { Command, CommanderError, Option } from 'commander';
import { TOOL_FORMATS, type ToolFormat } from '../agent/formats/index.js';
import type { ExecutionView } from '../api.js';
import { createClient, type HttpClient } from '../client/index.js';
import { isConnectorError } from '../errors.js';
import { ConfigError, DEFAULT_SERVICE_URL, readClientConfig, readClientId } from '../service/config.js';
import { CONNECTOR_NAMES, type ConnectorName } from '../types.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { nextPageHint, pageQuery, withHint, type PageOptions } from './paging.js';
import { collect, parseJsonOption, parsePairs } from './parse.js';
import { formatTable } from './table.js';
import { exampleInput } from './tool-example.js';
import { packageVersion } from './version.js';
import { revocationCountsSentence, revocationSentence } from '../revocation-text.js';
import type { DevelopmentCommands } from './start-command.js';

export interface RunResult {
  code: number;
  /** True when a server was started and the process must stay up. */
  keepAlive: boolean;
}

interface GlobalOptions {
  envUrl?: string;
  clientId?: string;
  clientSecret?: string;
  json?: boolean;
}

/** A configuration read whose {@link ConfigError} is a usage error (exit code 2) naming the flag or variable. */
function cliConfig<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `executions --outcome`: every value of `ExecutionView['outcome']` and no other (`satisfies` checks both ways). */
const EXECUTION_OUTCOMES = Object.keys({ success: true, error: true } satisfies Record<ExecutionView['outcome'], true>);

/**
 * `executions show`: the fields of one execution, one row each, the input following as JSON.
 * Every field of `ExecutionView` but `input`, and no other (`satisfies` checks both ways).
 */
const EXECUTION_FIELDS = Object.keys({
  id: true, started_at: true, kind: true, operation: true, outcome: true, error_code: true, error_message: true, identifier: true,
  connection_name: true, connection_id: true, upstream_status: true, attempts: true, duration_ms: true,
} satisfies Record<Exclude<keyof ExecutionView, 'input'>, true>) as Exclude<keyof ExecutionView, 'input'>[];

/**
 * One execution as `executions show` prints it: a two-column table, each field's name and its value (whole, unlike a
 * list's cells, on its one row: an error message's line breaks become spaces; empty when null), then the recorded
 * input as JSON.
 */
function executionDetail(execution: ExecutionView): string {
  const width = Math.max(...EXECUTION_FIELDS.map((field) => field.length));
  const table = EXECUTION_FIELDS.map((field) => `${field.padEnd(width)}  ${String(execution[field] ?? '').replace(/\s+/g, ' ')}`.trimEnd()).join('\n');
  const input =
    execution.input === null || execution.input === undefined
      ? 'Input: not recorded (the service keeps inputs only with AGENT_CONNECTOR_EXECUTION_CAPTURE_INPUTS=1)'
      : `Input:\n${JSON.stringify(execution.input, null, 2)}`;
  return `${table}\n\n${input}`;
}

interface ExecutionsOptions extends PageOptions {
  identifier?: string;
  connection?: string;
  operation?: string;
  outcome?: ExecutionView['outcome'];
  errorCode?: string;
  since?: string;
  until?: string;
}

/**
 * Runs one command. `development` adds the sandbox (`start` composes it, and the `sandbox` command exists only
 * then): the development entry passes it, the production entry (`main.ts`, the built CLI) does not.
 */
export async function runCli(argv: readonly string[], io: CliIo, development?: DevelopmentCommands): Promise<RunResult> {
  let keepAlive = false;
  const program = new Command('agent-connector');
  program
    .description('Self-hosted connector service: tools and a proxy over Notion, Google Calendar, HubSpot, Google Sheets and Google Docs.')
    // No commander `.env()` and no defaults here: the variables behind these flags are read and checked by the one
    // configuration module (readClientConfig), from `io.env`, with a flag winning over its variable.
    .option('--env-url <url>', `service URL (default: AGENT_CONNECTOR_URL, else ${DEFAULT_SERVICE_URL})`)
    .option('--client-id <id>', 'application client id (default: AGENT_CONNECTOR_CLIENT_ID)')
    .option('--client-secret <secret>', 'application client secret (default: AGENT_CONNECTOR_CLIENT_SECRET; prefer the variable)')
    .option('--json', 'print raw JSON')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .addHelpText(
      'after',
      `
Environment: AGENT_CONNECTOR_URL, AGENT_CONNECTOR_CLIENT_ID, AGENT_CONNECTOR_CLIENT_SECRET (a flag wins over its variable).
Exit codes: 0 done, 1 the service refused the request or could not be reached, 2 bad usage or input.

Examples:
  agent-connector start
  agent-connector environments create --name acme
  agent-connector connections list
  agent-connector link calendar user-42
  agent-connector accounts --limit 50
  agent-connector executions --outcome error
  agent-connector executions show EXECUTION_ID
  agent-connector tools list --connector calendar
  agent-connector tools show calendar_create_event
  agent-connector tools call calendar_list_calendars --identifier user-42 --input '{}'
  agent-connector proxy calendar user-42 GET /calendar/v3/users/me/calendarList
  agent-connector mcp --identifier user-42`,
    );
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  /** The service the command talks to, once it has a client: what an unreachable service's error names. */
  let service: ServiceTarget | undefined;
  /** The client of the running service, configured from the flags over `io.env`; read only by commands that need it. */
  const client = (): HttpClient => {
    const { url, urlSource, clientId, clientSecret } = cliConfig(() => readClientConfig(io.env, globals()));
    service = { url, source: urlSource, development: development !== undefined };
    return createClient({ envUrl: url, clientId, clientSecret });
  };
  const print = (value: unknown, table?: () => string) => io.out(globals().json || !table ? JSON.stringify(value, null, 2) : table());

  program
    .command('start')
    .description(development ? 'run the service with the sandbox providers and SQLite (what npm start does)' : 'run the service')
    .action(async () => {
      const { startCommand } = await import('./start-command.js');
      await startCommand(io, development);
      keepAlive = true;
    });

  if (development) {
    const dev = development;
    program
    .command('sandbox')
    .description('run only the sandbox providers (fake OAuth servers and APIs) and print their endpoints')
    .option('--port <port>', 'port to listen on', '0')
    .option(
      '--client <spec>',
      'register an OAuth client: provider,clientId,clientSecret,redirectUri[,redirectUri...] (provider: notion|google|hubspot); repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .addHelpText(
      'after',
      '\nClients can also be registered while it runs: POST <sandbox control url>/_sandbox/clients with\n' +
        '{"provider":"google","clientId":"...","clientSecret":"...","redirectUris":["http://localhost:3000/sso/v1/oauth/<connection id>/callback"]}',
    )
    .action(async (opts: { port: string; client: string[] }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got ${JSON.stringify(opts.port)})`);
      await dev.sandbox(io, port, opts.client);
      keepAlive = true;
    });
  }

  const environments = program
    .command('environments')
    .description('create, list or delete environments (tenants), or rotate a client secret, in the store directly, as start opens it; no running service needed')
    .addHelpText(
      'after',
      '\nUses DATABASE_URL, AGENT_CONNECTOR_DATA_DIR and AGENT_CONNECTOR_ENCRYPTION_KEY (and NODE_ENV) as start does.\n' +
        'Under SQLite, list, rotate-secret and delete refuse a data directory or database that does not exist, creating nothing.',
    );
  environments
    .command('create')
    .description("create an environment with an application client and print its credentials (the secret only this once)")
    .requiredOption('--name <name>', 'environment name, unique in the store')
    .action(async (opts: { name: string }) => {
      const { createEnvironmentCommand } = await import('./environments-command.js');
      await createEnvironmentCommand(io, opts.name, Boolean(globals().json));
    });
  environments
    .command('list')
    .description('list the environments in the store')
    .action(async () => {
      const { listEnvironmentsCommand } = await import('./environments-command.js');
      await listEnvironmentsCommand(io, Boolean(globals().json));
    });
  environments
    .command('delete')
    .description('delete an environment and everything in it; its access tokens and dashboard sessions stop working at once')
    .argument('<id>', 'environment id (env_...)')
    .action(async (id: string) => {
      const { deleteEnvironmentCommand } = await import('./environments-command.js');
      await deleteEnvironmentCommand(io, id, Boolean(globals().json));
    });

  environments
    .command('rotate-secret')
    .description('give an application client a new secret and print it (once); the old secret and its tokens stop working')
    .option('--client <id>', 'the client id (default: --client-id / AGENT_CONNECTOR_CLIENT_ID, else the one npm start created)')
    .action(async (opts: { client?: string }) => {
      const { rotateSecretCommand } = await import('./environments-command.js');
      const clientId = opts.client ?? readClientId(io.env, globals().clientId);
      await rotateSecretCommand(io, clientId, Boolean(globals().json));
    });

  const connections = program.command('connections').description('list, create or delete connections');
  connections
    .command('list')
    .description('list the connections of your environment')
    .action(async () => {
      const list = await client().listConnections();
      print(list, () => formatTable(list, ['name', 'connector', 'client_id', 'id', 'redirect_uri']));
    });
  connections
    .command('create')
    .description('create a connection with your OAuth client for one system')
    .requiredOption('--name <name>', 'connection name, unique in the environment')
    .addOption(new Option('--connector <system>', 'which system').choices([...CONNECTOR_NAMES]).makeOptionMandatory())
    .requiredOption('--oauth-client-id <id>', "the provider OAuth client's id")
    .requiredOption('--oauth-client-secret <secret>', "the provider OAuth client's secret")
    .option('--scopes <scopes>', 'comma or space separated scopes (default: the system defaults)')
    .option('--overrides <json>', 'endpoint overrides as JSON, e.g. {"apiBaseUrl":"http://127.0.0.1:4010/calendar"}')
    .action(async (opts: { name: string; connector: ConnectorName; oauthClientId: string; oauthClientSecret: string; scopes?: string; overrides?: string }) => {
      const overrides = opts.overrides === undefined ? undefined : (parseJsonOption('--overrides', opts.overrides) as Record<string, string>);
      const scopes = opts.scopes?.split(/[\s,]+/).filter(Boolean);
      const view = await client().createConnection({
        name: opts.name,
        connector: opts.connector,
        client_id: opts.oauthClientId,
        client_secret: opts.oauthClientSecret,
        ...(scopes ? { scopes } : {}),
        ...(overrides ? { overrides } : {}),
      });
      print(view, () => `Created connection ${view.name} (${view.id}).\nRegister this redirect URI with the provider:\n  ${view.redirect_uri}`);
    });

  connections
    .command('delete')
    .description("delete a connection: its accounts are disconnected (tokens deleted, revocation asked of the provider) and its links stop working")
    .argument('<connection>', 'connection name or id')
    .option('--yes', 'really delete (without it, only says what would be deleted)')
    .action(async (connection: string, opts: { yes?: boolean }) => {
      const c = client();
      const view = await c.getConnection(connection);
      if (!opts.yes) {
        const accounts = (await c.listAccounts({ connection_name: view.name })).filter((a) => a.status !== 'DISCONNECTED');
        throw new UsageError(
          `deleting connection ${view.name} (${view.id}) deletes its ${accounts.length} account(s), asking the provider to revoke the tokens of those that hold any; run again with --yes to delete it`,
        );
      }
      const deleted = await c.deleteConnection(view.id);
      // disconnected_accounts counts the accounts that held tokens (a PENDING_AUTH one held none, so it is not among them).
      print(deleted, () =>
        [`Deleted connection ${deleted.name} (${deleted.id}); ${deleted.disconnected_accounts} account(s) held tokens and are disconnected.`, revocationCountsSentence(deleted.revocations, view.connector)]
          .filter(Boolean)
          .join(' '),
      );
    });

  program
    .command('link')
    .description('create an authorization link for a user of a connection')
    .argument('<connection>', 'connection name')
    .argument('<identifier>', "your user's identifier")
    .option('--redirect-url <url>', "where to send the user afterwards (must be on the connection's allowlist)")
    .action(async (connection: string, identifier: string, opts: { redirectUrl?: string }) => {
      const link = await client().authorizationLink({ connection_name: connection, identifier, ...(opts.redirectUrl ? { redirect_url: opts.redirectUrl } : {}) });
      print(link, () => `Open this link to authorize (valid until ${link.expiry}):\n${link.link}`);
    });

  const accounts = program.command('accounts').description('list or disconnect connected accounts');
  accounts
    .command('list', { isDefault: true })
    .description('list connected accounts (the default: `agent-connector accounts` lists them)')
    .option('--identifier <identifier>', 'only this user')
    .option('--connection <name>', 'only this connection')
    .option('--limit <n>', 'one page of up to n accounts, 1 to 200 (without --limit or --cursor: every account)')
    .option('--cursor <cursor>', 'the page after the one that printed this cursor')
    .action(async (opts: { identifier?: string; connection?: string } & PageOptions) => {
      const filter = { ...(opts.identifier ? { identifier: opts.identifier } : {}), ...(opts.connection ? { connection_name: opts.connection } : {}) };
      const columns = ['identifier', 'connection_name', 'status', 'id', 'updated_at'] as const;
      if (opts.limit === undefined && opts.cursor === undefined) {
        const list = await client().listAccounts(filter);
        print(list, () => formatTable(list, [...columns]));
        return;
      }
      const page = await client().listAccountsPage({ ...filter, ...pageQuery(opts) });
      const hint = nextPageHint('accounts', globals(), [['--identifier', filter.identifier], ['--connection', filter.connection_name], ['--limit', opts.limit]], page.next_cursor);
      print(page, () => withHint(formatTable(page.connected_accounts, [...columns]), hint));
    });
  accounts
    .command('disconnect')
    .description("disconnect an account: its tokens are deleted and the provider is asked to revoke them (the output says whether it did); the user must authorize again")
    .argument('<account-id>', 'connected account id (agent-connector accounts lists them)')
    .action(async (id: string) => {
      const view = await client().disconnectAccount(id);
      print(view, () => `Disconnected ${view.identifier} from ${view.connection_name} (${view.id}); status ${view.status}: ${revocationSentence(view.revocation, view.connector)}`);
    });

  const executions = program.command('executions').description('list the execution history (every tool call and proxy request), or show one execution');
  executions
    .command('list', { isDefault: true })
    .description('list executions a page at a time, newest first (the default: `agent-connector executions` lists them)')
    .option('--identifier <identifier>', 'only this user')
    .option('--connection <name>', 'only this connection')
    .option('--operation <operation>', "only this tool, or a proxy operation such as 'GET /crm/v3/objects/contacts/{}'")
    .addOption(new Option('--outcome <outcome>', 'only successes or only errors').choices(EXECUTION_OUTCOMES))
    .option('--error-code <code>', 'only calls that failed with this error code')
    .option('--since <time>', 'only calls started at or after this time (RFC 3339)')
    .option('--until <time>', 'only calls started before this time (RFC 3339)')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)')
    .option('--cursor <cursor>', 'the page after the one that printed this cursor')
    .action(async (opts: ExecutionsOptions) => {
      // The client leaves undefined parameters out of the query string.
      const page = await client().listExecutions({
        identifier: opts.identifier,
        connection_name: opts.connection,
        tool: opts.operation,
        outcome: opts.outcome,
        error_code: opts.errorCode,
        since: opts.since,
        until: opts.until,
        ...pageQuery(opts),
      });
      const flags = [
        ['--identifier', opts.identifier],
        ['--connection', opts.connection],
        ['--operation', opts.operation],
        ['--outcome', opts.outcome],
        ['--error-code', opts.errorCode],
        ['--since', opts.since],
        ['--until', opts.until],
        ['--limit', opts.limit],
      ] as const;
      const hint = nextPageHint('executions', globals(), flags, page.next_cursor);
      print(page, () =>
        withHint(formatTable(page.executions, ['started_at', 'identifier', 'connection_name', 'operation', 'outcome', 'error_code', 'duration_ms', 'id']), hint),
      );
    });

  executions
    .command('show')
    .description('show one execution: its fields and the recorded input (inputs are kept only when input capture is on)')
    .argument('<execution_id>', 'the execution_id a tool call returned (agent-connector executions lists them)')
    .action(async (id: string) => {
      const execution = await client().getExecution(id);
      print(execution, () => executionDetail(execution));
    });

  const tools = program.command('tools').description('list or call tools');
  tools
    .command('list')
    .description('list the tool catalog')
    .addOption(new Option('--connector <system>', 'only this system').choices([...CONNECTOR_NAMES]))
    .option('--query <words>', 'ranked search over names, aliases, descriptions and parameter names, best first (tools matching none of the words are left out)')
    .addOption(new Option('--format <format>', 'catalog, or definitions for a model API (docs/agents.md)').choices([...TOOL_FORMATS]))
    .option('--identifier <id>', "only the tools of connectors where this user's account is ACTIVE")
    .option('--read-only', 'only the tools that change nothing (annotations.read_only)')
    .action(async (opts: { connector?: ConnectorName; query?: string; format?: ToolFormat; identifier?: string; readOnly?: boolean }) => {
      const c = client();
      const query = {
        ...(opts.connector ? { connector: opts.connector } : {}),
        ...(opts.query ? { query: opts.query } : {}),
        ...(opts.identifier ? { identifier: opts.identifier } : {}),
        ...(opts.readOnly ? { read_only: true } : {}),
      };
      if (opts.format && opts.format !== 'catalog') {
        io.out(JSON.stringify(await c.listTools({ ...query, format: opts.format }), null, 2));
        return;
      }
      const list = await c.listTools(query);
      print(list, () => formatTable(list.map((t) => ({ ...t, description: t.description.split(/(?<=\.)\s/)[0] ?? '' })), ['name', 'connector', 'version', 'description']));
    });
  tools
    .command('show')
    .description("show one tool: its description, input schema and an example call")
    .argument('<tool>', 'tool name or alias')
    .action(async (name: string) => {
      const tool = await client().getTool(name);
      const { tools: local } = await import('../../generated/tools.gen.js');
      const definition = (local as readonly { name: string; validate(input: unknown): { ok: boolean } }[]).find((t) => t.name === tool.name);
      const example = exampleInput(tool.input_schema as Record<string, unknown>, definition ? (input) => definition.validate(input) : undefined);
      const command = `agent-connector tools call ${tool.name} --identifier <user> --input '${JSON.stringify(example)}'`;
      if (globals().json) {
        io.out(JSON.stringify({ ...tool, example_input: example }, null, 2));
        return;
      }
      io.out(
        [
          `${tool.name} (${tool.connector}, version ${tool.version})${tool.aliases.length ? `  aliases: ${tool.aliases.join(', ')}` : ''}`,
          '',
          tool.description,
          '',
          'Input schema:',
          JSON.stringify(tool.input_schema, null, 2),
          '',
          'Example:',
          `  ${command}`,
        ].join('\n'),
      );
    });
  tools
    .command('call')
    .description('run a tool for a user')
    .argument('<tool>', 'tool name or alias')
    .requiredOption('--identifier <identifier>', "your user's identifier")
    .requiredOption('--input <json>', 'tool input as a JSON object', '{}')
    .option('--connection <name>', 'connection name (needed when the user has several for this system)')
    .action(async (tool: string, opts: { identifier: string; input: string; connection?: string }) => {
      const input = parseJsonOption('--input', opts.input) as Record<string, unknown>;
      const result = await client().executeTool({ tool_name: tool, identifier: opts.identifier, tool_input: input, ...(opts.connection ? { connection_name: opts.connection } : {}) });
      io.out(JSON.stringify(result, null, 2));
    });

  program
    .command('proxy')
    .description("send a request to the provider's API as a user (the path is joined to the system's API base)")
    .argument('<connection>', 'connection name')
    .argument('<identifier>', "your user's identifier")
    .argument('<method>', HTTP_METHODS.join('|'))
    .argument('<path>', 'upstream path, e.g. /calendar/v3/users/me/calendarList')
    .option('--query <key=value>', 'query parameter (repeatable)', collect, [])
    .option('--header <name:value>', 'request header (repeatable)', collect, [])
    .option('--body <json>', 'JSON body')
    .action(async (connection: string, identifier: string, method: string, path: string, opts: { query: string[]; header: string[]; body?: string }) => {
      const upper = method.toUpperCase();
      if (!HTTP_METHODS.includes(upper)) throw new UsageError(`<method> must be one of ${HTTP_METHODS.join(', ')} (got ${JSON.stringify(method)})`);
      const query = parsePairs('--query', opts.query, '=');
      const headers = parsePairs('--header', opts.header, ':') as Record<string, string>;
      const body = opts.body === undefined ? undefined : parseJsonOption('--body', opts.body, 'any');
      const result = await client().proxy({
        connection_name: connection,
        identifier,
        method: upper,
        path,
        ...(opts.query.length ? { query } : {}),
        ...(opts.header.length ? { headers } : {}),
        ...(body !== undefined ? { body } : {}),
      });
      io.out(JSON.stringify(result, null, 2));
    });

  const names = (value: string, previous: string[]) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
  program
    .command('mcp')
    .description('an MCP server on stdio for one end user, for local agent hosts (Claude Desktop/Code, Cursor); see docs/mcp.md')
    .requiredOption('--identifier <id>', "your user's identifier: every tool call acts for this user")
    .option('--connections <names>', 'only these connections (comma-separated, repeatable)', names, [])
    .option('--tools <names>', 'only these tools (comma-separated, repeatable)', names, [])
    .option('--read-only', 'only tools declared read-only')
    .option('--mode <mode>', 'tools (every tool listed) or search (search_tools, describe_tool, call_tool)')
    .option('--expires-in <seconds>', 'session lifetime at the service (60 to 86400; renewed when it runs out)')
    .option('--local', 'serve from the local store in this process instead of a running service')
    .option('--environment <id-or-name>', 'with --local: the environment (default: the one npm start created)')
    .action(async (opts: import('./mcp-command.js').McpCommandOptions) => {
      const { mcpLocalCommand, mcpRemoteCommand } = await import('./mcp-command.js');
      if (opts.local) await mcpLocalCommand(io, opts);
      else await mcpRemoteCommand(io, opts, client);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return { code: EXIT.ok, keepAlive };
  } catch (error) {
    return { code: reportError(error, io, service), keepAlive: false };
  }
}

/** The service a command talked to: its URL, where that came from, and whether this is the development CLI. */
interface ServiceTarget {
  url: string;
  source: string;
  development: boolean;
}

/** Prints a failure the way a user can act on it and returns the exit code. */
function reportError(error: unknown, io: CliIo, service?: ServiceTarget): number {
  if (error instanceof CommanderError) {
    // commander already printed its message (and the help hint).
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof UsageError) {
    io.err(`error: ${error.message}`);
    return EXIT.usage;
  }
  if (isConnectorError(error)) {
    // The request id finds the log lines; a failed call's execution id is what `executions show` takes.
    const requestId = (error as { requestId?: string }).requestId;
    const ids = [requestId && `request id ${requestId}`, error.executionId && `execution ${error.executionId}`].filter(Boolean);
    io.err(`error: ${error.code}: ${error.message}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`);
    const violations = (error.details as { violations?: { pointer: string; message: string }[] } | undefined)?.violations;
    for (const v of violations ?? []) io.err(`  ${v.pointer || '/'}: ${v.message}`);
    return EXIT.failed;
  }
  const reason = (error as { cause?: { code?: string; message?: string } })?.cause;
  const cause = reason?.code ?? reason?.message;
  if (error instanceof TypeError && (cause === 'ECONNREFUSED' || /fetch failed/.test(error.message))) {
    const where = service ? ` at ${service.url} (${service.source})` : '';
    const start = service?.development === false ? 'agent-connector start' : 'npm start';
    io.err(`error: cannot reach the service${where}: ${cause ?? error.message}; is it running? Start it with ${start}, or point --env-url (or AGENT_CONNECTOR_URL) at it`);
    return EXIT.failed;
  }
  io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.failed;
}
