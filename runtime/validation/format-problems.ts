/**
 * What is wrong with a value a format refused, said after the format's description so that a caller (a model, most
 * often) knows which part to change: `2026-02-30` is not a day, `2026-03-02T10:00:00` has no offset, a Docs URL was
 * given for a spreadsheet. Read with the format checks themselves, so the two cannot disagree. Runs only on the
 * failure path.
 */
import { googleFileProblem } from '../helpers/google-file-id.js';
import { a1Cells, a1QuotedName, a1Range, date, dateTime, email, formats, OTHER_QUOTES, r1c1Ref } from './formats.js';

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}/;

/**
 * `; 2026-02-30 is not a day of the calendar`, or the empty string when nothing more precise can be said. `inList`:
 * the value is an item of a list (`ranges/1`), where a fix that means another call means another item instead.
 */
export function formatProblem(format: string, value: unknown, inList = false): string {
  const check = formats[format];
  const quoted = check ? quotesProblem(value, check) : '';
  if (quoted) return quoted;
  if (format === 'spreadsheet-id' && typeof value === 'string') return googleFileProblem('spreadsheets', value);
  if (format === 'document-id' && typeof value === 'string') return googleFileProblem('document', value);
  if (format === 'a1-range' && typeof value === 'string') return a1Problem(value, inList);
  if (format === 'email' && typeof value === 'string') return emailProblem(value);
  if (format === 'iana-time-zone' && typeof value === 'string') return zoneProblem(value);
  if ((format !== 'date-time' && format !== 'date' && format !== 'date-or-date-time') || typeof value !== 'string') return '';
  const written = writtenDayProblem(format, value);
  if (written !== '' || !DATE_SHAPE.test(value)) return written;
  const day = value.slice(0, 10);
  if (!date(day)) return `; ${day} is not a day of the calendar`;
  if (format === 'date') return value.length > 10 ? '; give the day alone, without a time' : '';
  if (value.length === 10) return '; it has a day but no time';
  if (dateTime(`${value}Z`)) return '; it has no offset: add the offset of the time zone it is meant in on that day (+01:00), or Z if it is meant in UTC';
  return timeShapeProblem(value);
}

/** A day as people write it, numbers joined by slashes or dots, the year last: `12/04/2026`, `4.12.2026`. */
const WRITTEN_DAY = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?![\d/.])/;

/**
 * `; 12/04/2026 is a day written as people write it: write it year first, 2026-12-04 (month first, as in the US) or
 * 2026-04-12 (day first)`, naming the one reading there is when a number is above 12, and how a time follows it where
 * the format takes one (a copy from a sheet or a message: `12/04/2026 3pm`). Which reading is meant is the caller's to
 * know, never guessed. The empty string when the value does not start so.
 */
function writtenDayProblem(format: string, value: string): string {
  const m = WRITTEN_DAY.exec(value);
  if (!m) return '';
  const [day, first, second, year] = m as unknown as [string, string, string, string];
  const iso = (month: string, dayOfMonth: string) => `${year}-${month.padStart(2, '0')}-${dayOfMonth.padStart(2, '0')}`;
  const monthFirst = date(iso(first, second)) ? iso(first, second) : undefined;
  const dayFirst = date(iso(second, first)) ? iso(second, first) : undefined;
  const readings =
    monthFirst !== undefined && dayFirst !== undefined && monthFirst !== dayFirst
      ? `${monthFirst} (month first, as in the US) or ${dayFirst} (day first)`
      : (monthFirst ?? dayFirst);
  if (readings === undefined) return '';
  const time = format === 'date-time' || (format === 'date-or-date-time' && value.length > day.length) ? ', then T, the time with seconds and its offset (e.g. T15:00:00+01:00)' : '';
  return `; ${day} is a day written as people write it: write it year first, ${readings}${time}`;
}

/** How many zones a refused time zone names when its text is the last part of several. */
const ZONES_NAMED = 3;

/**
 * `; a zone's IANA name starts with its area: send Europe/Paris` when the value is the last part of the name of one or
 * more zones the runtime knows (`Paris`, `new york`: compared ignoring case, spaces read as underscores), naming up to
 * three in the order `zones` lists them. The empty string when no zone ends so: nothing is guessed. `zones`: the
 * runtime's (`Intl.supportedValuesOf`); tests give their own to list several, which Node 20's list never does (no
 * two of its zones share a last part).
 */
