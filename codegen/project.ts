/**
 * The ts-morph projects a generate run works in, made new for each run (about a millisecond each) so that nothing
 * one run reads or writes is seen by the next in the same process: a helper file edited between two runs is read
 * again, and no emitted file outlives its run.
 */
import { Project, QuoteKind, IndentationText, NewLineKind } from 'ts-morph';

/**
 * An in-memory project the emitters print their files through. Nothing is type-checked during emit; `tsc` checks
 * `generated/` separately.
 */
export function newEmitProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: { quoteKind: QuoteKind.Single, indentationText: IndentationText.TwoSpaces, newLineKind: NewLineKind.LineFeed },
  });
}

/** A project on the real file system, to read `runtime/helpers` declarations (syntax only). */
export function newHelpersProject(): Project {
  return new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
}
