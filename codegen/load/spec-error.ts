/**
 * User errors in specs: where (file, 1-based line and column) and what. Reported as `file:line:column message`,
 * the shape editors and CI annotate. A crash in the generator is an ordinary Error with a stack, never one of these.
 */
export interface SpecError {
  file: string;
  line: number;
  column: number;
  message: string;
}

export function formatSpecError(e: SpecError): string {
  return `${e.file}:${e.line}:${e.column} ${e.message}`;
}

/** Thrown by `generate()` when any spec is invalid; carries every error found, sorted by file and position. */
export class SpecErrors extends Error {
  readonly errors: readonly SpecError[];

  constructor(errors: readonly SpecError[]) {
    const sorted = [...errors].sort(compareSpecErrors);
    super(`${sorted.length} spec error(s):\n${sorted.map(formatSpecError).join('\n')}`);
    this.name = 'SpecErrors';
    this.errors = sorted;
  }
}

export function compareSpecErrors(a: SpecError, b: SpecError): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.message < b.message ? -1 : 1);
}
