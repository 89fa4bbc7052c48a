/** docs/agents.md's Responses API loop, compiled against the openai SDK's types (see run.ts). */
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../../runtime/index.js';
import { run } from './run.js';

declare const client: HttpClient;
declare const userMessage: string;

// docs: from here
import OpenAI from 'openai';

const openai = new OpenAI();
const tools = await client.toolDefinitions('openai-responses', { identifier: 'user-42' });   // OpenAiResponsesTool[]
let res = await openai.responses.create({ model: 'gpt-5.6-sol', input: userMessage, tools, parallel_tool_calls: false });
for (;;) {
  const calls = res.output.filter((item) => item.type === 'function_call');
  if (calls.length === 0) break;
  const outputs: OpenAI.Responses.ResponseInputItem[] = [];
  for (const call of calls) {
    const { body } = await run(call.name, JSON.parse(call.arguments));
    outputs.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(body) });
  }
  // The API holds the conversation (the calls, and a reasoning model's reasoning): go on from the last response.
  res = await openai.responses.create({ model: 'gpt-5.6-sol', previous_response_id: res.id, input: outputs, tools, parallel_tool_calls: false });
}
// docs: to here

it('compiles', () => expectTypeOf(res).toExtend<OpenAI.Responses.Response>());
