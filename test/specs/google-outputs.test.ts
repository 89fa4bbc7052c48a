/**
 * The Google tools' output schemas (calendar_*, sheets_*, docs_*) are deep and open, and say one resource one way:
 * every array says what its items are, no object refuses extra fields (Google adds fields over time, and MCP clients
 * validate results against these schemas), `required` names ids only, and the tools that answer the same Google
 * resource describe it with the same schema. google-outputs.test-d.ts checks the names against the Google SDK types.
 */
import { describe, expect, it } from 'vitest';
import * as generated from '../../generated/tools.gen.js';
import type { JsonSchema, ToolDefinition } from '../../runtime/types.js';

const tools = (generated.tools as readonly ToolDefinition[]).filter((t) => ['calendar', 'sheets', 'docs'].includes(t.connector));
const output = (name: string): JsonSchema => tools.find((t) => t.name === name)!.outputSchema;
/** The subschema of `schema` at a path of property names. */
const at = (schema: JsonSchema, ...names: string[]): JsonSchema => names.reduce((s, n) => (s.properties as Record<string, JsonSchema>)[n]!, schema);

/** Every subschema with its JSON pointer in the output schema. */
function* walk(schema: JsonSchema, pointer = ''): Generator<[string, JsonSchema]> {
  yield [pointer, schema];
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) yield* walk(sub, `${pointer}/properties/${key}`);
  if (typeof schema.items === 'object') yield* walk(schema.items as JsonSchema, `${pointer}/items`);
  if (typeof schema.additionalProperties === 'object') yield* walk(schema.additionalProperties as JsonSchema, `${pointer}/additionalProperties`);
}

/** A schema without its descriptions, to compare shapes. */
function shape(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'description' && typeof value === 'string' ? undefined : value)));
}

describe('Google tool outputs', () => {
  it('cover the 14 Google tools', () => {
    expect(tools).toHaveLength(14);
  });

  it.each(tools.map((t) => [t.name, t.outputSchema] as const))('%s: arrays say their items, objects stay open, only ids are required', (_name, schema) => {
    for (const [pointer, sub] of walk(schema)) {
      if (sub.type === 'array') expect(sub.items, `${pointer} is an array without items`).toEqual(expect.any(Object));
      expect(sub.additionalProperties, `${pointer} refuses extra fields`).not.toBe(false);
      for (const name of (sub.required ?? []) as string[]) expect(name, `${pointer} requires ${name}`).toMatch(/^(id|[a-z]+Id)$/);
    }
  });

  it('say an event one way: the event tools, and each item of calendar_list_events', () => {
    const event = shape(output('calendar_get_event_by_id'));
    expect(shape(output('calendar_create_event'))).toEqual(event);
    expect(shape(output('calendar_update_event'))).toEqual(event);
    expect(shape(at(output('calendar_list_events'), 'items').items as JsonSchema)).toEqual(event);
  });

  it('say a document one way: docs_create_document and docs_read_document', () => {
    expect(output('docs_create_document')).toEqual(output('docs_read_document'));
  });

  it('say a spreadsheet one way: sheets_create_spreadsheet, and sheets_read_spreadsheet with grid data besides', () => {
    const read = structuredClone(output('sheets_read_spreadsheet'));
    delete (at(at(read, 'sheets').items as JsonSchema).properties as Record<string, JsonSchema>).data;
    expect(output('sheets_create_spreadsheet')).toEqual(read);
  });

  it('say a write one way: sheets_update_values, and the updates of sheets_append_values', () => {
    expect(shape(at(output('sheets_append_values'), 'updates'))).toEqual(shape(output('sheets_update_values')));
    const { description: _readBack, ...readBack } = at(output('sheets_update_values'), 'updatedData');
    const { description: _valueRange, ...valueRange } = output('sheets_get_values');
    expect(readBack).toEqual(valueRange);
  });
});
