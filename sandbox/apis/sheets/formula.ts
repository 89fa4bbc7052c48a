/**
 * A small spreadsheet formula evaluator, enough for the fake to give formulas an effective value: numbers,
 * strings, booleans, cell and range references (optionally sheet-qualified; whole columns, `C:C`, and columns from a
 * row down, `C2:C`), `+ - * / ^ &`, comparisons, and
 * SUM, AVERAGE, MIN, MAX, COUNT, COUNTA, PRODUCT, ABS, ROUND, IF, CONCATENATE, LEN, UPPER, LOWER.
 * Anything else evaluates to an error value, as Sheets does (`#NAME?`, `#ERROR!`).
 */
import { columnIndex } from './a1.js';

export type ErrorType = 'DIV_BY_ZERO' | 'VALUE' | 'REF' | 'NAME' | 'ERROR' | 'N_A';
export interface FormulaError {
  error: ErrorType;
  message: string;
}
/** A scalar result; `null` is an empty cell. */
export type Scalar = number | string | boolean | FormulaError | null;
type Value = Scalar | { range: Scalar[] };

/** Reads a referenced cell's effective value; `sheet` undefined means the formula's own sheet. */
export type CellReader = (sheet: string | undefined, row: number, col: number) => Scalar;
/**
 * Reads the effective values of a box (end exclusive); used for ranges. `r1` is `Infinity` for a range open at the
 * bottom (`C:C`, `C2:C`): the box ends at the sheet's last row.
 */
export type RangeReader = (sheet: string | undefined, r0: number, r1: number, c0: number, c1: number) => Scalar[];

export function isError(v: unknown): v is FormulaError {
  return typeof v === 'object' && v !== null && 'error' in v;
}

const err = (error: ErrorType, message: string): FormulaError => ({ error, message });

const TOKEN = /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|("(?:[^"]|"")*")|('(?:[^']|'')+'!|[A-Za-z_][A-Za-z0-9_.]*!)?(\$?[A-Za-z]{1,3}\$?\d*:\$?[A-Za-z]{1,3}\$?\d*|\$?[A-Za-z]{1,3}\$?\d+)|([A-Za-z_][A-Za-z0-9_.]*)|(<>|<=|>=|[-+*/^&=<>(),:]))/y;

interface Token {
  kind: 'num' | 'str' | 'ref' | 'name' | 'op';
  text: string;
  sheet?: string;
}

function tokenize(src: string): Token[] | undefined {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) return undefined;
    pos = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ kind: 'num', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'str', text: m[2].slice(1, -1).replaceAll('""', '"') });
    else if (m[4] !== undefined) {
      const t: Token = { kind: 'ref', text: m[4].replaceAll('$', '') };
      if (m[3] !== undefined) {
        const raw = m[3].slice(0, -1);
        t.sheet = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("''", "'") : raw;
      }
      out.push(t);
    } else if (m[5] !== undefined) out.push({ kind: 'name', text: m[5].toUpperCase() });
    else out.push({ kind: 'op', text: m[6] as string });
  }
  return out;
}

/** Evaluates a formula (with its leading `=`). Never throws. */
export function evaluateFormula(formula: string, readCell: CellReader, readRange: RangeReader): Scalar {
  const parsed = tokenize(formula.replace(/^=/, ''));
  if (!parsed || parsed.length === 0) return err('ERROR', 'Formula parse error.');
  const tokens: Token[] = parsed;
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const isOp = (t: Token | undefined, ...ops: string[]): boolean => t?.kind === 'op' && ops.includes(t.text);
  class ParseFailure extends Error {}
  const fail = (): never => {
    throw new ParseFailure();
  };

  const scalar = (v: Value): Scalar => (v !== null && typeof v === 'object' && 'range' in v ? (v.range[0] ?? null) : v);

  function comparison(): Value {
    let left = concat();
    while (isOp(peek(), '=', '<>', '<', '>', '<=', '>=')) {
      const op = tokens[i++]!.text;
      const a = scalar(left);
      const b = scalar(concat());
      if (isError(a)) return a;
      if (isError(b)) return b;
      left = compare(a, b, op);
    }
    return left;
  }
  function concat(): Value {
    let left = additive();
    while (isOp(peek(), '&')) {
      i++;
      const a = scalar(left);
      const b = scalar(additive());
      left = isError(a) ? a : isError(b) ? b : text(a) + text(b);
    }
    return left;
  }
  function additive(): Value {
    let left = multiplicative();
    while (isOp(peek(), '+', '-')) {
      const op = tokens[i++]!.text;
      left = arith(left, multiplicative(), op);
    }
    return left;
  }
  function multiplicative(): Value {
    let left = power();
    while (isOp(peek(), '*', '/')) {
      const op = tokens[i++]!.text;
      left = arith(left, power(), op);
    }
    return left;
  }
  function power(): Value {
    let left = unary();
    while (isOp(peek(), '^')) {
      i++;
      left = arith(left, unary(), '^');
    }
    return left;
  }
  function unary(): Value {
    if (isOp(peek(), '-')) {
      i++;
      return arith(0, unary(), '-');
    }
    if (isOp(peek(), '+')) {
      i++;
      return unary();
    }
    return primary();
  }
  function primary(): Value {
    const t = tokens[i++];
    if (!t) return fail();
    if (t.kind === 'num') return Number(t.text);
    if (t.kind === 'str') return t.text;
    if (t.kind === 'ref') return reference(t);
    if (t.kind === 'name') {
      if (isOp(peek(), '(')) {
        i++;
        const args: Value[] = [];
        if (!isOp(peek(), ')')) {
          for (;;) {
            args.push(comparison());
            if (isOp(peek(), ',')) i++;
            else break;
          }
        }
        if (!isOp(tokens[i++], ')')) fail();
        return callFunction(t.text, args);
      }
      if (t.text === 'TRUE') return true;
      if (t.text === 'FALSE') return false;
      return err('NAME', `Unknown range name: '${t.text}'.`);
    }
    if (isOp(t, '(')) {
      const v = comparison();
      if (!isOp(tokens[i++], ')')) fail();
      return v;
    }
    return fail();
  }
  function reference(t: Token): Value {
    const [a, b] = t.text.split(':') as [string, string | undefined];
    const pa = /^([A-Za-z]+)(\d*)$/.exec(a)!;
    const c0 = columnIndex(pa[1] as string);
    // A side without a row is a whole column's end: C:C from the first row, C2:C down to the sheet's last.
    const r0 = pa[2] === '' ? 0 : Number(pa[2]) - 1;
    if (b === undefined) return readCell(t.sheet, r0, c0);
    const pb = /^([A-Za-z]+)(\d*)$/.exec(b)!;
    const c1 = columnIndex(pb[1] as string);
    const r1 = pb[2] === '' ? Infinity : Number(pb[2]) - 1;
    return { range: readRange(t.sheet, Math.min(r0, r1), Math.max(r0, r1) + 1, Math.min(c0, c1), Math.max(c0, c1) + 1) };
  }

  try {
    const v = comparison();
    if (i !== tokens.length) return err('ERROR', 'Formula parse error.');
    return scalar(v);
  } catch (e) {
    if (e instanceof ParseFailure) return err('ERROR', 'Formula parse error.');
    throw e;
  }
}

