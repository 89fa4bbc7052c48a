/**
 * Identifiers, names and ids from callers must be text both databases store as it was sent: well-formed Unicode
 * (no lone surrogate, which PostgreSQL's UTF-8 encoding turns into U+FFFD, so three different strings would reach
 * one account) and no control characters (PostgreSQL refuses a NUL in text with an error; SQLite keeps it). Checked
 * before any store call, so SQLite and PostgreSQL answer the same 400.
 */
import { violationError } from './violation-error.js';

/** C0 and C1 controls (NUL included) and DEL; a surrogate code unit that is not half of a pair. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `value` is not storable text, or null when it is. */
export function textProblem(value: string): string | null {
  const found = UNSAFE.exec(value);
  if (found === null) return null;
  const unit = found[0].charCodeAt(0);
  return unit >= 0xd800 && unit <= 0xdfff ? 'contains a lone surrogate (not valid Unicode)' : 'contains a control character';
}

/**
 * Throws `invalid_request` naming the field (`pointer`, e.g. `/identifier`) when a non-empty string value is not
 * storable text; other types are left to the caller's own checks.
 */
export function checkTextInput(value: unknown, pointer: string, field: string): void {
  if (typeof value !== 'string') return;
  const problem = textProblem(value);
  if (problem === null) return;
  const message = `${field} ${problem}`;
  throw violationError('invalid_request', `${message}.`, { pointer, message, keyword: 'text' });
}
