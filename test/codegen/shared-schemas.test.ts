/**
 * Shared schemas (`schemas:` in a connector spec, `$ref: '#/schemas/<Name>'` in a tool's output): the model holds
 * each output with its refs written out, so every emitter sees the whole schema. The errors are spec-errors.test.ts's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import type { JsonSchema } from '../../runtime/types.js';
import { FIXTURE_SPECS, specsCopy } from './fixture-env.js';

const output = async (specsDir: string, tool: string): Promise<JsonSchema> => (await generate({ specsDir })).model.tools.find((t) => t.name === tool)!.output;
const props = (s: JsonSchema) => s.properties as Record<string, JsonSchema>;
const openapiSchemas = async (specsDir: string): Promise<Record<string, JsonSchema>> => {
  const file = (await generate({ specsDir })).files.find((f) => f.path === 'openapi.json')!;
  return (JSON.parse(file.content) as { components: { schemas: Record<string, JsonSchema> } }).components.schemas;
};
const ref = (name: string) => `#/components/schemas/${name}`;

describe('shared schemas', () => {
  const copies: Array<{ cleanup(): void }> = [];
  afterEach(() => copies.splice(0).forEach((c) => c.cleanup()));

  it('a ref is written out where it stands, the description beside it replacing the shared one, refs within it too', async () => {
    const event = await output(FIXTURE_SPECS, 'calendar_get_event');
    expect(JSON.stringify(event)).not.toContain('$ref');
    // The shared Event's keys in its order, with the tool's description in the place of Event's.
    expect(Object.keys(event)).toEqual(['type', 'description', 'required', 'properties']);
    expect(event.description).toBe('The event, when it matches the filters.');
    expect(Object.keys(props(event))).toEqual(['id', 'summary', 'start', 'end', 'attendees']);
    // EventDateTime has no description: the one beside the ref is added.
    expect(props(event).start).toEqual({
      type: 'object',
      properties: { date: { type: 'string', description: 'All-day events only: YYYY-MM-DD.' }, dateTime: { type: 'string' } },
      description: 'When the event starts.',
    });
    expect(props(event).end!.description).toBe('When the event ends.');
  });

  it('properties beside a ref add fields after the shared ones, and replace one of the same name where it stands', async () => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit('tools/workspace/workspace_page_create.yaml', (t) => t.replace('    in_trash: { type: boolean }\n', '    id: { type: string, description: The page id. }\n'));
    const page = await output(specs.dir, 'workspace_page_create');
    expect(page.required).toEqual(['id']);
    expect(props(page)).toEqual({
      object: { const: 'page' },
      id: { type: 'string', description: 'The page id.' },
      url: { type: 'string', description: "The page's notion.so address." },
    });
    expect(Object.keys(props(page))).toEqual(['object', 'id', 'url']);
  });

  it('the OpenAPI document defines each shared schema once, named as its type, and the outputs refer to it', async () => {
    const { model, files } = await generate({ specsDir: FIXTURE_SPECS });
    const schemas = await openapiSchemas(FIXTURE_SPECS);
    const types = files.find((f) => f.path === 'types.gen.ts')!.content;
    for (const s of model.sharedSchemas) {
      expect(types, s.typeName).toContain(`export type ${s.typeName} =`);
      expect(schemas[s.typeName], s.typeName).toBeDefined();
    }
    // The ref with only its own description: the ref, that description beside it; refs within the shared one too.
    expect(schemas.CalendarGetEventOutput).toEqual({ $ref: ref('CalendarEvent'), description: 'The event, when it matches the filters.' });
    expect(props(schemas.CalendarEvent!).start).toEqual({ $ref: ref('CalendarEventDateTime'), description: 'When the event starts.' });
    expect(schemas.CalendarEvent!.description).toBe('A Google Calendar Event resource.');
    // The model (the MCP outputSchema, the catalog) keeps the output written out.
    expect(JSON.stringify(model.tools.find((t) => t.name === 'calendar_get_event')!.output)).not.toContain('$ref');
    // An output whose type differs (a field added beside the ref) is written out, as in types.gen.ts.
    expect(schemas.WorkspacePageCreateOutput!.$ref).toBeUndefined();
  });

  it('OpenAPI: a property beside a ref that differs in descriptions only stays beside the $ref; one that checks more is written out', async () => {
    const specs = specsCopy();
    copies.push(specs);
    const summary = (schema: string) => specs.edit('tools/calendar/calendar_get_event.yaml', (t) => t.replace(/^output: .*$/m, `output: { $ref: '#/schemas/Event', description: 'The event.', properties: { summary: ${schema} } }`));
    summary('{ type: string, description: Its title. }');
    expect((await openapiSchemas(specs.dir)).CalendarGetEventOutput).toEqual({
      $ref: ref('CalendarEvent'),
      description: 'The event.',
      properties: { summary: { type: 'string', description: 'Its title.' } },
    });
    // Same type, but a bound of its own: a ref to the Event would accept what this output refuses.
    summary('{ type: string, maxLength: 5 }');
    const out = (await openapiSchemas(specs.dir)).CalendarGetEventOutput!;
    expect(out.$ref).toBeUndefined();
    expect(props(out).summary).toEqual({ type: 'string', maxLength: 5 });
    expect(props(out).start).toEqual({ $ref: ref('CalendarEventDateTime'), description: 'When the event starts.' });
  });
});
