/**
 * The limits each model API puts on the tool definitions of one request, checked for every tool in every format, so
 * that a spec that breaks one (a long name, a deep schema, a large enum, one tool too many) fails CI with a message
 * naming the tool, the format, the limit and where it comes from, instead of a 400 from the API in production.
 *
 * The limits, as the APIs and their SDKs state them:
 * - OpenAI (Chat Completions and Responses): a function name matches ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools in a
 *   request (both in the openai SDK's own type docs: "a maximum length of 64", "A max of 128 functions are
 *   supported"). Strict mode (Structured Outputs, "Supported schemas": platform.openai.com/docs/guides/
 *   structured-outputs#supported-schemas): at most 5000 object properties and 10 levels of nesting, 1000 enum values
 *   in all, 15,000 characters of the values of one string enum of more than 250 values, and 120,000 characters of
 *   property names, enum values and const values in all. Nesting is counted as OpenAI's Java SDK counts it before
 *   sending (openai-java's JsonSchemaValidator: the root 0, one level per property, `items` and `anyOf` branch).
 * - Anthropic (Messages API, tool use): a tool name matches ^[a-zA-Z0-9_-]{1,64}$.
 * - Gemini (`FunctionDeclaration` in @google/genai's types and the Generative Language API reference): a name starts
 *   with a letter or an underscore, then letters, digits, underscores, dots, colons and dashes, at most 64 in all;
 *   a parameter name starts with a letter or an underscore, then letters, digits and underscores, at most 64.
 * - MCP: the tool name format of the MCP SDK's own `validateToolName` (1 to 128 of A-Z a-z 0-9 _ - .).
 * - Anthropic strict tool use (structured outputs, "Explicit limits": platform.claude.com/docs/en/build-with-claude/
 *   structured-outputs): the tools sent with `strict: true` in one request hold together at most 24 optional parameters
 *   ("each parameter not listed in `required` counts") and 16 parameters with `anyOf` or a type list, and are at most
 *   20. The service does not set `strict` (the whole catalog is far over), so these are checked as what
 *   docs/agents.md tells an application that sets it: every tool over a cap on its own is named there with its count.
 *   Counted at every depth, as the API compiles the nested objects into the same grammar.
 * - Every format: names unique within a request; a description under {@link MAX_DESCRIPTION_LENGTH} characters (the
 *   service's own bound, which every API takes whole); the whole catalog within OpenAI's 128 tools, the smallest
 *   per-request tool count any of them documents, so `toolDefinitions(format)` with no filter can be sent as it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { formatTool, MAX_DESCRIPTION_LENGTH, TOOL_FORMATS, type ToolFormat } from '../../runtime/agent/formats/index.js';
import type { ToolDefinition } from '../../runtime/types.js';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const MODEL_FORMATS = TOOL_FORMATS.filter((f): f is Exclude<ToolFormat, 'catalog'> => f !== 'catalog');
type ModelFormat = (typeof MODEL_FORMATS)[number];

const LIMITS = {
  openAiName: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropicName: /^[a-zA-Z0-9_-]{1,64}$/,
  geminiName: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  geminiParameterName: /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/,
  toolsPerRequest: 128,
  strictProperties: 5000,
  strictNesting: 10,
  strictEnumValues: 1000,
  strictLargeEnum: { values: 250, characters: 15_000 },
  strictStringCharacters: 120_000,
  anthropicStrict: { tools: 20, optional: 24, unions: 16 },
} as const;

interface Parts { name: string; description: string; schema: Obj | undefined }

function parts(d: Obj): Parts {
  const fn = isObj(d.function) ? d.function : d;
  return { name: String(fn.name), description: String(fn.description ?? ''), schema: fn.parameters ?? fn.input_schema ?? fn.inputSchema };
}

/** Every subschema with its JSON pointer. */
function* walk(schema: Obj, pointer = ''): Generator<[Obj, string]> {
  yield [schema, pointer];
  for (const [k, v] of Object.entries(isObj(schema.properties) ? schema.properties : {})) if (isObj(v)) yield* walk(v, `${pointer}/properties/${k}`);
  if (isObj(schema.items)) yield* walk(schema.items, `${pointer}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) for (const [i, b] of (schema[key] as Obj[]).entries()) yield* walk(b, `${pointer}/${key}/${i}`);
}

/**
 * The deepest subschema and its depth, counted as OpenAI's own SDK counts it (openai-java's JsonSchemaValidator): the
 * root is 0, and each property, `items` and `anyOf` branch is one level below the schema holding it.
 */
function nesting(s: Obj, depth = 0, pointer = ''): [number, string] {
  let best: [number, string] = [depth, pointer];
  const children: Array<[Obj, string]> = [
    ...Object.entries(isObj(s.properties) ? s.properties : {}).map(([k, v]) => [v, `${pointer}/properties/${k}`] as [Obj, string]),
    ...(isObj(s.items) ? [[s.items, `${pointer}/items`] as [Obj, string]] : []),
    ...((s.anyOf ?? []) as Obj[]).map((b, i) => [b, `${pointer}/anyOf/${i}`] as [Obj, string]),
  ];
  for (const [child, at] of children) {
    const found = nesting(child, depth + 1, at);
    if (found[0] > best[0]) best = found;
  }
  return best;
}

/** OpenAI strict mode's size counts of one schema. */
function strictSize(schema: Obj): { properties: number; enumValues: number; strings: number; largeEnums: Array<[string, number, number]> } {
  let properties = 0;
  let enumValues = 0;
  let strings = 0;
  const largeEnums: Array<[string, number, number]> = [];
  for (const [s, at] of walk(schema)) {
    const names = Object.keys(isObj(s.properties) ? s.properties : {});
    properties += names.length;
    strings += names.join('').length;
    const literals = [...(Array.isArray(s.enum) ? s.enum : []), ...('const' in s ? [s.const] : [])];
    strings += literals.filter((v): v is string => typeof v === 'string').join('').length;
    if (Array.isArray(s.enum)) {
      enumValues += s.enum.length;
      const chars = s.enum.filter((v: unknown): v is string => typeof v === 'string').join('').length;
      if (s.enum.length > LIMITS.strictLargeEnum.values) largeEnums.push([at || '/', s.enum.length, chars]);
    }
  }
  return { properties, enumValues, strings, largeEnums };
}

/**
 * Every limit a request carrying `defs` (one format's definitions, as the format emits them) breaks, one line each:
 * the tool, the format, what is over, the limit and whose it is.
 */
function limitProblems(format: ModelFormat, defs: readonly unknown[]): string[] {
  const out: string[] = [];
  const all = defs.map((d) => parts(d as Obj));
  if (all.length > LIMITS.toolsPerRequest) out.push(`(${format}) ${all.length} tools in one request: OpenAI takes at most ${LIMITS.toolsPerRequest} (choose with connector, read_only or identifier)`);
  const seen = new Set<string>();
  for (const { name } of all) {
    if (seen.has(name)) out.push(`${name} (${format}): the name is given twice in one request; every API refuses duplicate tool names`);
    seen.add(name);
  }
  let requestStrings = 0;
  for (const { name, description, schema } of all) {
    const at = `${name} (${format})`;
    if (description.length >= MAX_DESCRIPTION_LENGTH) out.push(`${at}: description is ${description.length} characters; it must stay under ${MAX_DESCRIPTION_LENGTH}`);
    if (format.startsWith('openai') && !LIMITS.openAiName.test(name)) out.push(`${at}: name must match ${LIMITS.openAiName} (OpenAI function names)`);
    if (format === 'anthropic' && !LIMITS.anthropicName.test(name)) out.push(`${at}: name must match ${LIMITS.anthropicName} (Anthropic tool names)`);
    if (format === 'gemini' && !LIMITS.geminiName.test(name)) out.push(`${at}: name must match ${LIMITS.geminiName} (Gemini function names)`);
    if (format === 'mcp') {
      const v = validateToolName(name);
      if (!v.isValid || v.warnings.length > 0) out.push(`${at}: the MCP SDK's validateToolName refuses the name: ${v.warnings.join('; ')}`);
    }
    if (!schema) continue;
    if (format === 'gemini') {
      for (const [s, p] of walk(schema)) {
        for (const key of Object.keys(isObj(s.properties) ? s.properties : {})) {
          if (!LIMITS.geminiParameterName.test(key)) out.push(`${at}: parameter name ${JSON.stringify(key)} at ${p || '/'} must match ${LIMITS.geminiParameterName} (Gemini parameter names)`);
        }
      }
    }
    if (format === 'openai-strict' || format === 'openai-responses') {
      const [depth, deepest] = nesting(schema);
      if (depth > LIMITS.strictNesting) out.push(`${at}: nesting depth ${depth} at ${deepest}; OpenAI strict mode allows ${LIMITS.strictNesting}`);
      const size = strictSize(schema);
      if (size.properties > LIMITS.strictProperties) out.push(`${at}: ${size.properties} object properties; OpenAI strict mode allows ${LIMITS.strictProperties}`);
      if (size.enumValues > LIMITS.strictEnumValues) out.push(`${at}: ${size.enumValues} enum values in all; OpenAI strict mode allows ${LIMITS.strictEnumValues}`);
      for (const [p, n, chars] of size.largeEnums) {
        if (chars > LIMITS.strictLargeEnum.characters) out.push(`${at}: the enum at ${p} has ${n} values of ${chars} characters; OpenAI strict mode allows ${LIMITS.strictLargeEnum.characters} characters in an enum of more than ${LIMITS.strictLargeEnum.values} values`);
      }
      if (size.strings > LIMITS.strictStringCharacters) out.push(`${at}: ${size.strings} characters of property names, enum and const values; OpenAI strict mode allows ${LIMITS.strictStringCharacters}`);
      requestStrings += size.strings;
    }
  }
  // Counted over the whole request too, in case the API sums them across its strict tools.
  if (requestStrings > LIMITS.strictStringCharacters) out.push(`(${format}) ${requestStrings} characters of property names, enum and const values across the request's tools; OpenAI strict mode allows ${LIMITS.strictStringCharacters} in a schema`);
  return out;
}

