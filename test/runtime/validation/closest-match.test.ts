/**
 * closestMatch, the one near-miss rule of every "did you mean": what it suggests, and that an unknown key of any
 * size costs little. Every unknown key of a tool input or API body is looked up, so a 1 MB key, or a 1 MB body of
 * thousands of unknown keys, must not cost seconds of CPU (it cost 1.5 to 2.7 s when the distance was computed in
 * full against every declared key).
 */
import { describe, expect, it } from 'vitest';
import { validateCalendarCreateEvent } from '../../../generated/validators.gen.js';
import { Ajv } from 'ajv';
import { closestMatch } from '../../../runtime/validation/closest-match.js';
import { toViolations } from '../../../runtime/validation/violations.js';
import type { JsonSchema } from '../../../runtime/types.js';

describe('closestMatch', () => {
  it.each([
    ['maxResults', ['max_results', 'page_token'], undefined, 'max_results'],
    ['calender_id', ['calendar_id', 'event_id'], undefined, 'calendar_id'],
    ['STATUS', ['Stats', 'Status'], undefined, 'Status'],
    // Ties keep the first known at the smallest distance.
    ['ab', ['ax', 'ay'], undefined, 'ax'],
    ['abcdef', ['abcxyz'], undefined, undefined],
    ['abcdef', ['abcxyz'], 3, 'abcxyz'],
    ['calendar_lst', ['calendar_list_events', 'calendar_list_calendars'], 3, undefined],
    ['', ['a'], undefined, 'a'],
    ['a'.repeat(50), ['a'.repeat(33)], undefined, undefined],
    ['a'.repeat(50), ['a'.repeat(34)], undefined, 'a'.repeat(34)],
  ])('%s in %j (max %s) -> %s', (wanted, known, max, want) => {
    expect(max === undefined ? closestMatch(wanted, known) : closestMatch(wanted, known, max)).toBe(want);
  });

  it('prefers the nearer of several, whatever their order', () => {
    expect(closestMatch('time_mn', ['time_max', 'time_min'])).toBe('time_min');
    expect(closestMatch('time_mn', ['time_min', 'time_max'])).toBe('time_min');
    expect(closestMatch('summery', ['description', 'summary', 'location'])).toBe('summary');
  });
});

describe('unknown keys of any size are hinted in bounded time', () => {
  const elapsed = (input: unknown): { ms: number; messages: string[] } => {
    const started = performance.now();
    const result = validateCalendarCreateEvent(input);
    const ms = performance.now() - started;
    return { ms, messages: result.ok ? [] : result.violations.map((v) => v.message) };
  };

  it('a 1 MB key', () => {
    const { ms, messages } = elapsed({ ['x'.repeat(1_000_000)]: 1 });
    expect(messages.some((m) => m.startsWith("unknown parameter 'xxx"))).toBe(true);
    expect(ms).toBeLessThan(300);
  });

  it('a 1 MB body of 40,000 unknown keys: each refused, the first hinted', () => {
    const input: Record<string, number> = { summery: 1 };
    for (let i = 0; i < 40_000; i++) input[`k${i.toString(36).padStart(18, '_')}`] = 1;
    const { ms, messages } = elapsed(input);
    expect(messages).toContain("unknown parameter 'summery'. Did you mean 'summary'?");
    expect(messages.filter((m) => m.startsWith("unknown parameter 'k"))).toHaveLength(40_000);
    expect(ms).toBeLessThan(500);
  });
});

describe('an unknown key close to no declared one', () => {
  const refuse = (schema: Record<string, unknown>, input: unknown): string[] => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    expect(validate(input)).toBe(false);
    return toViolations(validate.errors, input, 'input', schema as JsonSchema).map((v) => v.message);
  };

  it('names the declared parameters (never a computed one), or the keys of a nested object', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        _parent: { type: 'string', readOnly: true },
        sort: { type: 'object', additionalProperties: false, properties: { by: { type: 'string' }, order: { type: 'string' } } },
      },
    };
    expect(refuse(schema, { filters: [] })).toEqual(["unknown parameter 'filters'. Known parameters: query, limit, sort"]);
    expect(refuse(schema, { sort: { direction: 'asc' } })).toEqual(["unknown key 'direction' in sort. Known keys: by, order"]);
  });

  it('says a tool that takes no parameters takes none', () => {
    const schema = { type: 'object', additionalProperties: false, properties: {} };
    expect(refuse(schema, { pipeline: 'default' })).toEqual(["unknown parameter 'pipeline'. The tool takes no parameters: send {}"]);
  });

  it('cuts a long list after 30 names and says how many more there are', () => {
    const properties = Object.fromEntries(Array.from({ length: 35 }, (_, i) => [`param_${String(i).padStart(2, '0')}`, { type: 'string' }]));
    const [message] = refuse({ type: 'object', additionalProperties: false, properties }, { zzz: 1 });
    expect(message).toBe(`unknown parameter 'zzz'. Known parameters: ${Object.keys(properties).slice(0, 30).join(', ')} and 5 more`);
  });
});

describe('a number or boolean sent as text', () => {
  const refuse = (schema: Record<string, unknown>, input: unknown): string[] => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(input)).toBe(false);
    return toViolations(validate.errors, input, 'input', schema as JsonSchema).map((v) => v.message);
  };
  const schema = { type: 'object', properties: { max_results: { type: 'integer' }, ratio: { type: 'number' }, single_events: { type: 'boolean' }, name: { type: 'string' } } };

  it('says to send it without quotes, and converts nothing', () => {
    expect(refuse(schema, { max_results: '10' })).toEqual(['max_results must be an integer, not the text "10": send 10 without quotes']);
    expect(refuse(schema, { ratio: '0.5' })).toEqual(['ratio must be a number, not the text "0.5": send 0.5 without quotes']);
    expect(refuse(schema, { single_events: 'true' })).toEqual(['single_events must be a boolean, not the text "true": send true without quotes']);
  });

  it('gives no such hint for text that is not one', () => {
    expect(refuse(schema, { max_results: 'ten' })).toEqual(['max_results must be an integer']);
    expect(refuse(schema, { max_results: '1.5' })).toEqual(['max_results must be an integer']);
    expect(refuse(schema, { single_events: 'yes' })).toEqual(['single_events must be a boolean']);
  });
});
