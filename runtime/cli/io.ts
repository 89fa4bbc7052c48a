/** What the CLI touches of the outside world, injectable so tests run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  // The one place the CLI takes the process's environment; commands read it only through runtime/service/config.ts.
  env: process.env,
};

/** Exit codes: 0 done; 1 the service refused or could not be reached; 2 bad usage or input. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A problem with what the user typed; printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
