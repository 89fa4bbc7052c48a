/**
 * The string formats tool inputs use (docs/spec-format.md, "Formats"). The generated validators import this module
 * and call these functions by format name, so each export's name is the format's name: keep every export a
 * `(value: string) => boolean` keyed exactly like the format (quoted where the name has a dash).
 */
import { parseUntrustedJson } from '../json/untrusted-json.js';
import { isGoogleFileId } from '../helpers/google-file-id.js';
import { isWorkspaceId } from '../helpers/workspace-id.js';

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : DAYS[m]!);
}

/**
 * The number written by `n` ASCII digits at `at`, or -1. Dates are read by hand: a capturing regex allocated a match
 * array and a string per field, which was most of a calendar tool's validation time.
 */
function digits(value: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = value.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1; // NaN past the end fails too
    v = v * 10 + c;
  }
  return v;
}

/** `YYYY-MM-DD` at the start of the value, a real calendar date. */
function fullDate(value: string): boolean {
  const y = digits(value, 0, 4);
  const m = digits(value, 5, 2);
  const d = digits(value, 8, 2);
  return y !== -1 && m !== -1 && d !== -1 && value.charCodeAt(4) === 0x2d && value.charCodeAt(7) === 0x2d && realDate(y, m, d);
}

/** `YYYY-MM-DD`, a real calendar date. @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6 (full-date) */
export function date(value: string): boolean {
  return value.length === 10 && fullDate(value);
}

/**
 * Whether `later` names an instant that is not after `earlier`'s, both valid `date` or `date-time` values: the
 * `later_than` rule. A value that fails its format is left to the format's own violation, not compared (JavaScript's
 * Date would read 2026-02-30 as 2 March).
 */
export function notLater(later: unknown, earlier: unknown): boolean {
  const a = instant(later);
  const b = instant(earlier);
  return a !== undefined && b !== undefined && a <= b;
}

function instant(value: unknown): number | undefined {
  return typeof value === 'string' && dateOrDateTime(value) ? Date.parse(value) : undefined;
}

/** RFC 3339 date-time with a mandatory offset (`Z` or `+01:00`). @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6 */
export function dateTime(value: string): boolean {
  const len = value.length;
  if (len < 20 || !fullDate(value)) return false;
  const t = value.charCodeAt(10);
  if (t !== 0x54 && t !== 0x74) return false; // T or t
  if (value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a) return false;
  const hh = digits(value, 11, 2);
  const mm = digits(value, 14, 2);
  const ss = digits(value, 17, 2);
  // Second 60 is a leap second, which RFC 3339 allows.
  if (hh === -1 || mm === -1 || ss === -1 || hh > 23 || mm > 59 || ss > 60) return false;
  let i = 19;
  if (value.charCodeAt(i) === 0x2e) {
    // Fraction: at least one digit.
    const from = ++i;
    while (i < len && digits(value, i, 1) !== -1) i++;
    if (i === from) return false;
  }
  const z = value.charCodeAt(i);
  if (z === 0x5a || z === 0x7a) return i + 1 === len; // Z or z
  if (z !== 0x2b && z !== 0x2d) return false; // + or -
  if (i + 6 !== len || value.charCodeAt(i + 3) !== 0x3a) return false;
  const oh = digits(value, i + 1, 2);
  const om = digits(value, i + 4, 2);
  return oh !== -1 && om !== -1 && oh <= 23 && om <= 59;
}

/**
 * An RFC 3339 date-time with its offset, or a date alone (`YYYY-MM-DD`): a Calendar event's start, timed or all-day
 * (Google's `start.dateTime` or `start.date`).
 */
export function dateOrDateTime(value: string): boolean {
  return value.length === 10 ? date(value) : dateTime(value);
}

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An e-mail address (the common `local@domain.tld` subset of RFC 5322 that calendars and CRMs accept). */
export function email(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const URI = /^[a-z][a-z0-9+.-]*:[^\s\u0000-\u001f\u007f]+$/i;

/** An absolute URI: a scheme, a colon, no whitespace or control characters. @see https://www.rfc-editor.org/rfc/rfc3986#section-4.3 */
export function uri(value: string): boolean {
  return URI.test(value);
}

const ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);

