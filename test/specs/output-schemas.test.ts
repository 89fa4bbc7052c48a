/**
 * Every tool's output schema (served as MCP outputSchema, the generated output type and the OpenAPI response) says
 * what the result holds and stays open: every array says what its items are, nothing forbids the fields the upstream
 * adds (MCP clients validate results against these schemas), `required` names ids only (what the upstream always
 * returns), and it compiles under Ajv's strict mode, which refuses unknown keywords (a description split at a comma
 * in a YAML flow mapping becomes one). Which fields exist is checked against the upstream SDKs' types
 * (google-outputs.test-d.ts, crm-outputs.test-d.ts, workspace-outputs.test-d.ts); that the sandbox's answers fit,
 * end to end (test/runtime/tools-e2e.test.ts, test/runtime/google-outputs.test.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { schemaNodes } from '../../codegen/model/schema-refs.js';
import type { JsonSchema } from '../../runtime/types.js';

/** Every schema in `schema` with its JSON pointer, the root included (the places an output nests schemas). */
function* schemasIn(schema: JsonSchema): Generator<[string, JsonSchema]> {
  for (const [node, at] of schemaNodes(schema, [])) yield [`/${at.join('/')}`, node as JsonSchema];
}

const types = (s: JsonSchema): unknown[] => (Array.isArray(s.type) ? s.type : [s.type]);

describe.each(tools.map((t) => [t.name, t.outputSchema] as const))('%s output', (_name, output) => {
  const all = [...schemasIn(output)];

  it('every array says what its items are', () => {
    expect(all.filter(([, s]) => types(s).includes('array') && !s.items).map(([at]) => at)).toEqual([]);
  });

  it('stays open to fields the upstream adds, and requires ids only', () => {
    expect(all.filter(([, s]) => s.additionalProperties === false).map(([at]) => at)).toEqual([]);
    expect(all.flatMap(([at, s]) => ((s.required ?? []) as string[]).filter((r) => !/^(id|[a-z]+Id)$/.test(r)).map((r) => `${at} ${r}`))).toEqual([]);
  });

  it('compiles under Ajv strict mode', () => {
    expect(() => new Ajv2020({ strict: true, allowUnionTypes: true, strictRequired: false }).compile(output)).not.toThrow();
  });
});
