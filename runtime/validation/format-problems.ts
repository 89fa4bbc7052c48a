/**
 * What is wrong with a value a format refused, said after the format's description so that a caller (a model, most
 * often) knows which part to change: `2026-02-30` is not a day, `2026-03-02T10:00:00` has no offset, a Docs URL was
 * given for a spreadsheet. Read with the format checks themselves, so the two cannot disagree. Runs only on the
 * failure path.
 */
import { googleFileProblem } from '../helpers/google-file-id.js';
import { date, dateTime } from './formats.js';

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}/;

/** `; 2026-02-30 is not a day of the calendar`, or the empty string when nothing more precise can be said. */
export function formatProblem(format: string, value: unknown): string {
  if (format === 'spreadsheet-id' && typeof value === 'string') return googleFileProblem('spreadsheets', value);
  if (format === 'document-id' && typeof value === 'string') return googleFileProblem('document', value);
  if ((format !== 'date-time' && format !== 'date') || typeof value !== 'string' || !DATE_SHAPE.test(value)) return '';
  const day = value.slice(0, 10);
  if (!date(day)) return `; ${day} is not a day of the calendar`;
  if (format === 'date') return value.length > 10 ? '; give the day alone, without a time' : '';
  if (value.length === 10) return '; it has a day but no time';
  if (dateTime(`${value}Z`)) return '; it has no offset: add Z for UTC, or the offset of its time zone (+01:00)';
  return '';
}
