/** `agent-connector start`: the service in this process, stopped cleanly on SIGTERM/SIGINT. */
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { KeyringError } from '../crypto/index.js';
import { ConfigError, readConfig } from '../service/config.js';
import { CredentialMismatchError } from '../service/environments.js';
import { startService, type RunningService, type StartOptions } from '../service/start.js';
import { UsageError, type CliIo } from './io.js';

/**
 * What a development entry adds to the CLI (`sandbox/dev-cli.ts`, what `npm start` runs): the sandbox, which the
 * production runtime and its CLI never import.
 */
export interface DevelopmentCommands {
  /** `start` with the sandbox composed in (when `AGENT_CONNECTOR_SANDBOX` is on). */
  startService(options: StartOptions): Promise<RunningService>;
  /** `sandbox`: the sandbox providers alone; `clientSpecs` as given to `--client`. */
  sandbox(io: CliIo, port: number, clientSpecs: string[]): Promise<void>;
}

export function onShutdown(io: CliIo, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    io.err(`${signal}: shutting down (finishing requests in flight)...`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        io.err(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/**
 * The banner `start` prints. The secret appears only when this start generated it, which a production start never does
 * (see `ensureAppClient`'s `create`).
 */
export function startBanner(running: RunningService, secretFromEnv: boolean, rotateSecret = 'agent-connector environments rotate-secret'): string {
  const lines = [
    '',
    `agent-connector is running at ${running.url}`,
    `  dashboard     ${running.dashboardUrl}`,
    `  OpenAPI       ${running.url}/openapi.json`,
    `  environment   ${running.environmentId}`,
    `  client id     ${running.clientId}`,
  ];
  if (running.generatedClientSecret) {
    lines.push(`  client secret ${running.generatedClientSecret}`, '                (shown once: only its hash is stored. Save it, e.g. export AGENT_CONNECTOR_CLIENT_SECRET=...)');
  } else {
    lines.push(secretFromEnv ? '  client secret (from AGENT_CONNECTOR_CLIENT_SECRET)' : `  client secret (not shown: only its hash is stored; \`${rotateSecret}\` prints a new one)`);
  }
  if (running.sandbox) {
    lines.push(`  sandbox       ${running.sandbox.url}  (connections: ${running.sandboxConnections.map((c) => c.name).join(', ')})`);
    lines.push(`  sandbox control API ${running.sandbox.controlUrl}/_sandbox/`);
  }
  // `npm run demo` is a script of the checkout, where the sandbox runs; the installed command has neither.
  const next = running.sandbox ? 'Try: npm run demo, or sign in to the dashboard' : 'Sign in to the dashboard';
  lines.push('', `${next} with the client id and secret. Ctrl-C stops.`, '');
  return lines.join('\n');
}

/**
 * The command that prints a new client secret, as it runs where this start was run: `npx agent-connector` from a
 * checkout (`npm start`, where the command is not on the PATH), and with the data directory this start used when
 * AGENT_CONNECTOR_DATA_DIR chose it (absolute, quoted for the shell), since without it the command would open a fresh
 * store. Under DATABASE_URL the directory does not choose the store, and the URL (which may hold a password) is not
 * printed: the operator runs it with the service's variables, as docs/operations.md says.
 */
export function rotateSecretCommandLine(env: NodeJS.ProcessEnv, development: boolean): string {
  const command = `${development ? 'npx ' : ''}agent-connector environments rotate-secret`;
  const dataDir = env.AGENT_CONNECTOR_DATA_DIR;
  if (dataDir === undefined || dataDir === '' || (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '')) return command;
  const path = resolve(dataDir);
  const quoted = /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
  return `AGENT_CONNECTOR_DATA_DIR=${quoted} ${command}`;
}

/**
 * Fails when `host:port` cannot be bound. Starting writes to the data directory before it listens (the development
 * credentials, the sandbox connections re-pointed at this run's sandbox), so a start that would only fail at
 * `listen` must fail here first: otherwise it breaks the instance already serving that directory, or stores a
 * first-start client secret it never gets to print.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(new UsageError(bindRefusal(host, port, error))));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Why `host:port` cannot be bound, naming the variable to change: only a port in use is another process's doing. */
function bindRefusal(host: string, port: number, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `${host}:${port} is already in use (is agent-connector already running?); stop the other process or set PORT (and HOST) to another address`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${host} is not an address of this machine (${error.code}); set HOST to one of its addresses, or 0.0.0.0 for all of them`;
    case 'EACCES':
      return `${host}:${port} cannot be bound without privileges (EACCES): set PORT to 1024 or above, or give the process CAP_NET_BIND_SERVICE`;
    default:
      return `${host}:${port} cannot be used (${error.code ?? error.message}); set PORT (and HOST) to another address`;
  }
}

export async function startCommand(io: CliIo, development?: DevelopmentCommands): Promise<RunningService> {
  let running: RunningService;
  let secretFromEnv: boolean;
  try {
    const config = readConfig(io.env);
    secretFromEnv = config.clientSecret !== undefined;
    await assertPortFree(config.host, config.port);
    if (config.sandbox && development === undefined) {
      io.err('The sandbox providers are a development aid and not part of this CLI; `npm start` in a checkout runs them.');
    }
    running = await (development?.startService ?? startService)({ env: io.env });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof KeyringError || error instanceof CredentialMismatchError) throw new UsageError(error.message);
    throw error;
  }
  onShutdown(io, () => running.close());
  io.out(startBanner(running, secretFromEnv, rotateSecretCommandLine(io.env, development !== undefined)));
  return running;
}
