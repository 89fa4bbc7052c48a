/** docs/agents.md's Chat Completions loop, compiled against the openai SDK's types (see run.ts). */
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../../runtime/index.js';
import { run } from './run.js';

declare const client: HttpClient;
declare const userMessage: string;

// docs: from here
import OpenAI from 'openai';

const openai = new OpenAI();
const tools = await client.toolDefinitions('openai-strict', { identifier: 'user-42' });   // OpenAiStrictTool[]
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: userMessage }];
for (;;) {
  const reply = (await openai.chat.completions.create({ model: 'gpt-5.6-sol', messages, tools, parallel_tool_calls: false })).choices[0]!.message;
  messages.push(reply);   // the assistant turn once, then one tool message per call
  if (!reply.tool_calls?.length) break;
  for (const call of reply.tool_calls) {
    if (call.type !== 'function') continue;
    // The arguments as the model wrote them: nulls, pairs and JSON text are read back by the service.
    const { body } = await run(call.function.name, JSON.parse(call.function.arguments));
    messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(body) });
  }
}
// docs: to here

it('compiles', () => expectTypeOf(messages).items.toEqualTypeOf<OpenAI.ChatCompletionMessageParam>());
