/**
 * Entry point of the development CLI: the `agent-connector` command with the sandbox composed in (`npm start` runs
 * `tsx sandbox/dev-cli.ts start`). The production CLI is `runtime/cli/main.ts`, built into `dist/`.
 */
import { processIo } from '../runtime/cli/io.js';
import { runCli } from '../runtime/cli/program.js';
import { developmentCommands } from './dev-commands.js';

const result = await runCli(process.argv.slice(2), processIo, developmentCommands);
if (!result.keepAlive) {
  // Exit explicitly: idle keep-alive sockets of the HTTP client must not hold the command open.
  process.exit(result.code);
}
