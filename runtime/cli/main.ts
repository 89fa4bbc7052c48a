/** Entry point of the `agent-connector` command (and of `npm start`, which runs `main.ts start`). */
import { processIo } from './io.js';
import { runCli } from './program.js';

const result = await runCli(process.argv.slice(2), processIo);
if (!result.keepAlive) {
  // Exit explicitly: idle keep-alive sockets of the HTTP client must not hold the command open.
  process.exit(result.code);
}
