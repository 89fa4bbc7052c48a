/**
 * The Google tools' output schemas (calendar_*, sheets_*, docs_*) say one resource one way: the tools that answer the
 * same Google resource describe it with the same schema. The Calendar Event and the Docs Document are shared schemas
 * (specs/connectors/calendar.yaml, docs.yaml), each written once and named by the tools that answer it. That every tool's output is deep and open (arrays say their
 * items, no object refuses extra fields, ids only required) is output-schemas.test.ts's; google-outputs.test-d.ts
 * checks the names against the Google SDK types.
 */
import { describe, expect, it } from 'vitest';
import * as generated from '../../generated/tools.gen.js';
import type { JsonSchema, ToolDefinition } from '../../runtime/types.js';

const tools = (generated.tools as readonly ToolDefinition[]).filter((t) => ['calendar', 'sheets', 'docs'].includes(t.connector));
const output = (name: string): JsonSchema => tools.find((t) => t.name === name)!.outputSchema;
/** The subschema of `schema` at a path of property names. */
const at = (schema: JsonSchema, ...names: string[]): JsonSchema => names.reduce((s, n) => (s.properties as Record<string, JsonSchema>)[n]!, schema);

/** A schema without its descriptions, to compare shapes. */
function shape(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'description' && typeof value === 'string' ? undefined : value)));
}

describe('Google tool outputs', () => {
  it('cover the 14 Google tools', () => {
    expect(tools).toHaveLength(14);
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