function toNumber(v: Scalar): number | FormulaError {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isError(v)) return v;
  if (v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return err('VALUE', `Function expects number values. But '${v}' is a text and cannot be coerced to a number.`);
}

function text(v: Scalar): string {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

function arith(left: Value, right: Value, op: string): Scalar {
  const a = toNumber(flat(left)[0] ?? null);
  const b = toNumber(flat(right)[0] ?? null);
  if (isError(a)) return a;
  if (isError(b)) return b;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? err('DIV_BY_ZERO', 'Function DIVIDE parameter 2 cannot be zero.') : a / b;
    default:
      return a ** b;
  }
}

function compare(a: Scalar, b: Scalar, op: string): boolean {
  const x = typeof a === 'string' ? a.toLowerCase() : (a ?? 0);
  const y = typeof b === 'string' ? b.toLowerCase() : (b ?? 0);
  switch (op) {
    case '=':
      return x === y;
    case '<>':
      return x !== y;
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    default:
      return x >= y;
  }
}

function flat(v: Value): Scalar[] {
  return v !== null && typeof v === 'object' && 'range' in v ? v.range : [v];
}

/** Numbers of the arguments: direct arguments are coerced, text and empties inside ranges are skipped. */
function numbers(args: Value[]): number[] | FormulaError {
  const out: number[] = [];
  for (const a of args) {
    if (a !== null && typeof a === 'object' && 'range' in a) {
      for (const v of a.range) {
        if (isError(v)) return v;
        if (typeof v === 'number') out.push(v);
      }
    } else {
      const n = toNumber(a);
      if (isError(n)) return n;
      out.push(n);
    }
  }
  return out;
}

function callFunction(name: string, args: Value[]): Value {
  const nums = (): number[] | FormulaError => numbers(args);
  const withNums = (f: (n: number[]) => Scalar): Scalar => {
    const n = nums();
    return isError(n) ? n : f(n);
  };
  switch (name) {
    case 'SUM':
      return withNums((n) => n.reduce((s, x) => s + x, 0));
    case 'PRODUCT':
      return withNums((n) => n.reduce((s, x) => s * x, 1));
    case 'AVERAGE':
      return withNums((n) => (n.length === 0 ? err('DIV_BY_ZERO', 'Evaluation of function AVERAGE caused a divide by zero error.') : n.reduce((s, x) => s + x, 0) / n.length));
    case 'MIN':
      return withNums((n) => (n.length === 0 ? 0 : Math.min(...n)));
    case 'MAX':
      return withNums((n) => (n.length === 0 ? 0 : Math.max(...n)));
    case 'COUNT':
      return args.flatMap(flat).filter((v) => typeof v === 'number').length;
    case 'COUNTA':
      return args.flatMap(flat).filter((v) => v !== null && v !== '').length;
    case 'ABS':
      return withNums((n) => Math.abs(n[0] ?? 0));
    case 'ROUND':
      return withNums((n) => {
        const f = 10 ** (n[1] ?? 0);
        return Math.round((n[0] ?? 0) * f) / f;
      });
    case 'IF': {
      const c = flat(args[0] ?? null)[0] ?? null;
      if (isError(c)) return c;
      const truthy = typeof c === 'string' ? c.length > 0 : Boolean(c);
      return truthy ? (args[1] ?? true) : (args[2] ?? false);
    }
    case 'CONCATENATE': {
      const parts = args.flatMap(flat);
      const e = parts.find(isError);
      return e ?? parts.map(text).join('');
    }
    case 'LEN':
    case 'UPPER':
    case 'LOWER': {
      const v = flat(args[0] ?? null)[0] ?? null;
      if (isError(v)) return v;
      const s = text(v);
      return name === 'LEN' ? s.length : name === 'UPPER' ? s.toUpperCase() : s.toLowerCase();
    }
    default:
      return err('NAME', `Unknown function: '${name.toLowerCase()}'.`);
  }
}
