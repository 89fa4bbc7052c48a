/**
 * Enum values each API takes.
 *
 * Gemini's Schema takes `enum` as a list of strings (`@google/genai`'s `Schema.enum` is `string[]`; the API's
 * `Schema.enum` is a repeated string, so a number, boolean or null in it is refused with 400 INVALID_ARGUMENT:
 * https://ai.google.dev/api/caching#Schema). The tools of today only have string enums; these shapes are what a spec
 * may also write (generate time accepts them), so the Gemini format must still emit a declaration Gemini takes.
 *
 * OpenAI strict mode refuses an enum value its schema's type does not admit (`Invalid schema for function ...: enum
 * value None does not validate against {'type': 'string'}`), so a nullable enum (`type: [string, null]` with null
 * among its values) is written as the string enum beside a null branch, never with null inside the string enum.
 */
import type { Schema } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { anthropicTool, geminiFunctionDeclaration, openAiStrictTool, type ToolSurface } from '../../runtime/agent/formats/index.js';

const base = tools.find((t) => t.name === 'calendar_list_events')!;
function tool(properties: Record<string, unknown>): ToolSurface {
  return { ...base, versionParameters: [], ruleMessages: [], inputSchema: { type: 'object', properties } };
}
/** Every enum in a Gemini schema, with its pointer. */
function enums(schema: Schema, at = ''): Array<[string, Schema]> {
  const here: Array<[string, Schema]> = schema.enum !== undefined ? [[at, schema]] : [];
  const nested = Object.entries(schema.properties ?? {}).flatMap(([k, s]) => enums(s, `${at}/${k}`));
  return [...here, ...nested, ...(schema.items ? enums(schema.items, `${at}/items`) : []), ...(schema.anyOf ?? []).flatMap((s, i) => enums(s, `${at}/anyOf/${i}`))];
}

describe('gemini: enum values are strings', () => {
  const surface = tool({
    page_size: { type: 'integer', enum: [10, 25, 50], description: 'Results per page.' },
    version: { const: 2 },
    confirm: { const: true },
    color: { type: ['string', 'null'], enum: ['red', 'blue', null] },
    kind: { enum: ['a', 'b'] },
  });
  const parameters = geminiFunctionDeclaration(surface).parameters as unknown as Schema & { properties: Record<string, Schema> };

  it('every enum Gemini is sent is a STRING schema listing strings', () => {
    for (const [at, s] of enums(parameters)) {
      expect(s.type, at).toBe('STRING');
      expect(s.enum!.every((v) => typeof v === 'string'), `${at}: ${JSON.stringify(s.enum)}`).toBe(true);
    }
  });

  it('an enum or const of numbers or booleans keeps its type and is written in the description', () => {
    expect(parameters.properties.page_size).toEqual({ description: 'Results per page. One of 10, 25, 50.', type: 'INTEGER' });
    expect(parameters.properties.version).toEqual({ description: 'Must be 2.', type: 'INTEGER' });
    expect(parameters.properties.confirm).toEqual({ description: 'Must be true.', type: 'BOOLEAN' });
  });

  it('a null among string values is nullable, and an enum without a type is a STRING one', () => {
    expect(parameters.properties.color).toEqual({ type: 'STRING', enum: ['red', 'blue'], nullable: true });
    expect(parameters.properties.kind).toEqual({ type: 'STRING', enum: ['a', 'b'] });
  });

  it('an enum mixing value types with no type is one typed branch per value type, the strings a STRING enum', () => {
    const mixed = tool({
      mode: { enum: ['auto', 0, 1], description: 'Mode.' },
      scale: { enum: ['fit', 1, 2.5, null] },
    });
    const props = (geminiFunctionDeclaration(mixed).parameters as unknown as { properties: Record<string, Schema> }).properties;
    expect(props.mode).toEqual({ description: 'Mode.', anyOf: [{ type: 'STRING', enum: ['auto'] }, { description: 'One of 0, 1.', type: 'INTEGER' }] });
    // Integers among numbers share the NUMBER branch; a null makes the union nullable.
    expect(props.scale).toEqual({ anyOf: [{ type: 'STRING', enum: ['fit'] }, { description: 'One of 1, 2.5.', type: 'NUMBER' }], nullable: true });
    // Every schema Gemini is sent under these properties has a type or is a union of typed branches.
    for (const s of Object.values(props)) for (const b of s.anyOf!) expect(b.type).toBeDefined();
  });

  it('the JSON Schema formats keep these enums as they are', () => {
    const strict = openAiStrictTool(surface).function.parameters.properties as Record<string, unknown>;
    expect(strict.page_size).toEqual({ description: 'Results per page.', anyOf: [{ type: 'integer', enum: [10, 25, 50] }, { type: 'null' }] });
    expect((anthropicTool(surface).input_schema.properties as Record<string, unknown>).confirm).toEqual({ type: 'boolean', const: true });
  });
});

describe('openai-strict and anthropic: no enum lists a value its type does not admit', () => {
  const surface = tool({
    color: { type: ['string', 'null'], enum: ['red', 'blue', null], description: 'A color, or null for none.' },
    size: { type: 'string', enum: ['s', 'm'] },
  });
  const admits = (type: unknown, v: unknown): boolean =>
    type === undefined || (Array.isArray(type) ? type : [type]).some((t) => (t === 'null' ? v === null : t === 'integer' ? Number.isInteger(v) : typeof v === t));
  function* typedEnums(s: Record<string, any>): Generator<Record<string, any>> {
    if (Array.isArray(s.enum)) yield s;
    for (const sub of Object.values(s.properties ?? {})) yield* typedEnums(sub as Record<string, any>);
    for (const b of s.anyOf ?? []) yield* typedEnums(b);
    if (s.items) yield* typedEnums(s.items);
  }

  it.each([
    ['openai-strict', openAiStrictTool(surface).function.parameters],
    ['anthropic', anthropicTool(surface).input_schema],
  ] as const)('%s', (_format, schema) => {
    for (const s of typedEnums(schema)) for (const v of s.enum) expect(admits(s.type, v), `${JSON.stringify(v)} in ${JSON.stringify(s)}`).toBe(true);
    // null is still admitted, as the null branch.
    expect((schema.properties as Record<string, unknown>).color).toEqual({
      description: 'A color, or null for none.',
      anyOf: [{ type: 'string', enum: ['red', 'blue'] }, { type: 'null' }],
    });
  });
});