/**
 * An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`). Looked up in `Intl.supportedValuesOf`; names it
 * omits (aliases such as `US/Eastern`) are tried with `Intl.DateTimeFormat`.
 * @see https://www.iana.org/time-zones
 */
export function ianaTimeZone(value: string): boolean {
  if (ZONES.has(value)) return true;
  // An offset such as "+01:00" is accepted by DateTimeFormat but is not an IANA name.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const REF = '(?:[A-Za-z]{1,3}[1-9][0-9]*|[A-Za-z]{1,3}|[1-9][0-9]*)';
/** One R1C1 reference (`R1C1`, `R[1]C[1]`, `R2`, `C`, `RC`), which the tools do not take: format-problems.ts says so. */
const R1C1_REF = '(?:[Rr](?:\\d+|\\[\\d+\\])?(?:[Cc](?:\\d+|\\[\\d+\\])?)?|[Cc](?:\\d+|\\[\\d+\\])?)';
const QUOTED = "'(?:[^']|'')+'";
/**
 * A sheet name wrapped in quotes other than Sheets' single ones (`"Q4 Budget"`, `‘Q4 Budget’`, `“Q4 Budget”`,
 * `` `Q4 Budget` ``), as other languages quote: Sheets would read the quotes as part of the name and find no such
 * sheet. A name that holds such quotes goes inside single quotes (`'"Q4 Budget"'!A1`).
 */
export const OTHER_QUOTES = '(?:"[^"!]*"|‘[^’!]*’|“[^”!]*”|`[^`!]*`)!';

/**
 * A sheet name written without quotes, as Sheets reads one: any text without a quote or `!`, not starting or ending
 * with white space (`Sheet1`, `Class Data`, `Données 2026`). Google's own samples write `Class Data!A2:E`.
 */
const UNQUOTED = `(?!${OTHER_QUOTES})[^'!\\s](?:[^'!]*[^'!\\s])?`;
/**
 * A sheet name alone: unquoted, it holds no `:` either, so that a malformed range (`A1 : B2`) is not taken for one, and
 * it does not read as R1C1 (`RC`, `R1C1`, `C[2]`), which Sheets reads as cells before a title (brekkylab/backlot,
 * measured): such a sheet is named quoted (`'RC'`).
 */
const BARE = `(?!${R1C1_REF}$)[^'!:\\s](?:[^'!:]*[^'!:\\s])?`;
/**
 * One cell, or two references joined by a colon. A lone column or row is no range (`Sheet1!B`, `Sheet1!2`: Sheets
 * answers 'Unable to parse range', measured by brekkylab/backlot); `B:B` and `2:2` are.
 */
const CELLS = `(?:[A-Za-z]{1,3}[1-9][0-9]*|${REF}:${REF})`;
/** Before cells, the name may be empty (`!A1`, `''!A1`): Sheets reads the first sheet (brekkylab/backlot, measured). */
const A1 = new RegExp(`^(?:(?:(?:${QUOTED}|${UNQUOTED}|'')?!)?${CELLS}|${QUOTED}|${BARE})$`, 'u');
const A1_CELLS = new RegExp(`^${CELLS}$`);
const A1_QUOTED_NAME = new RegExp(`^${QUOTED}(?:!|$)`);

/** The cell part of an A1 range (after the `!`): `A1`, `A1:C10`, `A:C`, `2:4`. */
export function a1Cells(value: string): boolean {
  return A1_CELLS.test(value);
}

const R1C1_REF_ALONE = new RegExp(`^${R1C1_REF}$`);

/** Whether a reference reads as R1C1 (`R1C1`, `R[1]C[1]`, `RC`); `R1` and `C2` do too, though A1 reads them first. */
export function r1c1Ref(value: string): boolean {
  return R1C1_REF_ALONE.test(value);
}

/** Whether an A1 range that starts with a quote starts with a well-formed quoted sheet name. */
export function a1QuotedName(value: string): boolean {
  return A1_QUOTED_NAME.test(value);
}

/**
 * A1 notation: `A1`, `A1:C10`, `A:C`, `2:4`, `Sheet1!A1:B2`, `'My Sheet'!A1`, `My Sheet!A1`, `!A1` (the first sheet),
 * or a sheet name alone.
 * @see https://developers.google.com/sheets/api/guides/concepts#cell
 * @see https://github.com/googleworkspace/apps-script-samples/blob/main/sheets/quickstart/quickstart.gs (`Class Data!A2:E`)
 */
export function a1Range(value: string): boolean {
  return A1.test(value);
}

/** A hyphenated UUID, a 32-hex id, or a page/database URL ending in one. */
export function workspaceId(value: string): boolean {
  return isWorkspaceId(value);
}

/** A Google Sheets file id, or a spreadsheet's address carrying one (`https://docs.google.com/spreadsheets/d/<id>/edit`). */
export function spreadsheetId(value: string): boolean {
  return isGoogleFileId('spreadsheets', value);
}

/** A Google Docs file id, or a document's address carrying one (`https://docs.google.com/document/d/<id>/edit`). */
export function documentId(value: string): boolean {
  return isGoogleFileId('document', value);
}

/** A string that parses as JSON as the service reads caller JSON (depth limit, no prototype-poisoning keys). */
export function jsonString(value: string): boolean {
  try {
    parseUntrustedJson(value);
    return true;
  } catch {
    return false;
  }
}

/** Format name -> check, as registered with ajv when the validators are generated and looked up when they run. */
export const formats: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': dateTime,
  date,
  'date-or-date-time': dateOrDateTime,
  email,
  uri,
  'iana-time-zone': ianaTimeZone,
  'a1-range': a1Range,
  'workspace-id': workspaceId,
  'spreadsheet-id': spreadsheetId,
  'document-id': documentId,
  'json-string': jsonString,
};

