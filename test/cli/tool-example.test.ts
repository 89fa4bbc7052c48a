import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/tools.gen.js';
import { exampleInput } from '../../runtime/cli/tool-example.js';
import type { ToolDefinition } from '../../runtime/types.js';

describe('tools show example input', () => {
  it('passes validation for every tool, rules included, given the validator', () => {
    const failing: string[] = [];
    for (const tool of tools as readonly ToolDefinition[]) {
      const result = tool.validate(exampleInput(tool.inputSchema, (input) => tool.validate(input)));
      if (!result.ok) failing.push(`${tool.name}: ${result.violations.map((v) => `${v.pointer} ${v.keyword}`).join(', ')}`);
    }
    expect(failing).toEqual([]);
  });

  it('takes examples, enums and type placeholders for required parameters', () => {
    const schema = {
      type: 'object',
      required: ['a', 'b', 'c', 'd'],
      properties: { a: { type: 'string', examples: ['x'] }, b: { type: 'string', enum: ['p', 'q'] }, c: { type: 'integer', minimum: 5 }, d: { type: 'string' }, e: { type: 'string', examples: ['y'] } },
    };
    expect(exampleInput(schema)).toEqual({ a: 'x', b: 'p', c: 5, d: '<d>' });
  });
});
