/**
 * The sandbox's state file: what `npm start` needs so that a restart loses nothing (accounts authorized before it
 * keep working, data written through the fake APIs is still there, connections still point at the same port).
 *
 * Why a JSON snapshot and not SQLite: the sandbox is a development aid whose state is a few in-memory maps; saving
 * them whole, atomically (write a temporary file, then rename over the old one), shortly after a change and at
 * close, is all the durability a dev loop needs, with no schema to keep in step with the fakes. A crash can lose
 * the last {@link SAVE_DELAY_MS} of changes, never leave a torn file.
 *
 * The file holds the fake providers' tokens in plaintext, as a provider's own database would; it is written with
 * mode 0600 into the data directory, which already holds the development encryption key of the service's store.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CalendarUserState } from '../apis/calendar/calendar-store.js';
import { Crm } from '../apis/crm/store.js';
import { DocumentBody } from '../apis/docs/document-body.js';
import { StoredDocument } from '../apis/docs/document-store.js';
import { Spreadsheet } from '../apis/sheets/spreadsheet-model.js';
import { Workspace } from '../apis/workspace/state.js';
import type { GrantStoreState } from '../oauth/grant-store.js';
import { decodeState, encodeState, type ClassRegistry } from './state-codec.js';

/** How long after a change the file is written; changes within it are saved together. */
export const SAVE_DELAY_MS = 250;

const FORMAT = 1;

/** The classes the fakes keep their users' data in: the only ones a state file may revive. */
const CLASSES: ReadonlyMap<string, { prototype: object }> = new Map<string, { prototype: object }>([
  ['CalendarUserState', CalendarUserState],
  ['Crm', Crm],
  ['DocumentBody', DocumentBody],
  ['StoredDocument', StoredDocument],
  ['Spreadsheet', Spreadsheet],
  ['Workspace', Workspace],
]);

export interface SandboxState {
  /** The port the sandbox listened on. */
  port: number;
  grants: GrantStoreState;
  /** Each fake API's users' data, by service. */
  apis: Record<string, Map<string, unknown>>;
}

/** Reads the state file; null when there is none yet. A file that cannot be read as a state file is an error naming it. */
export function readStateFile(file: string): SandboxState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { format?: unknown; state?: unknown };
    if (parsed.format !== FORMAT) throw new Error(`format ${JSON.stringify(parsed.format)} is not ${FORMAT}`);
    return decodeState(parsed.state, CLASSES) as SandboxState;
  } catch (error) {
    throw new Error(`The sandbox state file ${file} cannot be read (${(error as Error).message}); move it away to start with a fresh sandbox.`);
  }
}

/** Writes the whole state atomically: a reader (or the next start after a crash) sees the old file or the new one. */
export function writeStateFile(file: string, state: SandboxState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ format: FORMAT, state: encodeState(state, CLASSES) }), { mode: 0o600 });
  renameSync(temporary, file);
}

/** Debounced saving: `changed()` after any change, `flush()` at close. Failures go to `onError` (a dev loop keeps running). */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SandboxState,
    private readonly onError: (error: unknown) => void,
  ) {}

  changed(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    // A pending save must not keep a process alive that has nothing else to do; close() flushes it.
    this.timer.unref();
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      writeStateFile(this.file, this.snapshot());
    } catch (error) {
      this.onError(error);
    }
  }
}
