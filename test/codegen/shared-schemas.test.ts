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
});
