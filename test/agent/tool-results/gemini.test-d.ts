/** docs/agents.md's Gemini loop, compiled against @google/genai's types (see run.ts). */
import { expectTypeOf, it } from 'vitest';
import type { HttpClient } from '../../../runtime/index.js';
import { run } from './run.js';

declare const client: HttpClient;
declare const userMessage: string;

// docs: from here
import { GoogleGenAI, type Content, type Part } from '@google/genai';

const ai = new GoogleGenAI({});
const functionDeclarations = await client.toolDefinitions('gemini', { identifier: 'user-42' });   // GeminiFunctionDeclaration[]
const contents: Content[] = [{ role: 'user', parts: [{ text: userMessage }] }];
for (;;) {
  const res = await ai.models.generateContent({ model: 'gemini-3.5-flash', contents, config: { tools: [{ functionDeclarations }] } });
  const calls = res.functionCalls ?? [];
  if (calls.length === 0) break;
  contents.push(res.candidates![0]!.content!);   // the model's turn as it came (with its thought signatures)
  // response is an object, never JSON text or an array: {output: data}, or the error body {error: {...}}.
  const parts: Part[] = [];
  for (const call of calls) {
    const { failed, body } = await run(call.name!, call.args ?? {});
    parts.push({ functionResponse: { id: call.id, name: call.name, response: failed ? body : { output: body } } });
  }
  contents.push({ role: 'user', parts });
}
// docs: to here

it('compiles', () => expectTypeOf(contents).items.toEqualTypeOf<Content>());
