/**
 * `agent-connector start` run as a user runs it, in a child process: for the command from the sources
 * (test/cli/cli.test.ts) and from the installed package (test/package.test.ts).
 *
 * The child gets a store of its own (SQLite in `dataDir`): an inherited DATABASE_URL (the PostgreSQL suite's) would
 * point it at the shared database's public schema, where a previous run's rows are sealed with another run's
 * development key, so start refused them ("cannot decrypt secret") on every run after the first.
 */
import { spawn } from 'node:child_process';

export interface StartedChild {
  /** The service's URL, from its banner. */
  url: string;
  /** What the child printed up to and including the banner. */
  banner: string;
  /** Sends SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the child if it still runs (for `finally`). */
  kill(): void;
}

/** Starts `bin start` in `cwd` and resolves once the banner names the URL (rejects if it exits or is silent 45 s). */
export async function startChild(bin: string, cwd: string, dataDir: string): Promise<StartedChild> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('AGENT_CONNECTOR_')));
  const child = spawn(process.execPath, [bin, 'start'], {
    cwd,
    env: { ...env, PORT: '0', AGENT_CONNECTOR_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = (): void => {
    child.kill('SIGKILL');
  };
  let out = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 45_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /running at (http:\/\/[^\s]+)/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const stop = (): Promise<number | null> => {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      return exited;
    };
    return { url, banner: out, stop, kill };
  } catch (error) {
    kill();
    throw error;
  }
}
