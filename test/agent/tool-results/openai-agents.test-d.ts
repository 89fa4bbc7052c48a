/** docs/agents.md's OpenAI Agents SDK tools, compiled against @openai/agents-core's types (see run.ts). */
import type { FunctionTool } from '@openai/agents-core';
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../../runtime/index.js';
import { run } from './run.js';

declare const client: HttpClient;

// docs: from here
import { tool } from '@openai/agents-core';   // as @openai/agents exports it

const definitions = await client.toolDefinitions('openai-responses', { identifier: 'user-42' });   // OpenAiResponsesTool[]
const tools = definitions.map((d) =>
  tool({
    name: d.name, description: d.description, parameters: d.parameters, strict: d.strict,
    // The error body is returned, not thrown: a throw reaches the model as the SDK's own words and the message alone.
    execute: async (input) => (await run(d.name, input as Record<string, unknown>)).body,
  }),
);
// docs: to here

it('compiles', () => expectTypeOf(tools).items.toExtend<FunctionTool<any, any, any>>());
