/**
 * Google Sheets and Docs file ids, given bare or inside the file's address. Google documents an id only as "letters,
 * numbers, and some special characters" found in the URL; the ids it hands out are URL-safe base64 (`-` and `_`
 * besides letters and digits: 44 characters for a spreadsheet or document, 33 or 28 for other Drive files), so that
 * alphabet is the rule, at any length, and anything else (a space, `/`, `.`, `!`, `%`) is not an id.
 * @see https://developers.google.com/sheets/api/guides/concepts#spreadsheet
 */

const FILE_ID = /^[A-Za-z0-9_-]+$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DIGITS = /^\d+$/;
const WORD = /^[a-z]+$/;

/** The editor a `docs.google.com/<kind>/d/<id>` address opens, by its first path segment. */
export type GoogleFileKind = 'spreadsheets' | 'document';

/** What a value names: a file id, with the editor of its address (absent for a bare id). */
export interface GoogleFileRef {
  /** The file id; absent for a published copy's address (`/d/e/<publish id>/pubhtml`), which does not carry it. */
  id?: string;
  /** The address's editor segment (`spreadsheets`, `document`, `presentation`, ...); absent for a bare id or a Drive link. */
  kind?: string;
}

/**
 * Reads a bare id, or a file's address: a `docs.google.com` one, `/<kind>/d/<id>` with anything after the id
 * (`/edit#gid=0`, `?usp=sharing`) and the account (`/<kind>/u/1/d/<id>`) or Workspace domain
 * (`/a/<domain>/<kind>/d/<id>`) forms Google writes, or a Google Drive link to the file, `drive.google.com/file/d/<id>`
 * (`/view?usp=sharing`, the same account and domain forms) or `drive.google.com/open?id=<id>`. A Drive link does not
 * say which editor opens the file, so it names no kind, as a bare id does. The scheme may be left out, and surrounding
 * whitespace is ignored. Undefined for anything else.
 */
export function readGoogleFile(value: string): GoogleFileRef | undefined {
  if (FILE_ID.test(value)) return { id: value };
  // Whitespace around a pasted id or address is dropped (neither can contain any), as the URL parser would.
  const s = value.trim();
  if (s !== value && FILE_ID.test(s)) return { id: s };
  let url: URL;
  try {
    url = new URL(SCHEME.test(s) ? s : `https://${s}`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const drive = url.hostname === 'drive.google.com';
  if (!drive && url.hostname !== 'docs.google.com') return undefined;
  const segments = url.pathname.split('/').filter((s) => s !== '');
  let i = segments[0] === 'a' ? 2 : 0;
  const kind = segments[i++];
  if (drive && kind === 'open' && i === segments.length) {
    const ids = url.searchParams.getAll('id');
    return ids.length === 1 && FILE_ID.test(ids[0]!) ? { id: ids[0]! } : undefined;
  }
  if (kind === undefined || !WORD.test(kind) || (drive && kind !== 'file')) return undefined;
  if (segments[i] === 'u' && DIGITS.test(segments[i + 1] ?? '')) i += 2;
  if (segments[i] !== 'd') return undefined;
  const id = segments[i + 1];
  if (id === 'e' && !drive) return { kind };
  if (id === undefined || !FILE_ID.test(id)) return undefined;
  return drive ? { id } : { id, kind };
}

/**
 * The file id a `spreadsheet-id` or `document-id` parameter names: the id itself, or the one its address carries.
 * Returns the value unchanged when it names none (the validator's format refuses such input before any request).
 */
export function googleFileId(value: string): string {
  return readGoogleFile(value)?.id ?? value;
}

/** True when the value is a file id, or the address of a file of this kind with its id. */
export function isGoogleFileId(kind: GoogleFileKind, value: string): boolean {
  const file = readGoogleFile(value);
  return file?.id !== undefined && (file.kind === undefined || file.kind === kind);
}

const NAMES: Readonly<Record<string, string>> = {
  spreadsheets: 'a Google Sheets spreadsheet',
  document: 'a Google Docs document',
  presentation: 'a Google Slides presentation',
  forms: 'a Google Forms form',
  drawings: 'a Google Drawings drawing',
};
const TOOLS: Readonly<Record<string, string>> = { spreadsheets: 'sheets_', document: 'docs_' };

/**
 * What is wrong with a value {@link isGoogleFileId} refused, said after the format's description (`; it is the URL of
 * a Google Docs document, ...`), or the empty string when the description says it all.
 */
export function googleFileProblem(kind: GoogleFileKind, value: string): string {
  const file = readGoogleFile(value);
  if (file?.kind === undefined) return '';
  if (file.kind !== kind) {
    const tools = TOOLS[file.kind];
    return `; it is the URL of ${NAMES[file.kind] ?? `a docs.google.com/${file.kind} file`}, not of ${NAMES[kind]!}${tools === undefined ? '' : ` (the ${tools} tools take it)`}`;
  }
  if (file.id === undefined) return `; it is the address of a published copy (/d/e/...), which does not carry the file's id: use the address of the file open for editing (/${kind}/d/<id>/edit)`;
  return '';
}
