import type { SpecError } from '../load/spec-error.js';
import type { ParameterSpec } from '../load/spec-types.js';
import type { SpecPath, SpecSource } from '../load/yaml-source.js';
import type { Expr } from './types.js';
import { unknownParameterHint } from './unknown-parameter.js';

export interface ExprContext {
  source: SpecSource;
  params: Readonly<Record<string, ParameterSpec>>;
  /** Helper name -> arity. */
  helpers: Readonly<Record<string, { arity: number }>>;
  errors: SpecError[];
}

/**
 * Compiles one mapping value (docs/spec-format.md, "The request mapping") into an {@link Expr}, reporting unknown
 * parameters, host-computed parameters, unknown helpers and wrong arity at their YAML position.
 */
export function parseExpr(value: unknown, path: SpecPath, ctx: ExprContext): Expr {
  const where = path.join('.');
  if (typeof value === 'string') {
    if (value.startsWith('$$')) return { kind: 'literal', value: value.slice(1) };
    if (value.startsWith('$')) {
      const name = value.slice(1);
      const param = Object.hasOwn(ctx.params, name) ? ctx.params[name] : undefined;
      if (!param) ctx.errors.push(ctx.source.error(path, `${where} names unknown parameter '${name}'${unknownParameterHint(name, ctx.params, "write $$ for a literal '$'")}`));
      else if (param.host_computed) ctx.errors.push(ctx.source.error(path, `${where} reads host-computed parameter '${name}'; compute it in the mapping instead`));
      return { kind: 'param', name };
    }
    return { kind: 'literal', value };
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', value };
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => parseExpr(v, [...path, i], ctx)) };
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (Object.hasOwn(obj, '$call')) return parseCall(obj, path, ctx);
    const members: Array<[string, Expr]> = [];
    for (const [key, v] of Object.entries(obj)) {
      if (key.startsWith('$') && !key.startsWith('$$')) {
        ctx.errors.push(ctx.source.error([...path, key], `unknown expression key '${key}' in ${where} (only $call and args; write $$ for a literal '$')`, 'key'));
        continue;
      }
      members.push([key.startsWith('$$') ? key.slice(1) : key, parseExpr(v, [...path, key], ctx)]);
    }
    return { kind: 'object', members };
  }
  ctx.errors.push(ctx.source.error(path, `${where} is not a valid expression`));
  return { kind: 'literal', value: null };
}

function parseCall(obj: Record<string, unknown>, path: SpecPath, ctx: ExprContext): Expr {
  const where = path.join('.');
  for (const key of Object.keys(obj)) {
    if (key !== '$call' && key !== 'args') ctx.errors.push(ctx.source.error([...path, key], `unknown key '${key}' in helper call ${where} (only $call and args)`, 'key'));
  }
  const helper = obj.$call;
  const rawArgs = obj.args ?? [];
  if (typeof helper !== 'string') {
    ctx.errors.push(ctx.source.error([...path, '$call'], `${where}.$call must be a helper name`));
    return { kind: 'literal', value: null };
  }
  if (!Array.isArray(rawArgs)) {
    ctx.errors.push(ctx.source.error([...path, 'args'], `${where}.args must be a list`));
    return { kind: 'literal', value: null };
  }
  const args = rawArgs.map((a, i) => parseExpr(a, [...path, 'args', i], ctx));
  const info = Object.hasOwn(ctx.helpers, helper) ? ctx.helpers[helper] : undefined;
  if (!info) {
    const known = Object.keys(ctx.helpers).sort().join(', ');
    ctx.errors.push(ctx.source.error([...path, '$call'], `unknown helper '${helper}' in ${where} (known: ${known})`));
  } else if (info.arity !== args.length) {
    ctx.errors.push(ctx.source.error([...path, 'args'], `helper '${helper}' takes ${info.arity} argument(s), ${where} passes ${args.length}`));
  }
  return { kind: 'call', helper, args };
}

/** Every parameter an expression reads. */
export function exprParams(expr: Expr, out: Set<string> = new Set()): Set<string> {
  switch (expr.kind) {
    case 'param':
      out.add(expr.name);
      break;
    case 'call':
      expr.args.forEach((a) => exprParams(a, out));
      break;
    case 'object':
      expr.members.forEach(([, e]) => exprParams(e, out));
      break;
    case 'array':
      expr.items.forEach((e) => exprParams(e, out));
      break;
    default:
      break;
  }
  return out;
}
