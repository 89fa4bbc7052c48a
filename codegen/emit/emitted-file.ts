/** One output file: its path inside `generated/` (forward slashes) and its full content. */
export interface EmittedFile {
  path: string;
  content: string;
}
