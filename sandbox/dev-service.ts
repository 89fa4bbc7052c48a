/**
 * The development start: the service with the sandbox providers composed in, what `npm start` runs. The production
 * runtime never imports the sandbox; this module, outside it, starts one (when `AGENT_CONNECTOR_SANDBOX` is on, the
 * default outside production) and hands it to `startService`, which points the development connections at it.
 */
import { join } from 'node:path';
import { readConfig } from '../runtime/service/config.js';
import { startService, type RunningService, type StartOptions } from '../runtime/service/start.js';
import { startSandbox } from './start.js';
import type { Sandbox } from './types.js';

/** The sandbox's state (clients, grants, tokens, data, port), in the data directory, kept across restarts. */
export const SANDBOX_STATE_FILE = 'sandbox-state.json';

export async function startDevelopmentService(options: StartOptions = {}): Promise<RunningService<Sandbox>> {
  const config = { ...readConfig(options.env ?? process.env), ...options.config };
  const sandbox = config.sandbox
    ? await startSandbox({ host: '127.0.0.1', port: config.sandboxPort, stateFile: join(config.dataDir, SANDBOX_STATE_FILE) })
    : undefined;
  let running: RunningService<Sandbox>;
  try {
    running = await startService({ ...options, ...(sandbox ? { sandbox } : {}) });
  } catch (error) {
    await sandbox?.close().catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...running,
    close() {
      closing ??= running.close().finally(() => sandbox?.close());
      return closing;
    },
  };
}
