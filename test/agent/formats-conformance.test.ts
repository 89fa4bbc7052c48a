/**
 * Every tool in every format, checked twice: against each API's published schema rules (written out below, with the
 * pages they come from), and against the providers' official SDKs' own code, run locally: openai's
 * `toStrictJsonSchema` (what `zodFunction` / `zodResponsesFunction` send), `@openai/agents-core`'s `tool()` in
 * strict and non-strict mode, `@anthropic-ai/sdk`'s `transformJSONSchema` (its strict-mode transform), `@google/genai`
 * building a real `generateContent` request (its `processJsonSchema` runs on every declaration), the MCP SDK's
 * `ToolSchema` / `ListToolsResultSchema`, and each SDK's request builder sending to a local server that records the
 * body. A transform that changes our schema means the API would have been sent something else, so "accepted" means
 * the SDK code ran without error and left the definition as it is.
 *
 * The summary (accepted/total per format) is printed at the end.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { GoogleGenAI, Type } from '@google/genai';
import { ListToolsResultSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { tool as agentsTool } from '@openai/agents-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import {
  anthropicTool,
  formatTool,
  geminiFunctionDeclaration,
  isFreeForm,
  isOpenMap,
  MAX_DESCRIPTION_LENGTH,
  mcpTool,
  openAiResponsesTool,
  openAiStrictTool,
  openAiTool,
  openMapValues,
  pairValueIsJson,
  TOOL_FORMATS,
  type ToolFormat,
} from '../../runtime/agent/formats/index.js';
import { decodeModelInput } from '../../runtime/agent/model-input.js';
import type { JsonSchema, ToolDefinition } from '../../runtime/types.js';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const VERSION_PARAMETERS = ['schema_version', 'tool_version', 'workspace_version'];

/** Every failure, per format and tool: a tool is accepted in a format when it has none. */
const failures = new Map<ToolFormat, Map<string, string[]>>(TOOL_FORMATS.map((f) => [f, new Map()]));
function fail(format: ToolFormat, tool: string, why: string): void {
  const byTool = failures.get(format)!;
  byTool.set(tool, [...(byTool.get(tool) ?? []), why]);
}
function check(format: ToolFormat, tool: string, what: string, run: () => void): void {
  try {
    run();
  } catch (e) {
    fail(format, tool, `${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
function same(a: unknown, b: unknown): void {
  expect(a).toStrictEqual(b);
}

/** Every subschema with its JSON pointer (properties, items, anyOf/oneOf/allOf branches, additionalProperties). */
function* walk(schema: Obj, pointer = ''): Generator<[Obj, string]> {
  yield [schema, pointer];
  for (const [k, v] of Object.entries(isObj(schema.properties) ? schema.properties : {})) if (isObj(v)) yield* walk(v, `${pointer}/properties/${k}`);
  if (isObj(schema.items)) yield* walk(schema.items, `${pointer}/items`);
  if (isObj(schema.additionalProperties)) yield* walk(schema.additionalProperties, `${pointer}/additionalProperties`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) for (const [i, b] of (schema[key] as Obj[]).entries()) yield* walk(b, `${pointer}/${key}/${i}`);
}

function depth(schema: Obj): number {
  const children = [...Object.values(isObj(schema.properties) ? schema.properties : {}), ...(isObj(schema.items) ? [schema.items] : []), ...((schema.anyOf as Obj[] | undefined) ?? [])];
  return (isObj(schema.properties) ? 1 : 0) + Math.max(0, ...children.filter(isObj).map(depth));
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function commonModelRules(format: ToolFormat, t: ToolDefinition, name: string, description: string): void {
  check(format, t.name, 'name', () => expect(name).toMatch(NAME));
  check(format, t.name, 'description length', () => expect(description.length).toBeLessThan(MAX_DESCRIPTION_LENGTH));
  // Notes on how a spec decision was made belong in the docs (the spec's notes:), not in what a model reads.
  check(format, t.name, 'description speaks to the model', () => expect(description).not.toMatch(/Decision|specification/i));
}

// ---------------------------------------------------------------------------------------------------------------
// Published rules.
// OpenAI Structured Outputs, "Supported schemas" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
// types string/number/integer/boolean/object/array/null, enum, const, anyOf (not at the root); string `pattern`,
// `format` one of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; number `multipleOf`,
// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`; array `minItems`, `maxItems`; every field
// required; `additionalProperties: false` on every object; at most 5000 properties and 10 levels of nesting, 1000
// enum values in all, and 120,000 characters of property names, enum values and const values in all.
const OPENAI_STRICT_KEYWORDS = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems', '$defs', '$ref']);
const OPENAI_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

function openAiStrictRules(format: ToolFormat, t: ToolDefinition, parameters: Obj): void {
  check(format, t.name, 'root', () => {
    expect(parameters.type).toBe('object');
    expect(parameters.anyOf).toBeUndefined();
  });
  let properties = 0;
  let enumValues = 0;
  let names = 0;
  for (const [s, at] of walk(parameters)) {
    names += Object.keys(isObj(s.properties) ? s.properties : {}).join('').length;
    if (Array.isArray(s.enum)) enumValues += s.enum.length;
    for (const v of [...(Array.isArray(s.enum) ? s.enum : []), ...('const' in s ? [s.const] : [])]) if (typeof v === 'string') names += v.length;
    check(format, t.name, `keywords at ${at || '/'}`, () => expect(Object.keys(s).filter((k) => !OPENAI_STRICT_KEYWORDS.has(k))).toEqual([]));
    if (s.format !== undefined) check(format, t.name, `format at ${at}`, () => expect(OPENAI_FORMATS.has(s.format)).toBe(true));
    // Every schema has a type, a union's branches each their own: the API refuses a request with one that has neither,
    // a bare `{"const": "emoji"}` too ("In context=('properties', 'type'), schema must have a 'type' key").
    check(format, t.name, `type at ${at || '/'}`, () => expect(s.type !== undefined || Array.isArray(s.anyOf) || s.$ref !== undefined, JSON.stringify(s)).toBe(true));
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (isObj(s.properties) || types.includes('object')) {
      check(format, t.name, `object at ${at || '/'}`, () => {
        expect(s.additionalProperties).toBe(false);
        expect([...(s.required ?? [])].sort()).toEqual(Object.keys(s.properties ?? {}).sort());
      });
      properties += Object.keys(s.properties ?? {}).length;
    }
    if (types.includes('array')) check(format, t.name, `array at ${at}`, () => expect(isObj(s.items)).toBe(true));
  }
  check(format, t.name, 'size', () => {
    expect(properties).toBeLessThanOrEqual(5000);
    expect(depth(parameters)).toBeLessThanOrEqual(10);
    expect(enumValues).toBeLessThanOrEqual(1000);
    expect(names).toBeLessThanOrEqual(120_000);
  });
}

// Anthropic structured outputs, "JSON Schema limitations"
// (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations): basic types,
// enum (primitives), const, anyOf, allOf, local $ref; `additionalProperties: false` on every object; string formats
// date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid; `minItems` 0 or 1 only; no numeric or
// string-length constraints. Tool use: `input_schema` is an object schema, no oneOf/anyOf/allOf at its root
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
const ANTHROPIC_KEYWORDS = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', 'format', 'minItems', '$defs', '$ref']);
const ANTHROPIC_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

function anthropicRules(t: ToolDefinition, schema: Obj): void {
  check('anthropic', t.name, 'root', () => {
    expect(schema.type).toBe('object');
    for (const k of ['oneOf', 'anyOf', 'allOf']) expect(schema[k]).toBeUndefined();
  });
  for (const [s, at] of walk(schema)) {
    check('anthropic', t.name, `keywords at ${at || '/'}`, () => expect(Object.keys(s).filter((k) => !ANTHROPIC_KEYWORDS.has(k))).toEqual([]));
    if (s.format !== undefined) check('anthropic', t.name, `format at ${at}`, () => expect(ANTHROPIC_FORMATS.has(s.format)).toBe(true));
    if (s.minItems !== undefined) check('anthropic', t.name, `minItems at ${at}`, () => expect([0, 1]).toContain(s.minItems));
    if (isObj(s.properties) || s.type === 'object') check('anthropic', t.name, `object at ${at || '/'}`, () => expect(s.additionalProperties).toBe(false));
    if (Array.isArray(s.enum)) check('anthropic', t.name, `enum at ${at}`, () => expect(s.enum.every((v: unknown) => v === null || typeof v !== 'object')).toBe(true));
  }
}

// Gemini function declarations (https://ai.google.dev/gemini-api/docs/function-calling) take `parameters` as the
// API's Schema object (https://ai.google.dev/api/caching#Schema): the fields below, `type` from the Type enum,
// `enum` on STRING only, `format` for STRING only `enum` or `date-time`; no `examples`, `const`, `$schema`,
// `additionalProperties`, `oneOf`; every ARRAY with `items`; every OBJECT with at least one property. Function
// names: letters, digits, underscores, dots, dashes, at most 64, starting with a letter or underscore.
const GEMINI_FIELDS = new Set(['anyOf', 'default', 'description', 'enum', 'example', 'format', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength', 'minProperties', 'minimum', 'nullable', 'pattern', 'properties', 'propertyOrdering', 'required', 'title', 'type']);
const GEMINI_TYPES = new Set<string>(Object.values(Type).filter((v) => v !== Type.TYPE_UNSPECIFIED));

function geminiRules(t: ToolDefinition, decl: Obj): void {
  check('gemini', t.name, 'name', () => expect(decl.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/));
  if (decl.parameters === undefined) {
    // Left out only for a tool that takes no input: a declaration that lost its parameters would pass every rule below.
    check('gemini', t.name, 'parameters left out only without inputs', () => expect(Object.keys(mcpTool(t).inputSchema.properties ?? {})).toEqual([]));
    return;
  }
  check('gemini', t.name, 'root', () => expect(decl.parameters.type).toBe(Type.OBJECT));
  for (const [s, at] of walk(decl.parameters)) {
    check('gemini', t.name, `fields at ${at || '/'}`, () => expect(Object.keys(s).filter((k) => !GEMINI_FIELDS.has(k))).toEqual([]));
    check('gemini', t.name, `type at ${at || '/'}`, () => expect(s.anyOf !== undefined || GEMINI_TYPES.has(s.type)).toBe(true));
    if (s.type === Type.ARRAY) check('gemini', t.name, `array at ${at}`, () => expect(isObj(s.items)).toBe(true));
    if (s.type === Type.OBJECT) {
      check('gemini', t.name, `object at ${at || '/'}`, () => {
        expect(Object.keys(s.properties ?? {}).length).toBeGreaterThan(0);
        for (const r of s.required ?? []) expect(Object.keys(s.properties)).toContain(r);
      });
    }
    if (s.enum !== undefined) check('gemini', t.name, `enum at ${at}`, () => {
      expect(s.type).toBe(Type.STRING);
      expect(s.enum.every((v: unknown) => typeof v === 'string')).toBe(true);
    });
    if (s.format !== undefined) check('gemini', t.name, `format at ${at}`, () => expect(['enum', 'date-time']).toContain(s.format));
  }
}

/** Anthropic's transform writes `enum`/`const` without a `type`; the API takes both, so compare without it. */
function withoutTypeBesideLiterals(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTypeBesideLiterals);
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && ('enum' in schema || 'const' in schema)) continue;
    out[k] = k === 'enum' || k === 'const' ? v : withoutTypeBesideLiterals(v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// A local server standing in for the three APIs: it records each request body and answers with an error, which
// the SDKs throw after having built and sent the request (what is being checked).
let server: Server;
let baseUrl: string;
const bodies: Array<{ url: string; body: Obj }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      bodies.push({ url: req.url ?? '', body: JSON.parse(text || '{}') });
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'recorded', type: 'invalid_request_error', code: 400, status: 'INVALID_ARGUMENT' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  const lines = TOOL_FORMATS.map((f) => `${f}: ${tools.length - failures.get(f)!.size}/${tools.length}`);
  console.log(`accepted per format (tools without a failed check): ${lines.join(', ')}`);
});

async function sent(send: () => Promise<unknown>): Promise<Obj> {
  const before = bodies.length;
  await send().catch(() => undefined);
  expect(bodies.length).toBe(before + 1);
  return bodies.at(-1)!.body;
}

function report(format: ToolFormat): void {
  const byTool = failures.get(format)!;
  expect([...byTool.entries()].map(([name, why]) => `${name}: ${why.join('; ')}`)).toEqual([]);
}

describe('formats conformance', () => {
  it('openai: non-strict function tools; agents-core tool({strict: false}) and the SDK send them unchanged', async () => {
    const defs = tools.map(openAiTool);
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('openai', t, d.function.name, d.function.description);
      check('openai', t.name, 'root', () => {
        expect(d.function.parameters.type).toBe('object');
        for (const k of ['oneOf', 'anyOf', 'allOf', 'enum', 'not']) expect(d.function.parameters[k]).toBeUndefined();
      });
      check('openai', t.name, 'agents-core tool()', () => {
        const made = agentsTool({ name: d.function.name, description: d.function.description, parameters: d.function.parameters as any, strict: false, execute: () => 'ok' });
        same(made.parameters, d.function.parameters);
        expect(made.strict).toBe(false);
      });
    }
    const client = new OpenAI({ apiKey: 'test', baseURL: baseUrl, maxRetries: 0 });
    const body = await sent(() => client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: defs as any }));
    for (const [i, t] of tools.entries()) check('openai', t.name, 'request body', () => same(body.tools[i], defs[i]));
    report('openai');
  });

  it('openai-strict: Structured Outputs rules; openai toStrictJsonSchema and agents-core tool({strict: true}) leave it as it is', async () => {
    const defs = tools.map(openAiStrictTool);
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('openai-strict', t, d.function.name, d.function.description);
      check('openai-strict', t.name, 'strict flag', () => expect(d.function.strict).toBe(true));
      openAiStrictRules('openai-strict', t, d.function.parameters);
      check('openai-strict', t.name, 'openai toStrictJsonSchema', () => same(toStrictJsonSchema(d.function.parameters as any), d.function.parameters));
      check('openai-strict', t.name, 'agents-core tool()', () => {
        const made = agentsTool({ name: d.function.name, description: d.function.description, parameters: d.function.parameters as any, strict: true, execute: () => 'ok' });
        same(made.parameters, d.function.parameters);
        expect(made.strict).toBe(true);
      });
    }
    const client = new OpenAI({ apiKey: 'test', baseURL: baseUrl, maxRetries: 0 });
    const body = await sent(() => client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: defs as any }));
    for (const [i, t] of tools.entries()) check('openai-strict', t.name, 'request body', () => same(body.tools[i], defs[i]));
    report('openai-strict');
  });

  it('openai-responses: the flat strict shape; the Responses API request carries it unchanged', async () => {
    const defs = tools.map(openAiResponsesTool);
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('openai-responses', t, d.name, d.description);
      check('openai-responses', t.name, 'shape', () => expect(Object.keys(d).sort()).toEqual(['description', 'name', 'parameters', 'strict', 'type']));
      openAiStrictRules('openai-responses', t, d.parameters);
      check('openai-responses', t.name, 'openai toStrictJsonSchema', () => same(toStrictJsonSchema(d.parameters as any), d.parameters));
      check('openai-responses', t.name, 'agents-core tool()', () => {
        const made = agentsTool({ name: d.name, description: d.description, parameters: d.parameters as any, strict: true, execute: () => 'ok' });
        same({ type: made.type, name: made.name, description: made.description, parameters: made.parameters, strict: made.strict }, d);
      });
    }
    const client = new OpenAI({ apiKey: 'test', baseURL: baseUrl, maxRetries: 0 });
    const body = await sent(() => client.responses.create({ model: 'gpt-test', input: 'hi', tools: defs as any }));
    for (const [i, t] of tools.entries()) check('openai-responses', t.name, 'request body', () => same(body.tools[i], defs[i]));
    report('openai-responses');
  });

  it('anthropic: strict tool use subset; the SDK transform adds nothing, and the request (also with strict: true) carries it unchanged', async () => {
    const defs = tools.map(anthropicTool);
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('anthropic', t, d.name, d.description);
      anthropicRules(t, d.input_schema);
      check('anthropic', t.name, 'transformJSONSchema', () => same(withoutTypeBesideLiterals(transformJSONSchema(d.input_schema)), withoutTypeBesideLiterals(d.input_schema)));
    }
    const client = new Anthropic({ apiKey: 'test', baseURL: baseUrl, maxRetries: 0 });
    const body = await sent(() => client.messages.create({ model: 'claude-test', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools: defs as any }));
    for (const [i, t] of tools.entries()) check('anthropic', t.name, 'request body', () => same(body.tools[i], defs[i]));
    const strict = defs.map((d) => ({ ...d, strict: true }));
    const strictBody = await sent(() => client.messages.create({ model: 'claude-test', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools: strict as any }));
    for (const [i, t] of tools.entries()) check('anthropic', t.name, 'request body, strict', () => same(strictBody.tools[i], strict[i]));
    report('anthropic');
  });

  it("gemini: Gemini's Schema subset; @google/genai builds generateContent with every declaration unchanged", async () => {
    const defs = tools.map(geminiFunctionDeclaration);
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('gemini', t, d.name, d.description);
      geminiRules(t, d as Obj);
      check('gemini', t.name, 'no JSON Schema-only keyword', () => {
        const text = JSON.stringify(d);
        for (const k of ['"examples"', '"const"', '"$schema"', '"additionalProperties"', '"oneOf"']) expect(text).not.toContain(k);
      });
    }
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl } });
    const declarations = structuredClone(defs);
    const body = await sent(() => ai.models.generateContent({ model: 'gemini-test', contents: 'hi', config: { tools: [{ functionDeclarations: declarations as any }] } }));
    for (const [i, t] of tools.entries()) check('gemini', t.name, 'request body', () => same(body.tools[0].functionDeclarations[i], defs[i]));
    report('gemini');
  });

  it("mcp: the MCP SDK's ToolSchema and ListToolsResultSchema parse every tool as it is", () => {
    const defs = tools.map(mcpTool);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [i, t] of tools.entries()) {
      const d = defs[i]!;
      commonModelRules('mcp', t, d.name, d.description);
      check('mcp', t.name, 'ToolSchema', () => same(ToolSchema.strict().parse(d), d));
      check('mcp', t.name, 'schemas compile', () => {
        ajv.compile(d.inputSchema);
        ajv.compile(d.outputSchema);
      });
    }
    check('mcp', '(all)', 'ListToolsResultSchema', () => same(ListToolsResultSchema.parse({ tools: defs }).tools, defs));
    report('mcp');
  });

  it('catalog: keeps the full input schema, version parameters included', () => {
    for (const t of tools) {
      const entry = formatTool(t, 'catalog') as Obj;
      check('catalog', t.name, 'input schema', () => same(entry.input_schema, t.inputSchema));
    }
    report('catalog');
  });

  it('the model formats leave out the version parameters; the catalog keeps them', () => {
    for (const t of tools) {
      for (const format of TOOL_FORMATS.filter((f) => f !== 'catalog')) {
        const text = JSON.stringify(formatTool(t, format));
        for (const p of VERSION_PARAMETERS) expect(text, `${t.name} ${format}`).not.toContain(`"${p}"`);
      }
    }
    expect(Object.keys((formatTool(tools.find((t) => t.name === 'workspace_page_create')!, 'catalog') as Obj).input_schema.properties)).toEqual(
      expect.arrayContaining(VERSION_PARAMETERS),
    );
  });
});

