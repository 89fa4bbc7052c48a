/**
 * Table-driven checks of the generated tools against the upstream APIs (their official references): a valid input
 * builds exactly the request the real API expects, and an input breaking a rule is refused by `validate` with a
 * violation at the right JSON pointer whose message names the parameter — so no request is ever built for it.
 */
import { expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import type { ToolDefinition, UpstreamRequest, Violation } from '../../runtime/types.js';

/** A valid input and the exact upstream request it must build (matchers such as `expect.any(String)` allowed). */
export interface BuildCase {
  name: string;
  tool: string;
  /** Where the example is written (spec file, line, index and name), named by a failure. */
  at: string;
  input: Record<string, unknown>;
  want: UpstreamRequest;
}

/** An input that must be refused: a violation at `pointer` whose message contains `names`. */
export interface RefuseCase {
  name: string;
  tool: string;
  /** Where the example is written (spec file, line, index and name), named by a failure. */
  at: string;
  input: Record<string, unknown>;
  pointer: string;
  names: string;
}

const byName = new Map<string, ToolDefinition>((tools as readonly ToolDefinition[]).map((t) => [t.name, t]));

export function tool(name: string): ToolDefinition {
  const t = byName.get(name);
  if (!t) throw new Error(`no generated tool named ${name}`);
  return t;
}

/** Validates then builds, as the executor does; fails the test with the violations when the input is refused. */
export function build(name: string, input: unknown, at?: string): UpstreamRequest {
  const t = tool(name);
  const result = t.validate(input);
  if (!result.ok) throw new Error(`${at === undefined ? '' : `${at}: `}${name} refused a valid input: ${JSON.stringify(result.violations)}`);
  return t.buildRequest(result.value);
}

export function violations(name: string, input: unknown): Violation[] {
  const result = tool(name).validate(input);
  return result.ok ? [] : result.violations;
}

/** `{ $any: string }` in an example's request stands for any string (a generated id, such as a request id). */
function withMatchers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withMatchers);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1 && entries[0]![0] === '$any' && entries[0]![1] === 'string') return expect.any(String);
    return Object.fromEntries(entries.map(([k, v]) => [k, withMatchers(v)]));
  }
  return value;
}

export function runBuildCases(cases: readonly BuildCase[]): void {
  it.each(cases.map((c) => [`${c.tool}: ${c.name}`, c] as const))('%s', (_label, c) => {
    const got = build(c.tool, c.input, c.at);
    expect(got, `${c.at}: the request the input builds (received) is not the example's request (expected)`).toEqual(withMatchers(c.want));
    // Query values always go out as strings (arrays of strings for repeated parameters).
    for (const v of Object.values(got.query)) expect(typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))).toBe(true);
  });
}

export function runRefuseCases(cases: readonly RefuseCase[]): void {
  it.each(cases.map((c) => [`${c.tool}: ${c.name}`, c] as const))('%s', (_label, c) => {
    const result = tool(c.tool).validate(c.input);
    expect(result.ok, `${c.at}: the input must be refused`).toBe(false);
    const found = result.ok ? [] : result.violations;
    const hit = found.find((v) => v.pointer === c.pointer && v.message.includes(c.names));
    expect(hit, `${c.at}: expected a violation at '${c.pointer}' naming '${c.names}', got ${JSON.stringify(found)}`).toBeDefined();
  });
}
