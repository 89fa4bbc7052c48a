/**
 * The string formats tool inputs use (docs/spec-format.md, "Formats"). The generated validators import this module
 * and call these functions by format name, so each export's name is the format's name: keep every export a
 * `(value: string) => boolean` keyed exactly like the format (quoted where the name has a dash).
 */
import { isWorkspaceId } from '../helpers/workspace-id.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : DAYS[m]!);
}

/** `YYYY-MM-DD`, a real calendar date. @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6 (full-date) */
export function date(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && realDate(+m[1]!, +m[2]!, +m[3]!);
}

/** RFC 3339 date-time with a mandatory offset (`Z` or `+01:00`). @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6 */
export function dateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null || !realDate(+m[1]!, +m[2]!, +m[3]!)) return false;
  // Second 60 is a leap second, which RFC 3339 allows.
  if (+m[4]! > 23 || +m[5]! > 59 || +m[6]! > 60) return false;
  return m[7] === undefined || (+m[8]! <= 23 && +m[9]! <= 59);
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

let zones: Set<string> | undefined;
const zoneCache = new Map<string, boolean>();

/**
 * An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`). Looked up in `Intl.supportedValuesOf`; names it
 * omits (aliases such as `US/Eastern`) are tried once with `Intl.DateTimeFormat` and the answer cached.
 * @see https://www.iana.org/time-zones
 */
export function ianaTimeZone(value: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  if (zones.has(value)) return true;
  const cached = zoneCache.get(value);
  if (cached !== undefined) return cached;
  let ok = false;
  // An offset such as "+01:00" is accepted by DateTimeFormat but is not an IANA name.
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      ok = true;
    } catch {
      ok = false;
    }
  }
  if (zoneCache.size < 1000) zoneCache.set(value, ok);
  return ok;
}

const REF = '(?:[A-Za-z]{1,3}[1-9][0-9]*|[A-Za-z]{1,3}|[1-9][0-9]*)';
const SHEET = "(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)";
const A1 = new RegExp(`^(?:(?:${SHEET}!)?${REF}(?::${REF})?|${SHEET})$`);

/**
 * A1 notation: `A1`, `A1:C10`, `A:C`, `2:4`, `Sheet1!A1:B2`, `'My Sheet'!A1`, or a sheet name alone.
 * @see https://developers.google.com/sheets/api/guides/concepts#cell
 */
export function a1Range(value: string): boolean {
  return A1.test(value);
}

/** A hyphenated UUID, a 32-hex id, or a page/database URL ending in one. */
export function workspaceId(value: string): boolean {
  return isWorkspaceId(value);
}

/** A string that parses as JSON. */
export function jsonString(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** Format name -> check, as registered with ajv when the validators are generated and looked up when they run. */
export const formats: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': dateTime,
  date,
  email,
  uri,
  'iana-time-zone': ianaTimeZone,
  'a1-range': a1Range,
  'workspace-id': workspaceId,
  'json-string': jsonString,
};

/** How a format is described in a violation message (`start_datetime must be ...`). */
export const FORMAT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'date-time': 'an RFC 3339 date-time with an offset, e.g. 2026-03-01T10:00:00+01:00',
  date: 'a date YYYY-MM-DD, e.g. 2026-03-01',
  email: 'an e-mail address',
  uri: 'an absolute URI',
  'iana-time-zone': 'an IANA time zone name, e.g. Europe/Paris',
  'a1-range': "an A1 range, e.g. Sheet1!A1:C10 or 'My Sheet'!A:C",
  'workspace-id': 'a hyphenated UUID, a 32-hex id, or a page/database URL ending in one',
  'json-string': 'a string holding valid JSON',
};
