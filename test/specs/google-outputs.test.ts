/**
 * The Google tools' output schemas (calendar_*, sheets_*, docs_*) say one resource one way: a resource several tools
 * answer (the Calendar Event, the Sheets Spreadsheet, ValueRange and UpdateValuesResponse, the Docs Document) is a
 * shared schema of its connector (specs/connectors/*.yaml), written once and named by each tool's output. What is
 * left to check is where the tools differ on purpose. That every tool's output is deep and open (arrays say their
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

describe('Google tool outputs', () => {
  it('are found by connector (no count: a new Google tool is its YAML file)', () => {
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['sheets_create_spreadsheet', 'sheets_read_spreadsheet']));
  });

  it('a sheet read with include_grid_data holds its cells; a new spreadsheet\'s sheets hold none', () => {
    const sheetFields = (tool: string) => Object.keys((at(output(tool), 'sheets').items as JsonSchema).properties as object);
    expect(sheetFields('sheets_create_spreadsheet')).toEqual(['properties']);
    expect(sheetFields('sheets_read_spreadsheet')).toEqual(['properties', 'data']);
  });
});
