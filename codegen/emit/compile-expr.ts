import type { JsonSchema } from '../../runtime/types.js';
import { FORMAT_NORMALIZERS } from '../../runtime/validation/formats.js';
import type { Expr, HelperSignature, ParamModel } from '../model/types.js';
import { access, propKey } from './ts-text.js';

/** A compiled expression: TypeScript code, whether its value may be absent, whether it is cheap and pure to repeat. */
export interface Compiled {
  code: string;
  maybeAbsent: boolean;
  simple: boolean;
}

/**
 * Compiles mapping expressions of one request builder into straight-line TypeScript: statements are appended to
 * `lines` (temporaries, conditional object members) and each expression's value is returned as code. Absent values
 * are `undefined` and dropped as docs/spec-format.md says; helpers whose parameter does not accept undefined are
 * not called when that argument is absent; a parameter of a normalized format (`workspace-id`, `spreadsheet-id`, ...:
 * FORMAT_NORMALIZERS) is read through its helper wherever it is read.
 */
export class ExprCompiler {
  readonly lines: string[] = [];
  private counter = 0;

  constructor(
    private readonly params: ReadonlyMap<string, ParamModel>,
    private readonly helpers: Readonly<Record<string, HelperSignature>>,
  ) {}

  temp(prefix: string, code: string): string {
    const name = `${prefix}${++this.counter}`;
    this.lines.push(`const ${name} = ${code};`);
    return name;
  }

  /** The expression's value as a cheap, pure reference (hoisted to a const when needed). */
  ref(e: Expr): Compiled {
    const c = this.expr(e);
    return c.simple ? c : { code: this.temp('v', c.code), maybeAbsent: c.maybeAbsent, simple: true };
  }

  expr(e: Expr): Compiled {
    switch (e.kind) {
      case 'literal':
        return { code: JSON.stringify(e.value), maybeAbsent: false, simple: true };
      case 'param':
        return this.param(e.name);
      case 'array': {
        const items = e.items.map((i) => this.expr(i));
        const list = `[${items.map((i) => i.code).join(', ')}]`;
        return { code: items.some((i) => i.maybeAbsent) ? `${list}.filter((x) => x !== undefined)` : list, maybeAbsent: false, simple: false };
      }
      case 'object':
        return this.object(e.members);
      case 'call':
        return this.call(e.helper, e.args);
    }
  }

  private param(name: string, raw = false): Compiled {
    const p = this.params.get(name);
    const ref = access('input', name);
    const maybeAbsent = !p?.required;
    if (raw || !p || !needsNormalize(p.schema)) return { code: ref, maybeAbsent, simple: true };
    const helper = normalizer(p.schema);
    if (helper !== undefined) {
      return { code: this.temp('v', maybeAbsent ? `${ref} === undefined ? undefined : helpers.${helper}(${ref})` : `helpers.${helper}(${ref})`), maybeAbsent, simple: true };
    }
    // A local const narrows reliably where a property access on a union input type may not.
    const local = this.temp('p', ref);
    return { code: this.temp('v', maybeAbsent ? `${local} === undefined ? undefined : ${normalize(local, p.schema)}` : normalize(local, p.schema)), maybeAbsent, simple: true };
  }

  private call(helper: string, args: Expr[]): Compiled {
    const sig = this.helpers[helper];
    // A parameter's own normalizer: hand it the raw value rather than normalizing twice.
    const arg = (a: Expr): Compiled => {
      const p = a.kind === 'param' ? this.params.get(a.name) : undefined;
      return a.kind === 'param' && p !== undefined && normalizer(p.schema) === helper ? this.param(a.name, true) : this.expr(a);
    };
    const compiled = args.map((a, i) => {
      const c = arg(a);
      return sig && !sig.optionalParams[i] && !c.simple ? { code: this.temp('v', c.code), maybeAbsent: c.maybeAbsent, simple: true } : c;
    });
    const guards = compiled.filter((c, i) => c.maybeAbsent && sig && !sig.optionalParams[i]).map((c) => `${c.code} === undefined`);
    const call = `helpers.${helper}(${compiled.map((c) => c.code).join(', ')})`;
    return {
      code: guards.length ? `${guards.join(' || ')} ? undefined : ${call}` : call,
      maybeAbsent: guards.length > 0 || (sig?.mayReturnUndefined ?? true),
      simple: false,
    };
  }

  private object(members: Array<[string, Expr]>): Compiled {
    const compiled = members.map(([k, e]): [string, Compiled] => [k, this.expr(e)]);
    if (compiled.every(([, c]) => !c.maybeAbsent)) {
      return { code: `{ ${compiled.map(([k, c]) => `${propKey(k)}: ${c.code}`).join(', ')} }`, maybeAbsent: false, simple: false };
    }
    const allAbsent = compiled.every(([, c]) => c.maybeAbsent);
    const name = `o${++this.counter}`;
    this.lines.push(allAbsent ? `let ${name}: Record<string, unknown> | undefined;` : `const ${name}: Record<string, unknown> = {};`);
    for (const [k, c] of compiled) {
      const target = allAbsent ? `(${name} ??= {})` : name;
      if (!c.maybeAbsent) {
        this.lines.push(`${name}[${JSON.stringify(k)}] = ${c.code};`);
        continue;
      }
      const v = c.simple ? c.code : this.temp('v', c.code);
      this.lines.push(`if (${v} !== undefined) ${target}[${JSON.stringify(k)}] = ${v};`);
    }
    return { code: name, maybeAbsent: allAbsent, simple: true };
  }
}

/** The helper a value of this schema's format is read through, if any. */
function normalizer(schema: JsonSchema): string | undefined {
  return typeof schema.format === 'string' ? FORMAT_NORMALIZERS[schema.format] : undefined;
}

function needsNormalize(schema: JsonSchema): boolean {
  if (normalizer(schema) !== undefined) return true;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props && Object.values(props).some(needsNormalize)) return true;
  const items = schema.items as JsonSchema | undefined;
  return items !== undefined && typeof items === 'object' && needsNormalize(items);
}

/** Code for `code` with every string of a normalized format inside it read through its helper. `code` is pure. */
function normalize(code: string, schema: JsonSchema, depth = 0): string {
  const helper = normalizer(schema);
  if (helper !== undefined) return `helpers.${helper}(${code})`;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) {
    const required = new Set((schema.required ?? []) as string[]);
    const parts = Object.entries(props).filter(([, s]) => needsNormalize(s)).map(([k, s]) => {
      const inner = access(code, k);
      return required.has(k)
        ? `${propKey(k)}: ${normalize(inner, s, depth + 1)}`
        : `...(${inner} === undefined ? {} : { ${propKey(k)}: ${normalize(inner, s, depth + 1)} })`;
    });
    return `{ ...${code}, ${parts.join(', ')} }`;
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && needsNormalize(items)) {
    const x = `x${depth}`;
    return `${code}.map((${x}) => ${normalize(x, items, depth + 1)})`;
  }
  return code;
}
