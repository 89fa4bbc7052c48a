/**
 * What a model reads first: each tool's description ends with a worked example, and the example is an input the tool
 * takes as it is (a model copies it, so a prose example or one with a wrong parameter teaches the wrong call); every
 * tool a description or a parameter's description names (`workspace_search`, `calendar_list_calendars`) exists, so a
 * renamed tool does not leave a model sent to one that is not there.
 */
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { descriptionExample } from './description-example.js';

const all = tools as readonly ToolDefinition[];

/** Every description in a schema: its own and, at any depth, its properties' and items'. */
function* descriptions(schema: unknown): Generator<string> {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  if (typeof node.description === 'string') yield node.description;
  for (const key of ['properties', 'items', 'additionalProperties', 'oneOf', 'anyOf'] as const) {
    const child = node[key];
    if (key === 'properties' && child !== null && typeof child === 'object') for (const sub of Object.values(child)) yield* descriptions(sub);
    else if (Array.isArray(child)) for (const sub of child) yield* descriptions(sub);
    else if (key !== 'properties') yield* descriptions(child);
  }
}

const TOOL_WORD = /\b(?:workspace|calendar|crm|sheets|docs)_[a-z0-9_]*[a-z0-9]/g;
const words = new Set(all.flatMap((t) => [t.name, ...t.aliases, ...Object.keys((t.inputSchema.properties ?? {}) as object)]));

describe.each(all.map((t) => [t.name, t] as const))('%s', (_name, t) => {
  it('ends its description with an example the tool accepts', () => {
    const example = descriptionExample(t.description);
    const result = t.validate(example);
    expect(result.ok, JSON.stringify(result.ok ? null : result.violations)).toBe(true);
  });

  it('names only tools, aliases and parameters that exist', () => {
    const named = [...descriptions({ description: t.description, properties: t.inputSchema.properties })].flatMap((d) => d.match(TOOL_WORD) ?? []);
    expect(named.filter((w) => !words.has(w))).toEqual([]);
  });
});

describe('descriptionExample', () => {
  it('reads JSON broken over lines, after a labelled Example', () => {
    expect(descriptionExample('Does a thing.\nExample (the usual case): {"a": [1,\n2], "b": "x\\ny"}')).toEqual({ a: [1, 2], b: 'x\ny' });
  });
  it('refuses a prose example', () => {
    expect(() => descriptionExample('Does a thing.\nExample: set a to 1 on record 5.')).toThrow();
  });
});

// What a first call gets wrong when the description does not say it.
describe('what a first call needs to know', () => {
  const byName = new Map(all.map((t) => [t.name, t]));
  const params = (t: ToolDefinition) => Object.entries((t.inputSchema.properties ?? {}) as Record<string, { format?: string; description?: string }>);

  it('a date-time parameter asks for the offset of the time zone meant, never "a UTC offset" (read as: in UTC)', () => {
    const utc = all.flatMap((t) => params(t).filter(([, s]) => s.format === 'date-time' && /UTC offset/i.test(s.description ?? '')).map(([p]) => `${t.name}.${p}`));
    expect(utc).toEqual([]);
  });

  it("calendar_create_event says where the user's time zone is, and that send_updates e-mails the attendees", () => {
    const d = byName.get('calendar_create_event')!.description;
    expect(d).toMatch(/calendar_list_calendars/);
    expect(d).toMatch(/timeZone/);
    expect(d).toMatch(/send_updates/);
  });

  it('an A1 range parameter says which tool lists the sheet titles, and what a range without one names', () => {
    const ranges = all.filter((t) => t.name !== 'sheets_read_spreadsheet').flatMap((t) => params(t).filter(([, s]) => s.format === 'a1-range').map(([p, s]) => [`${t.name}.${p}`, s.description ?? ''] as const));
    expect(ranges.length).toBeGreaterThan(0);
    for (const [at, d] of ranges) {
      expect(d, at).toMatch(/sheets_read_spreadsheet/);
      expect(d, at).toMatch(/first visible sheet/);
    }
  });

  it('docs_update_document says what an index counts, where the body ends and how to append', () => {
    const d = byName.get('docs_update_document')!.description;
    for (const fact of [/UTF-16/, /endIndex exclusive/, /endIndex - 1/, /endOfSegmentLocation/, /namedStyleType/]) expect(d).toMatch(fact);
  });
});