/** What one schema takes of Anthropic's strict budget: its optional parameters and its parameters with a union, at every depth. */
function anthropicStrictBudget(schema: Obj): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  for (const [s] of walk(schema)) {
    if (isObj(s.properties)) {
      const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
      optional += Object.keys(s.properties).filter((k) => !required.has(k)).length;
      for (const p of Object.values(s.properties) as Obj[]) if (Array.isArray(p.anyOf) || Array.isArray(p.type)) unions += 1;
    }
    if (isObj(s.items) && (Array.isArray(s.items.anyOf) || Array.isArray(s.items.type))) unions += 1;
  }
  return { optional, unions };
}

/** docs/agents.md's anthropic paragraph: the tools it names as over Anthropic's strict budget on its own, and every `tool` (N) count it gives. */
function docsStrictBudget(): { over: Record<string, number>; counts: Record<string, number> } {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'agents.md'), 'utf8');
  const paragraph = page.split('\n- `anthropic`:')[1]?.split('\n- `')[0] ?? '';
  const pairs = (text: string) => Object.fromEntries([...text.matchAll(/`(\w+)` \((\d+)[ )]/g)].map((m) => [m[1]!, Number(m[2])]));
  return { over: pairs(paragraph.split('Over it on its own:')[1]?.split('.')[0] ?? ''), counts: pairs(paragraph) };
}

