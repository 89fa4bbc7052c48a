/**
 * An unknown key sent beside an open map (an object of free keys) is told to go inside it only when the map's
 * description names the key as a word among those it takes; a key of a value's JSON example in that description
 * (`"content"` in Notion's title shape) is no key of the map.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../../runtime/types.js';
import { toViolations } from '../../../runtime/validation/violations.js';

const schema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page_id: { type: 'string' },
    properties: {
      type: 'object',
      additionalProperties: { type: 'object' },
      description: 'Property values (status, owner, ...); the title is keyed `title`, e.g. `{"title": {"title": [{"text": {"content": "Plan"}}]}}`.',
    },
  },
};

function messageFor(key: string): string | undefined {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const input = { page_id: 'p', [key]: 'x' };
  expect(validate(input)).toBe(false);
  return toViolations(validate.errors, input, 'input', schema)[0]?.message;
}

describe('a key sent beside an open map', () => {
  it.each(['status', 'owner', 'title'])('%s, which the description names as a key, goes inside', (key) => {
    expect(messageFor(key)).toBe(`unknown parameter '${key}'. It goes inside properties: {"properties": {"${key}": ...}}`);
  });

  it.each(['text', 'content', 'Plan'])('%s, only a quoted word of a value example, is not sent there', (key) => {
    expect(messageFor(key)).toBe(`unknown parameter '${key}'. Known parameters: page_id, properties`);
  });
});
