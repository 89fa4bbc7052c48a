/**
 * What the development CLI (`dev-cli.ts`) adds to the runtime's `agent-connector` command: `start` runs the sandbox
 * providers in-process, and the `sandbox` command exists. The production CLI (`runtime/cli/main.ts`) has none of it.
 */
import { UsageError, type CliIo } from '../runtime/cli/io.js';
import { onShutdown, type DevelopmentCommands } from '../runtime/cli/start-command.js';
import { startDevelopmentService } from './dev-service.js';
import { parseClientArg, runSandboxCli } from './main.js';

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
    const sandbox = await runSandboxCli({ port, clients, log: (line) => io.out(line) });
    onShutdown(io, () => sandbox.close());
  },
};
