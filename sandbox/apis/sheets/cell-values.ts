/**
 * Cell values: what `valueInputOption` makes of an input (RAW stores as-is, USER_ENTERED parses as if typed), and
 * how a stored cell renders under each `valueRenderOption`.
 * @see https://developers.google.com/sheets/api/reference/rest/v4/ValueInputOption
 * @see https://developers.google.com/sheets/api/reference/rest/v4/ValueRenderOption
 */
import { GoogleApiError } from '../google-common/errors.js';
import { isError, type FormulaError, type Scalar } from './formula.js';

/** Sheets holds at most 50,000 characters in a cell; a longer input is refused, not cut. */
const MAX_CELL_CHARS = 50_000;

/** Refuses a cell input longer than a cell holds, as Google does on every write (values and spreadsheets.create). */
export function checkCellLength(v: unknown): void {
  if (typeof v === 'string' && v.length > MAX_CELL_CHARS) {
    throw new GoogleApiError(400, `Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`);
  }
}

/** `ExtendedValue`, as the API writes `userEnteredValue`. */
export type UserValue = { stringValue: string } | { numberValue: number } | { boolValue: boolean } | { formulaValue: string };

export interface Cell {
  value: UserValue;
  /** A number typed as a percentage or a date keeps its format, so it renders back as typed. */
  numberFormat?: NumberFormatType;
}

export type NumberFormatType = 'PERCENT' | 'DATE';

/** The `userEnteredFormat.numberFormat` Sheets gives a cell typed in each form. */
export const NUMBER_FORMATS: Readonly<Record<NumberFormatType, { type: NumberFormatType; pattern: string }>> = {
  PERCENT: { type: 'PERCENT', pattern: '0.00%' },
  DATE: { type: 'DATE', pattern: 'yyyy-mm-dd' },
};

export type ValueInputOption = 'RAW' | 'USER_ENTERED';
export type ValueRenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';
/** How a date comes out when values are not formatted: its serial number (the default) or its formatted text. */
export type DateTimeRenderOption = 'SERIAL_NUMBER' | 'FORMATTED_STRING';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const PERCENT = /^([+-]?(\d+(\.\d*)?|\.\d+))%$/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DAY_MS = 86_400_000;
/** Day 0 of Sheets' serial dates, 30 December 1899 (so 1 January 1900 is 2), in ms since the Unix epoch. */
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** The serial number (days since 30 December 1899) of a real calendar date, or undefined. */
function dateSerial(y: number, m: number, d: number): number | undefined {
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
  return Math.round((ms - SERIAL_EPOCH_MS) / DAY_MS);
}

/** `2026-03-01` from a serial number (its whole days). */
function serialDate(n: number): string {
  return new Date(SERIAL_EPOCH_MS + Math.floor(n) * DAY_MS).toISOString().slice(0, 10);
}

/** The cell an input value becomes; `null` clears the cell, `undefined` leaves it unchanged (a JSON null). */
export function inputToCell(input: unknown, option: ValueInputOption): Cell | null | undefined {
  if (input === null || input === undefined) return undefined;
  if (typeof input === 'number') return { value: { numberValue: input } };
  if (typeof input === 'boolean') return { value: { boolValue: input } };
  const s = String(input);
  if (s === '') return null;
  if (option === 'RAW') return { value: { stringValue: s } };
  if (s.startsWith("'")) return { value: { stringValue: s.slice(1) } };
  if (s.startsWith('=') && s.length > 1) return { value: { formulaValue: s } };
  const t = s.trim();
  if (/^true$/i.test(t)) return { value: { boolValue: true } };
  if (/^false$/i.test(t)) return { value: { boolValue: false } };
  if (NUMBER.test(t)) return { value: { numberValue: Number(t) } };
  if (GROUPED.test(t)) return { value: { numberValue: Number(t.replaceAll(',', '')) } };
  const pct = PERCENT.exec(t);
  if (pct) return { value: { numberValue: Number(pct[1]) / 100 }, numberFormat: 'PERCENT' };
  // A date typed as year-month-day is a date in every locale: its serial number, shown back in that form.
  const iso = ISO_DATE.exec(t);
  const serial = iso ? dateSerial(Number(iso[1]), Number(iso[2]), Number(iso[3])) : undefined;
  if (serial !== undefined) return { value: { numberValue: serial }, numberFormat: 'DATE' };
  return { value: { stringValue: s } };
}

/** Sheets' error strings (`formattedValue` and rendered values of an error cell). */
const ERROR_TEXT: Record<FormulaError['error'], string> = {
  DIV_BY_ZERO: '#DIV/0!',
  VALUE: '#VALUE!',
  REF: '#REF!',
  NAME: '#NAME?',
  ERROR: '#ERROR!',
  N_A: '#N/A',
};

/** The automatic number format: integers plainly, fractions to at most ten decimals. */
export function formatNumber(n: number, format?: NumberFormatType): string {
  if (format === 'PERCENT') return `${trimDecimals(n * 100, 2)}%`;
  if (format === 'DATE') return serialDate(n);
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return trimDecimals(n, 10);
}

function trimDecimals(n: number, digits: number): string {
  const fixed = n.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** `effectiveValue` as an `ExtendedValue`; undefined for an empty result. */
export function effectiveToExtended(v: Scalar): Record<string, unknown> | undefined {
  if (v === null) return undefined;
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'string') return { stringValue: v };
  return { errorValue: { type: v.error, message: v.message } };
}

export function formattedOf(v: Scalar, cell: Cell | undefined): string | undefined {
  if (v === null) return undefined;
  if (typeof v === 'number') return formatNumber(v, cell?.numberFormat);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (isError(v)) return ERROR_TEXT[v.error];
  return v;
}

/**
 * The value `values.get` reports for a cell; `''` stands for empty inside a row. Unformatted or as a formula, a date
 * is its serial number, or with FORMATTED_STRING its formatted text (dateTimeRenderOption is ignored when formatted).
 * @see https://developers.google.com/workspace/sheets/api/reference/rest/v4/DateTimeRenderOption
 */
export function renderCell(cell: Cell | undefined, effective: Scalar, option: ValueRenderOption, dateTime: DateTimeRenderOption): string | number | boolean {
  if (!cell) return '';
  if (option === 'FORMULA' && 'formulaValue' in cell.value) return cell.value.formulaValue;
  if (option === 'FORMATTED_VALUE') return formattedOf(effective, cell) ?? '';
  if (effective === null) return '';
  if (isError(effective)) return ERROR_TEXT[effective.error];
  if (dateTime === 'FORMATTED_STRING' && typeof effective === 'number' && cell.numberFormat === 'DATE') return formatNumber(effective, 'DATE');
  return effective;
}

/** The stored input of a non-formula cell as a formula-engine scalar. */
export function literalOf(value: UserValue): Scalar {
  if ('numberValue' in value) return value.numberValue;
  if ('boolValue' in value) return value.boolValue;
  if ('stringValue' in value) return value.stringValue;
  return null;
}
