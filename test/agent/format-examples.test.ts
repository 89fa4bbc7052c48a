/**
 * The examples in the closed formats' descriptions are values those formats' schemas admit. A model copies the
 * `Example: ...` of a parameter; in OpenAI strict mode, Anthropic and Gemini an open map is a list of `{name, value}`
 * pairs whose value is a string, and a free-form object is its JSON text, so an example still written in the
 * catalog's shape (`{"name": "amount", "value": 15000}`, `[{"insertText": {...}}]`) shows the model a value the
 * schema it is constrained by cannot produce (in strict mode) or the format says not to send.
 *
 * The same holds for the tool's example input on the description's last line(s).
 *
 * Each parameter's example is read back from the description the model gets and validated against that parameter's
 * schema in the format (Gemini's Schema read as JSON Schema; in strict mode with null for the properties the example
 * leaves out, as a strict model writes them).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { formatTool, type ToolFormat } from '../../runtime/agent/formats/index.js';
import { decodeModelInput } from '../../runtime/agent/model-input.js';
import { geminiAsJsonSchema, withNulls } from './model-schema.js';

type Obj = Record<string, any>;

function parameters(format: ToolFormat, t: (typeof tools)[number]): Obj {
  const d = formatTool(t, format) as Obj;
  const schema = (d.function?.parameters ?? d.input_schema ?? d.parameters ?? { properties: {} }) as Obj;
  return format === 'gemini' ? geminiAsJsonSchema(schema) : schema;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const CLOSED = ['openai-strict', 'openai-responses', 'anthropic', 'gemini'] as const;

describe('examples in the closed formats are written in the format', () => {
  it.each(CLOSED)('%s: every parameter example validates against the parameter schema the model is given', (format) => {
    const problems: string[] = [];
    for (const t of tools) {
      for (const [name, p] of Object.entries((parameters(format, t).properties ?? {}) as Obj)) {
        const m = /Example: (.*)\.$/s.exec(String(p.description ?? ''));
        if (!m) continue;
        const { description: _d, ...schema } = p;
        const example = format.startsWith('openai') ? withNulls(schema, JSON.parse(m[1]!)) : JSON.parse(m[1]!);
        const validate = ajv.compile(schema);
        if (!validate(example)) problems.push(`${t.name}.${name}: ${m[1]!.slice(0, 100)} ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(CLOSED)("%s: the tool's example input, on the description's last line(s), validates against the parameters the model is given", (format) => {
    const problems: string[] = [];
    for (const t of tools) {
      const d = formatTool(t, format) as Obj;
      const description = String(d.function?.description ?? d.description);
      const m = /(?:^|\n)Example[^:\n]*: (\{.*?)(?:\n\nRules: .*)?$/s.exec(description);
      if (!m) {
        problems.push(`${t.name}: no example input`);
        continue;
      }
      const schema = parameters(format, t);
      const example = format.startsWith('openai') ? withNulls(schema, JSON.parse(m[1]!)) : JSON.parse(m[1]!);
      const validate = ajv.compile(schema);
      if (!validate(example)) problems.push(`${t.name}: ${ajv.errorsText(validate.errors)}`);
      // Written in the format's shapes the example is longer; the whole still fits what model APIs take.
      expect(description.length, t.name).toBeLessThan(1024);
    }
    expect(problems).toEqual([]);
  });

  it('a scalar map example gives each value as the string its pair takes, and it reads back to what the service sends', () => {
    const t = tools.find((x) => x.name === 'crm_company_update')!;
    const props = parameters('openai-strict', t).properties as Obj;
    const example = JSON.parse(/Example: (.*)\.$/s.exec(props.properties.description)![1]!);
    expect(example).toContainEqual({ name: 'numberofemployees', value: '250' });
    expect(decodeModelInput(t.inputSchema, { company_id: '20001', properties: example })).toMatchObject({ properties: { numberofemployees: '250' } });
  });

  it('a list of free-form objects gives each as its JSON text', () => {
    const t = tools.find((x) => x.name === 'docs_update_document')!;
    const requests = (parameters('anthropic', t).properties as Obj).requests;
    const example = JSON.parse(/Example: (.*)\.$/s.exec(requests.description)![1]!);
    expect(example).toEqual([JSON.stringify({ insertText: { location: { index: 1 }, text: 'Hello world\n' } })]);
  });
});
