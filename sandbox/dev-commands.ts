/**
 * What the development CLI (`dev-cli.ts`) adds to the runtime's `agent-connector` command: `start` runs the sandbox
 * providers in-process, and the `sandbox` command exists. The production CLI (`runtime/cli/main.ts`) has none of it.
 */
import { UsageError, type CliIo } from '../runtime/cli/io.js';
import { onShutdown, type DevelopmentCommands } from '../runtime/cli/start-command.js';
import { CONNECTOR_NAMES } from '../runtime/types.js';
import { startDevelopmentService } from './dev-service.js';
import { parseClientArg } from './main.js';
import { startSandbox } from './start.js';

export const developmentCommands: DevelopmentCommands = {
  startService: startDevelopmentService,
  async sandbox(io: CliIo, port: number, clientSpecs: string[]): Promise<void> {
    const clients = clientSpecs.map((spec) => {
      try {
        return parseClientArg(spec);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    });
    const sandbox = await startSandbox({ port, clients });
    onShutdown(io, () => sandbox.close());
    io.out(`sandbox providers at ${sandbox.url} (control API: ${sandbox.controlUrl}/_sandbox/)`);
    for (const name of CONNECTOR_NAMES) {
      const e = sandbox.endpoints(name);
      io.out(`  ${name.padEnd(9)} authorize ${e.authorizationUrl}\n            token     ${e.tokenUrl}\n            api       ${e.apiBaseUrl}`);
    }
    for (const c of clients) io.out(`  registered ${c.provider} client ${c.clientId}`);
    io.out('Point a connection at it with these as its overrides. Ctrl-C stops.');
  },
};
