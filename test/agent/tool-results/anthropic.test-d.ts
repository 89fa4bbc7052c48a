/** docs/agents.md's Messages API loop, compiled against @anthropic-ai/sdk's types (see run.ts). */
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../../runtime/index.js';
import { run } from './run.js';

declare const client: HttpClient;
declare const userMessage: string;

// docs: from here
import Anthropic from '@anthropic-ai/sdk';

const anthropic = new Anthropic();
const tools = await client.toolDefinitions('anthropic', { identifier: 'user-42' });   // AnthropicTool[]
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: userMessage }];
for (;;) {
  const msg = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools });
  messages.push({ role: 'assistant', content: msg.content });
  const uses = msg.content.filter((block) => block.type === 'tool_use');
  if (uses.length === 0) break;
  // All of the turn's results in one user message, each naming its tool_use block by id; is_error marks a failure.
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const use of uses) {
    const { failed, body } = await run(use.name, use.input as Record<string, unknown>);
    results.push({ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(body), is_error: failed });
  }
  messages.push({ role: 'user', content: results });
}
// docs: to here

it('compiles', () => expectTypeOf(messages).items.toEqualTypeOf<Anthropic.MessageParam>());