export function zoneProblem(value: string, zones: readonly string[] = Intl.supportedValuesOf('timeZone')): string {
  const wanted = value.trim().replace(/\s+/g, '_').toLowerCase();
  if (wanted === '' || wanted.includes('/')) return '';
  const found = zones.filter((zone) => zone.slice(zone.lastIndexOf('/') + 1).toLowerCase() === wanted);
  if (found.length === 0) return '';
  const intro = "; a zone's IANA name starts with its area: send ";
  if (found.length === 1) return `${intro}${found[0]}`;
  const named = found.slice(0, ZONES_NAMED);
  const last = named.pop() as string;
  return `${intro}the one meant, ${found.length > ZONES_NAMED ? 'e.g. ' : ''}${named.join(', ')} or ${last}`;
}

/** Quotes a model wraps a value in when it copies it from text: "…", “…”, `…` (a ' may begin an A1 sheet name). */
const WRAPPED = /^(?:"([^"]*)"|\u201c([^\u201d]*)\u201d|`([^`]*)`)$/s;

/** Longest value a fix spells out (it repeats the caller's value). */
const ECHO_MAX = 200;

/**
 * `; it is wrapped in quotes: send 101` when the value is a string in quotes (`"\"101\""`, an id copied with the quotes
 * around it) and the text inside them is what `accepts` takes. The empty string otherwise. Used for a format and for
 * a pattern (`^[0-9]+$`, HubSpot's record ids), whose own message says only the shape.
 */
export function quotesProblem(value: unknown, accepts: (inner: string) => boolean): string {
  if (typeof value !== 'string') return '';
  const m = WRAPPED.exec(value);
  const inner = m?.[1] ?? m?.[2] ?? m?.[3];
  if (inner === undefined || inner === '' || !accepts(inner)) return '';
  return inner.length <= ECHO_MAX ? `; it is wrapped in quotes: send ${inner}` : '; it is wrapped in quotes: send it without them';
}

/**
 * `; send the id alone, not the address holding it: 101` when the value is a web address whose last path segment is
 * what `accepts` takes (a HubSpot record's address, `https://app.hubspot.com/contacts/123/record/0-1/101`, given for
 * its id). The empty string otherwise.
 */
export function addressProblem(value: unknown, accepts: (segment: string) => boolean): string {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return '';
  let last: string | undefined;
  try {
    last = new URL(value).pathname.split('/').filter((s) => s !== '').pop();
  } catch {
    return '';
  }
  return last !== undefined && last.length <= ECHO_MAX && accepts(last) ? `; send the id alone, not the address holding it: ${last}` : '';
}

/** A time written `2026-03-02 10:00`: its day and time, the separator, seconds, and the rest (a fraction, an offset). */
const LOOSE_TIME = /^(\d{4}-\d{2}-\d{2})([Tt ])(\d{2}:\d{2})(:\d{2})?(.*)$/s;

/**
 * What keeps a date-time that has a day and a time from being RFC 3339, when writing it the standard way fixes it:
 * a space for the `T`, no seconds, no offset (`2026-03-02 10:00` is `2026-03-02T10:00:00` plus an offset).
 */
function timeShapeProblem(value: string): string {
  const m = LOOSE_TIME.exec(value);
  if (!m) return '';
  const [, day, separator, hoursMinutes, seconds, rest] = m as unknown as [string, string, string, string, string | undefined, string];
  const fixed = `${day}T${hoursMinutes}${seconds ?? ':00'}${rest}`;
  const needsOffset = !dateTime(fixed);
  if (needsOffset && !dateTime(`${fixed}Z`)) return '';
  const fixes = [
    ...(separator === ' ' ? ['a T, not a space, between the day and the time'] : []),
    ...(seconds === undefined ? [`seconds (${hoursMinutes}:00, not ${hoursMinutes})`] : []),
    ...(needsOffset ? ['an offset (that of the time zone it is meant in on that day, e.g. +01:00, or Z if it is meant in UTC)'] : []),
  ];
  const last = fixes.pop() as string;
  return `; it needs ${fixes.length > 0 ? `${fixes.join(', ')} and ${last}` : last}`;
}

/**
 * Whether the value is a list of A1 ranges joined by commas (`Sheet1!A1:B2,'My Sheet'!A1`): each part is a range. A
 * comma inside a quoted sheet name separates nothing.
 */
