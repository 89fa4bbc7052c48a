/**
 * docs/agents.md's code for handing a tool's result back to each model API is the code test/agent/tool-results/
 * compiles against the SDKs' types: each file's lines between `// docs: from here` and `// docs: to here` are one of
 * the page's code blocks (the repository's import path written as the package's name), so the page cannot drift
 * from what compiles. model-calls.test.ts sends the same messages through each SDK on the sandbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it, vi } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'test/agent/tool-results');
const blocks = [...readFileSync(join(ROOT, 'docs/agents.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

function compiled(file: string): string {
  const text = readFileSync(join(DIR, file), 'utf8').split('// docs: from here\n')[1]?.split('// docs: to here')[0];
  expect(text, `${file} has the docs markers`).toBeDefined();
  return text!.replaceAll("'../../../runtime/index.js'", "'agent-connector'").replace('export async function', 'async function');
}

describe('docs/agents.md shows the tool-result code that compiles', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts')).sort();
  it('for the shared run() and each API', () => {
    expect(files).toEqual(['anthropic.test-d.ts', 'gemini.test-d.ts', 'openai-agents.test-d.ts', 'openai-chat.test-d.ts', 'openai-responses.test-d.ts', 'run.ts']);
  });
  it.each(files)('%s', (file) => {
    expect(blocks).toContain(compiled(file));
  });

  // OpenAI, "Introducing Structured Outputs in the API" (openai.com/index/introducing-structured-outputs-in-the-api),
  // limitations: "Structured Outputs is not compatible with parallel function calls. When a parallel function call is
  // generated, it may not match supplied schemas. Set parallel_tool_calls: false to disable parallel function calling."
  it('the loops sending the strict formats turn parallel function calls off, as strict mode needs', () => {
    const strict = blocks.filter((b) => /toolDefinitions\('openai-(strict|responses)'/.test(b!) && b!.includes('.create('));
    expect(strict).toHaveLength(2);
    for (const block of strict) {
      const requests = block!.match(/\.create\(\{[^}]*\}/g) ?? [];
      expect(requests.length).toBeGreaterThan(0);
      for (const request of requests) expect(request).toContain('parallel_tool_calls: false');
    }
  });

  // The Anthropic SDK warns, on each request, of a model it lists as deprecated, with the day it reaches end of life
  // (after which the API refuses it); a snippet naming one stops working on that day.
  it('the Anthropic models the README and docs/ name are none the installed SDK warns are deprecated', async () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const models = [...new Set(pages.flatMap((page) => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/model: '(claude-[^']+)'/g)].map((m) => m[1]!)))];
    expect(models.length).toBeGreaterThan(0);
    const answer = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    const anthropic = new Anthropic({ apiKey: 'test', maxRetries: 0, fetch: async () => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (const model of models) await anthropic.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  // The OpenAI and Gemini SDKs carry no deprecation list, so the providers' deprecation pages' models (deprecated:
  // a shutdown date is set) are written here. OpenAI (developers.openai.com/api/docs/deprecations): gpt-4o, gpt-4o-mini,
  // gpt-4.1 and gpt-4.1-mini shut down on 2027-01-14; gpt-5, gpt-5-mini, gpt-5-nano, o3 on 2026-12-11; gpt-3.5-turbo,
  // gpt-4, gpt-4-turbo, gpt-4.1-nano, o1, o3-mini, o4-mini on 2026-10-23. Gemini (ai.google.dev/gemini-api/docs/
  // deprecations): gemini-2.5-flash and gemini-2.5-pro shut down on 2026-12-01, gemini-2.0-flash and -lite earlier.
  const DEPRECATED = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'o3', 'o1', 'o3-mini', 'o4-mini', 'gpt-3.5-turbo', 'gpt-4', 'gpt-4-turbo', 'gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash', 'gemini-2.0-flash-lite'];
  it('the OpenAI and Gemini models the README and docs/ name are none their providers have deprecated', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const named = pages.flatMap((page) => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/model: '((?:gpt|o\d|gemini)[^']*)'/g)].map((m) => `${page}: ${m[1]!}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => DEPRECATED.includes(n.split(': ')[1]!))).toEqual([]);
  });
});
