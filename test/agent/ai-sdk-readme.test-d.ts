/**
 * The README's Vercel AI SDK snippet ("Use it from an agent"), compiled against the AI SDK's own types and our typed
 * client's (checked by `vitest --typecheck` and by `tsc`). test/docs.test.ts holds the README's code block to the lines
 * between the markers, so the README cannot drift from what compiles. ai-sdk.test.ts runs the same calls against the
 * service.
 */
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../runtime/index.js';

declare const client: HttpClient;
declare const model: import('ai').LanguageModel;

// README: from here
import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs } from 'ai';

const session = await client.createMcpSession({ identifier: 'user-42', connections: ['calendar'] });
const mcp = await createMCPClient({ transport: { type: 'http', url: session.url, headers: { Authorization: `Bearer ${session.token}` } } });
const { text } = await generateText({ model, tools: await mcp.tools(), stopWhen: stepCountIs(5), prompt: 'Schedule lunch with Ana tomorrow at noon' });
await mcp.close();
// README: to here

it('compiles, and the answer is the model\'s text', () => {
  expectTypeOf(text).toEqualTypeOf<string>();
});
