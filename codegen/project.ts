import { Project, QuoteKind, IndentationText, NewLineKind } from 'ts-morph';

let shared: Project | undefined;

/**
 * One in-memory ts-morph project per process, reused by every emitter (creating one costs more than emitting).
 * Nothing is type-checked during emit; `tsc` checks `generated/` separately.
 */
export function emitProject(): Project {
  shared ??= new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: { quoteKind: QuoteKind.Single, indentationText: IndentationText.TwoSpaces, newLineKind: NewLineKind.LineFeed },
  });
  return shared;
}

let helpersProject: Project | undefined;

/** A project on the real file system, to read `runtime/helpers` declarations (syntax only). */
export function helpersProjectInstance(): Project {
  helpersProject ??= new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  return helpersProject;
}
