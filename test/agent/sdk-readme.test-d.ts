/**
 * The README's other code blocks, compiled against our typed client's types and the model SDKs' own (checked by
 * `vitest --typecheck` and by `tsc`): "Use it from an application" (but its import line, since `agent-connector`
 * resolves to dist/ only after a build) and the OpenAI and Anthropic SDK block of "Use it from an agent".
 * test/docs.test.ts holds each README block to the lines between its markers, as it does the AI SDK block in
 * ai-sdk-readme.test-d.ts.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { expectTypeOf, it } from 'vitest';
import { createClient } from '../../runtime/index.js';

declare const openai: OpenAI;
declare const anthropic: Anthropic;
/** One conversation both SDKs take, as the README's block passes the same `messages` to each. */
declare const messages: OpenAI.Chat.ChatCompletionMessageParam[] & Anthropic.MessageParam[];

// README application: from here
const client = createClient({ envUrl: 'http://127.0.0.1:3000', clientId: process.env.AGENT_CONNECTOR_CLIENT_ID!, clientSecret: process.env.AGENT_CONNECTOR_CLIENT_SECRET! });
const { link } = await client.authorizationLink({ connection_name: 'calendar', identifier: 'user-42' });   // send it to the user
const { data } = await client.tools.calendar_create_event({ start_datetime: '2026-12-01T10:00:00+01:00', summary: 'Planning' }, { identifier: 'user-42' });
// README application: to here

// README model SDKs: from here
const tools = await client.toolDefinitions('openai', { connector: 'calendar' });
const res = await openai.chat.completions.create({ model: 'gpt-5.6-sol', messages, tools });
for (const call of res.choices[0]!.message.tool_calls ?? [])
  if (call.type === 'function')
    await client.executeTool({ tool_name: call.function.name, identifier: 'user-42', tool_input: JSON.parse(call.function.arguments) });

const msg = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages,
  tools: await client.toolDefinitions('anthropic', { query: 'schedule a meeting' }) });
for (const block of msg.content)
  if (block.type === 'tool_use')
    await client.executeTool({ tool_name: block.name, identifier: 'user-42', tool_input: block.input as Record<string, unknown> });
// README model SDKs: to here

it('compiles: the link is a string, and data is the created event', () => {
  expectTypeOf(link).toEqualTypeOf<string>();
  expectTypeOf(data).toHaveProperty('id');
});
