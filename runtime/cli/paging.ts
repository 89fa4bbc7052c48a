/**
 * The one-page list commands (`accounts --limit/--cursor`, `executions`): the page options as the service takes them,
 * and the line after the table that says how to get the next page.
 */

/** `--limit` and `--cursor` as typed. */
export interface PageOptions {
  limit?: string;
  cursor?: string;
}

/**
 * The page options for the client's query. They go as typed: the service holds the page rule (a `limit` of 1 to 200,
 * a `cursor` one of its pages returned) and its `400 invalid_request` names `/limit` or `/cursor`, so the CLI does not
 * check them a second way. The client writes query values as text, so a `limit` such as `abc` reaches the service
 * unchanged to be refused there (hence the cast: the query type says number, what a valid limit is).
 */
export function pageQuery(opts: PageOptions): { limit?: number; cursor?: string } {
  return {
    ...(opts.limit !== undefined ? { limit: opts.limit as unknown as number } : {}),
    ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}),
  };
}

/** The global flags as given on the command line (undefined: not given; the variable, if any, was read instead). */
export interface GivenGlobals {
  envUrl?: string;
  clientId?: string;
}

type Flags = readonly (readonly [flag: string, value: string | undefined])[];

/**
 * `Next page: agent-connector <global flags> <command> <flags> --cursor <nextCursor>`, with the flags that were given,
 * each value quoted for a POSIX shell when it needs it; undefined on the last page (`nextCursor` null).
 *
 * The global flags repeated are `--env-url` and `--client-id` when given as flags, so the printed command reaches the
 * same service as the same client (a value read from a variable is read again by the next run). `--client-secret` is
 * never repeated, given or not: a secret is not printed (the next run reads AGENT_CONNECTOR_CLIENT_SECRET). Nor is
 * `--json`: with it a page is printed as JSON, without this line.
 */
export function nextPageHint(command: string, globals: GivenGlobals, flags: Flags, nextCursor: string | null): string | undefined {
  if (nextCursor === null) return undefined;
  const given: Flags = [['--env-url', globals.envUrl], ['--client-id', globals.clientId]];
  return `Next page: agent-connector ${[...shellWords(given), command, ...shellWords(flags), '--cursor', shellWord(nextCursor)].join(' ')}`;
}

function shellWords(flags: Flags): string[] {
  return flags.flatMap(([flag, value]) => (value === undefined ? [] : [flag, shellWord(value)]));
}

/** A table and, when there is one, the next-page line under it. */
export function withHint(table: string, hint: string | undefined): string {
  return hint === undefined ? table : `${table}\n\n${hint}`;
}

function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