describe('every tool in every format is within the limits of its model API', () => {
  it.each(MODEL_FORMATS)('%s: the whole catalog, as one request', (format) => {
    expect(limitProblems(format, tools.map((t) => formatTool(t, format)))).toEqual([]);
  });
});

describe("Anthropic's strict tool use budget, as docs/agents.md gives it", () => {
  it('names every tool over it on its own, with its count, and no other', () => {
    const over = Object.fromEntries(
      tools
        .map((t) => [t.name, anthropicStrictBudget(formatTool(t, 'anthropic').input_schema)] as const)
        .filter(([, b]) => b.optional > LIMITS.anthropicStrict.optional || b.unions > LIMITS.anthropicStrict.unions)
        .map(([name, b]) => [name, b.optional]),
    );
    const docs = docsStrictBudget();
    expect(docs.over).toEqual(over);
    // The tools it names as near the cap, with the counts it gives them.
    expect(docs.counts).toEqual(Object.fromEntries(Object.keys(docs.counts).map((name) => [name, anthropicStrictBudget(formatTool(tools.find((t) => t.name === name)!, 'anthropic').input_schema).optional])));
  });
});

describe('the limit checks bite', () => {
  const base = tools.find((t) => t.name === 'calendar_delete_event')!;
  const variant = (change: Partial<ToolDefinition>): ToolDefinition => ({ ...base, ...change });
  const deep = (levels: number): Obj => (levels === 0 ? { type: 'string' } : { type: 'object', properties: { a: deep(levels - 1) }, required: ['a'], additionalProperties: false });
  const problems = (format: ModelFormat, t: ToolDefinition) => limitProblems(format, [formatTool(t, format)]);

  it('a name too long, or with a character an API refuses', () => {
    const long = variant({ name: `calendar_${'x'.repeat(60)}` });
    for (const f of ['openai', 'openai-strict', 'openai-responses', 'anthropic', 'gemini'] as const) expect(problems(f, long).join('\n')).toContain('name must match');
    expect(problems('mcp', variant({ name: 'calendar delete' })).join('\n')).toContain('validateToolName');
    expect(problems('gemini', variant({ name: '1calendar' })).join('\n')).toContain('Gemini function names');
  });

  it('a description at the bound', () => {
    for (const f of MODEL_FORMATS) expect(problems(f, variant({ description: 'x'.repeat(MAX_DESCRIPTION_LENGTH) })).join('\n')).toContain(`must stay under ${MAX_DESCRIPTION_LENGTH}`);
  });

  it('too many tools, or one name twice', () => {
    const many = Array.from({ length: 129 }, (_, i) => formatTool(variant({ name: `tool_${i}` }), 'anthropic'));
    expect(limitProblems('anthropic', many)).toEqual(['(anthropic) 129 tools in one request: OpenAI takes at most 128 (choose with connector, read_only or identifier)']);
    expect(limitProblems('gemini', [formatTool(base, 'gemini'), formatTool(base, 'gemini')]).join('\n')).toContain('given twice');
  });

  it("Anthropic's strict budget counts optional and union parameters at every depth", () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] }, c: { type: 'array', items: { type: 'object', properties: { d: { type: ['string', 'null'] }, e: { type: 'integer' } }, required: ['e'] } } }, required: ['a'] };
    expect(anthropicStrictBudget(schema)).toEqual({ optional: 3, unions: 2 });
  });

  it('a Gemini parameter name with a dash', () => {
    const t = variant({ inputSchema: { type: 'object', properties: { 'event-id': { type: 'string' } }, additionalProperties: false } });
    expect(problems('gemini', t)).toEqual([`calendar_delete_event (gemini): parameter name "event-id" at / must match ${LIMITS.geminiParameterName} (Gemini parameter names)`]);
  });

  it('OpenAI strict mode: nesting, enum values, a large enum, property names', () => {
    expect(problems('openai-strict', variant({ inputSchema: { type: 'object', properties: { a: deep(9) }, additionalProperties: false } }))).toEqual([]);
    expect(problems('openai-strict', variant({ inputSchema: { type: 'object', properties: { a: deep(10) }, additionalProperties: false } }))).toEqual([
      `calendar_delete_event (openai-strict): nesting depth 11 at ${'/properties/a'.repeat(11)}; OpenAI strict mode allows 10`,
    ]);
    // A union's branch is one level more.
    const union = { anyOf: [deep(9), { type: 'string' }] };
    expect(problems('openai-strict', variant({ inputSchema: { type: 'object', properties: { a: union }, required: ['a'], additionalProperties: false } })).join('\n')).toContain('nesting depth 11 at /properties/a/anyOf/0/');
    const values = (n: number, width: number) => Array.from({ length: n }, (_, i) => String(i).padStart(width, 'v'));
    const enums = (e: string[]) => variant({ inputSchema: { type: 'object', properties: { a: { type: 'string', enum: e } }, required: ['a'], additionalProperties: false } });
    expect(problems('openai-responses', enums(values(1001, 4))).join('\n')).toContain('1001 enum values in all');
    expect(problems('openai-responses', enums(values(251, 60))).join('\n')).toContain('the enum at /properties/a has 251 values of 15060 characters');
    const props = Object.fromEntries(values(5001, 30).map((k) => [k, { type: 'string' }]));
    const wide = problems('openai-strict', variant({ inputSchema: { type: 'object', properties: props, additionalProperties: false } })).join('\n');
    expect(wide).toContain('5001 object properties');
    expect(wide).toContain('150030 characters of property names');
  });
});