/** How a format is described in a violation message (`start_datetime must be ...`). */
export const FORMAT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'date-time': 'an RFC 3339 date-time with an offset, e.g. 2026-03-01T10:00:00+01:00',
  date: 'a date YYYY-MM-DD, e.g. 2026-03-01',
  'date-or-date-time': 'an RFC 3339 date-time with an offset, e.g. 2026-03-01T10:00:00+01:00, or a date alone, YYYY-MM-DD',
  email: 'an e-mail address',
  uri: 'an absolute URI',
  'iana-time-zone': 'an IANA time zone name, e.g. Europe/Paris',
  'a1-range': "an A1 range, e.g. Sheet1!A1:C10 or 'My Sheet'!A:C",
  'workspace-id': 'a hyphenated UUID, a 32-hex id, or a page/database URL ending in one',
  'spreadsheet-id': "a spreadsheet id (letters, digits, - and _, e.g. 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms) or the spreadsheet's URL, https://docs.google.com/spreadsheets/d/<id>/edit, or a drive.google.com link to it",
  'document-id': "a document id (letters, digits, - and _, e.g. 1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz) or the document's URL, https://docs.google.com/document/d/<id>/edit, or a drive.google.com link to it",
  'json-string': 'a string holding valid JSON',
};

/**
 * Formats whose values the request builders read through a helper of `runtime/helpers` (named here): the caller may
 * give the value in more than one form (an id or an address), and the upstream takes one. The generated builders
 * apply it wherever a mapping reads such a value (docs/spec-format.md, "Compilation details").
 */
export const FORMAT_NORMALIZERS: Readonly<Record<string, 'workspaceId' | 'googleFileId'>> = {
  'workspace-id': 'workspaceId',
  'spreadsheet-id': 'googleFileId',
  'document-id': 'googleFileId',
};