describe('the checks bite', () => {
  // Negative control: the same checks, given the model-facing JSON Schema before any dialect is applied (what the
  // openai and mcp formats carry), refuse most tools; so a pass above is the dialects' doing, not a lenient check.
  it('the plain model schema fails the strict, Anthropic and Gemini checks for most tools', () => {
    const count = (run: (t: ToolDefinition, schema: Obj) => void): number =>
      tools.filter((t) => {
        try {
          run(t, openAiTool(t).function.parameters);
          return true;
        } catch {
          return false;
        }
      }).length;
    const strictOk = count((_t, s) => same(toStrictJsonSchema(s as any), s));
    const anthropicOk = count((_t, s) => same(withoutTypeBesideLiterals(transformJSONSchema(s)), withoutTypeBesideLiterals(s)));
    const geminiOk = count((t, s) => {
      const before = failures.get('gemini')!.size;
      geminiRules({ ...t, name: `${t.name}#control` }, { name: t.name, parameters: s });
      const after = failures.get('gemini')!;
      const failed = after.has(`${t.name}#control`);
      after.delete(`${t.name}#control`);
      expect(after.size).toBe(before);
      if (failed) throw new Error('refused');
    });
    console.log(`plain model schema accepted: openai strict transform ${strictOk}/${tools.length}, anthropic transform ${anthropicOk}/${tools.length}, gemini rules ${geminiOk}/${tools.length}`);
    for (const n of [strictOk, anthropicOk, geminiOk]) expect(n).toBeLessThan(tools.length / 2);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// What a strict model sends (every optional property null, open maps as pairs, free-form values as JSON text) is
// accepted by the strict schema and reads back, in the executor's decoder, to the input it stands for.

/**
 * `input` written the way the strict formats describe it, following the full input schema; `hidden` are the root
 * properties models are not shown (version and computed parameters), which a strict model therefore never sends.
 */
function toModelSide(schema: JsonSchema, value: unknown, hidden: readonly string[] = []): unknown {
  if (isOpenMap(schema) && isObj(value)) {
    const json = pairValueIsJson(openMapValues(schema));
    return Object.entries(value).map(([name, v]) => ({ name, value: json ? JSON.stringify(v) : v === null ? null : String(v) }));
  }
  if (isFreeForm(schema) && isObj(value)) return JSON.stringify(value);
  if (Array.isArray(value) && isObj(schema.items)) return value.map((v) => toModelSide(schema.items as JsonSchema, v));
  const shape = isObj(schema.properties) ? schema : ((schema.oneOf ?? schema.anyOf) as Obj[] | undefined)?.find((b) => isObj(value) && (b.required ?? []).every((k: string) => k in value));
  if (!isObj(value) || !shape || !isObj(shape.properties)) return value;
  const out: Obj = {};
  for (const [k, sub] of Object.entries(shape.properties as Obj)) {
    if (hidden.includes(k)) continue;
    if (k in value) out[k] = toModelSide(sub, value[k]);
    else if (!(shape.required ?? []).includes(k)) out[k] = null;
  }
  return out;
}

/** `value` with the values of scalar open maps as strings, what the pair form carries. */
function stringifyMapScalars(schema: JsonSchema, value: unknown): unknown {
  if (isOpenMap(schema) && isObj(value) && !pairValueIsJson(openMapValues(schema))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? null : String(v)]));
  }
  if (Array.isArray(value) && isObj(schema.items)) return value.map((v) => stringifyMapScalars(schema.items as JsonSchema, v));
  const props = schema.properties;
  if (!isObj(value) || !isObj(props)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObj(props[k]) ? stringifyMapScalars(props[k], v) : v]));
}