function severalRanges(value: string): boolean {
  const parts: string[] = [];
  let quoted = false;
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === "'") quoted = !quoted;
    else if (value[i] === ',' && !quoted) {
      parts.push(value.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(value.slice(from).trim());
  return parts.length > 1 && parts.every((p) => a1Range(p));
}

/** An address written with a display name, as mail clients show it: `Ana <ana@example.com>`. */
const NAMED_ADDRESS = /<([^<>\s]+@[^<>\s]+)>/;

/** `; send the address alone: ana@example.com` when the value is a name with the address in angle brackets. */
function emailProblem(value: string): string {
  const inside = NAMED_ADDRESS.exec(value)?.[1];
  return inside !== undefined && email(inside) ? `; send the address alone, without the name or angle brackets: ${inside}` : '';
}

/**
 * Why an A1 range was refused: white space at its start or end (Sheets refuses ` A1` rather than trim it), several
 * ranges in one value (a parameter takes one, and an item of a list of ranges one), a quoted sheet name not closed or with a lone quote inside, a name with
 * a quote left unquoted (the fix spelled out), a lone column or row after `!` (how a cell, a column and a row are
 * written), R1C1 notation (the same cells in A1 where they can be said), or cells that are not A1 (spaces around the
 * colon).
 */
function a1Problem(value: string, inList: boolean): string {
  const trimmed = value.trim();
  if (trimmed !== value && a1Range(trimmed)) {
    return value.length <= ECHO_MAX ? `; Sheets reads no white space at its start or end: send ${trimmed}` : '; Sheets reads no white space at its start or end: remove it';
  }
  if (severalRanges(value)) {
    return inList
      ? '; each item is one range, not several separated by commas: give each range its own item of the list'
      : '; it takes one range, not several separated by commas: call the tool once per range';
  }
  const bang = value.lastIndexOf('!');
  const otherQuotes = new RegExp(`^${OTHER_QUOTES}`).exec(value);
  if (otherQuotes) {
    const name = value.slice(1, otherQuotes[0].length - 2);
    const fix = `'${name.replaceAll("'", "''")}'!${value.slice(otherQuotes[0].length)}`;
    const marks = `${value[0]}${value[otherQuotes[0].length - 2]}`;
    return `; a sheet name is quoted with single quotes ('), not ${marks}${value.length <= ECHO_MAX ? `: send ${fix}` : ", e.g. 'My Sheet'!A1"}`;
  }
  if (value.startsWith("'")) {
    if (!a1QuotedName(value)) return "; a quoted sheet name ends with ' and a ' inside it is doubled, e.g. 'Bob''s data'!A1:C10";
  } else if (bang > 0 && value.slice(0, bang).includes("'")) {
    const name = value.slice(0, bang);
    const fix = `'${name.replaceAll("'", "''")}'!${value.slice(bang + 1)}`;
    return value.length <= ECHO_MAX
      ? `; a sheet name with a ' is quoted and the ' doubled: ${fix}`
      : "; a sheet name with a ' is quoted and the ' doubled, e.g. 'Bob''s data'!A1:C10";
  }
  const cells = bang >= 0 ? value.slice(bang + 1) : value;
  if (bang >= 0 && /^[A-Za-z]{1,3}$/.test(cells)) return `; one cell is written with its column and row (${cells}1), a whole column as ${cells}:${cells}`;
  if (bang >= 0 && /^[1-9][0-9]*$/.test(cells)) return `; one cell is written with its column and row (A${cells}), a whole row as ${cells}:${cells}`;
  const r1c1 = r1c1Problem(value, bang);
  if (r1c1) return r1c1;
  if ((bang >= 0 || cells.includes(':')) && !a1Cells(cells)) {
    return '; the cells must be one cell (A1) or two joined by a colon without spaces (A1:C10, A:C, 2:4)';
  }
  return '';
}

/** The last column a sheet can have, ZZZ. */
const MAX_COLUMN = 18_278;

/** Column letters of a 1-based column number: 1 is A, 28 is AB. */
function columnLetters(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/**
 * Cells in R1C1 notation (`R1C1:R2C2`, `R[1]C[1]`): Google's values.get takes it, but the tools take A1 alone, the one
 * notation every Sheets method takes (update's and append's references name A1 only), so the refusal says what to
 * send: the same cells in A1 when every half is an absolute cell (`R2C28` is AB2), else how A1 is written. Alone
 * without `!`, it is not a sheet name either: Sheets reads it as cells first, so a sheet of that title is quoted.
 */
function r1c1Problem(value: string, bang: number): string {
  const cells = value.slice(bang + 1);
  const halves = cells.split(':');
  if (halves.length > 2 || !halves.every(r1c1Ref)) return '';
  const a1 = halves
    .map((h) => /^[Rr]0*([1-9]\d{0,6})[Cc]0*([1-9]\d{0,4})$/.exec(h))
    .map((m) => (m && Number(m[2]) <= MAX_COLUMN ? `${columnLetters(Number(m[2]))}${m[1]}` : undefined));
  const alone = bang < 0 && halves.length === 1 ? ` (a sheet titled ${value} is written quoted: '${value}')` : '';
  if (a1.every((c) => c !== undefined) && value.length <= ECHO_MAX) {
    return `; R1C1 notation is not taken: send A1 notation, ${value.slice(0, bang + 1)}${a1.join(':')}${alone}`;
  }
  return `; R1C1 notation (R1C1, R[1]C[1]) is not taken: send A1 notation, column letters then row number (A1:C10; B:B for a column, 2:2 for a row)${alone}`;
}
