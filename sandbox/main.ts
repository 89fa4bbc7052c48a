/**
 * Runs the sandbox standalone and prints its endpoints: `tsx sandbox/main.ts [--port N] [--host H]
 * [--client provider,clientId,clientSecret,redirectUri]... [--no-rate-limits] [--json]`.
 * `npm run sandbox` (the development CLI's `sandbox` command) runs the same sandbox through `dev-commands.ts`.
 */
import { pathToFileURL } from 'node:url';
import { CONNECTOR_NAMES } from '../runtime/types.js';
import { startSandbox } from './start.js';
import type { OAuthProvider, RegisteredClient, Sandbox } from './types.js';

export interface SandboxCliOptions {
  port?: number;
  host?: string;
  clients?: RegisteredClient[];
  providerRateLimits?: boolean;
  json?: boolean;
  log?: (line: string) => void;
}

/** Parses `provider,clientId,clientSecret,redirectUri[,redirectUri...]`. */
export function parseClientArg(value: string): RegisteredClient {
  const [provider, clientId, clientSecret, ...redirectUris] = value.split(',');
  if (!provider || !['notion', 'google', 'hubspot'].includes(provider) || !clientId || !clientSecret || redirectUris.length === 0) {
    throw new Error(`--client expects provider,clientId,clientSecret,redirectUri (provider: notion|google|hubspot), got ${value}`);
  }
  return { provider: provider as OAuthProvider, clientId, clientSecret, redirectUris };
}

/** Starts the sandbox and prints where everything is; the caller keeps the process alive. */
export async function runSandboxCli(options: SandboxCliOptions = {}): Promise<Sandbox> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const sandbox = await startSandbox({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    clients: options.clients ?? [],
    providerRateLimits: options.providerRateLimits ?? true,
  });
  const endpoints = Object.fromEntries(CONNECTOR_NAMES.map((c) => [c, sandbox.endpoints(c)]));
  if (options.json) {
    log(JSON.stringify({ url: sandbox.url, control: `${sandbox.controlUrl}/_sandbox/`, endpoints, origins: sandbox.origins }));
  } else {
    log(`sandbox listening on ${sandbox.url} (control API: ${sandbox.controlUrl}/_sandbox/)`);
    for (const [name, e] of Object.entries(endpoints)) {
      log(`  ${name.padEnd(9)} api ${e.apiBaseUrl}  authorize ${e.authorizationUrl}  token ${e.tokenUrl}  revoke ${e.revocationUrl}`);
    }
    log(`  each provider at its real paths, for official SDKs: ${Object.entries(sandbox.origins).map(([k, v]) => `${k} ${v}`).join('  ')}`);
  }
  return sandbox;
}

function parseArgs(argv: string[]): SandboxCliOptions {
  const out: SandboxCliOptions = { clients: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--port') out.port = Number(next());
    else if (arg === '--host') out.host = next();
    else if (arg === '--client') out.clients?.push(parseClientArg(next()));
    else if (arg === '--no-rate-limits') out.providerRateLimits = false;
    else if (arg === '--json') out.json = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSandboxCli(parseArgs(process.argv.slice(2)))
    .then((sandbox) => {
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    });
}