/** An input made of each parameter's first example (rules across parameters aside), without computed ones. */
function exampleInput(t: ToolDefinition): Obj {
  const props = t.inputSchema.properties as Record<string, Obj>;
  return Object.fromEntries(
    Object.entries(props)
      .filter(([name, p]) => Array.isArray(p.examples) && p.readOnly !== true && !t.versionParameters.includes(name))
      .map(([name, p]) => [name, p.examples[0]]),
  );
}

describe('strict inputs read back', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  it.each(tools.map((t) => [t.name, t] as const))('%s: the example input, as a strict model sends it, validates and decodes back', (_name, t) => {
    const input = exampleInput(t);
    const hidden = Object.entries(t.inputSchema.properties as Record<string, Obj>).filter(([n, p]) => p.readOnly === true || t.versionParameters.includes(n)).map(([n]) => n);
    const modelSide = toModelSide(t.inputSchema, input, hidden) as Obj;
    const strictSchema = openAiStrictTool(t).function.parameters;
    const validate = ajv.compile(strictSchema);
    expect(validate(modelSide), JSON.stringify(validate.errors)).toBe(true);
    // Scalar map values travel as strings (HubSpot takes every property value as a string), so they read back as strings.
    expect(decodeModelInput(t.inputSchema, modelSide)).toStrictEqual(stringifyMapScalars(t.inputSchema, input));
  });
});
