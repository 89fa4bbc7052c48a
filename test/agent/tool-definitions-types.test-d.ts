/**
 * Type-level tests: `toolDefinitions(format)`, in process and over HTTP, and `formatTool` return the definition type
 * of the format asked for, and each definition type is what its model API's own SDK takes as a tool, so the
 * definitions go into a request without a cast (checked by `vitest --typecheck` and by `tsc`). The JSON itself is
 * checked against the same SDKs by formats-conformance.test.ts.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration } from '@google/genai';
import type { Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  formatTool,
  toolDefinitions,
  type AnthropicTool,
  type CatalogEntry,
  type GeminiFunctionDeclaration,
  type HttpClient,
  type McpTool,
  type OpenAiResponsesTool,
  type OpenAiStrictTool,
  type OpenAiTool,
  type ToolDefinitionFor,
  type ToolFormat,
  type ToolFormatDefinitions,
} from '../../runtime/index.js';
import type { ToolSurface } from '../../runtime/agent/formats/index.js';

declare const client: HttpClient;
declare const tool: ToolSurface;
declare const chosen: ToolFormat;

describe('tool definitions are typed by their format', () => {
  it('names every format, and only the formats', () => {
    expectTypeOf<keyof ToolFormatDefinitions>().toEqualTypeOf<ToolFormat>();
  });

  it('toolDefinitions in process', () => {
    expectTypeOf(toolDefinitions('catalog')).resolves.toEqualTypeOf<CatalogEntry[]>();
    expectTypeOf(toolDefinitions('openai')).resolves.toEqualTypeOf<OpenAiTool[]>();
    expectTypeOf(toolDefinitions('openai-strict')).resolves.toEqualTypeOf<OpenAiStrictTool[]>();
    expectTypeOf(toolDefinitions('openai-responses')).resolves.toEqualTypeOf<OpenAiResponsesTool[]>();
    expectTypeOf(toolDefinitions('anthropic')).resolves.toEqualTypeOf<AnthropicTool[]>();
    expectTypeOf(toolDefinitions('gemini')).resolves.toEqualTypeOf<GeminiFunctionDeclaration[]>();
    expectTypeOf(toolDefinitions('mcp')).resolves.toEqualTypeOf<McpTool[]>();
    // A format chosen at run time: any of them.
    expectTypeOf(toolDefinitions(chosen)).resolves.toEqualTypeOf<ToolDefinitionFor<ToolFormat>[]>();
    // @ts-expect-error not a format
    void toolDefinitions('openai-chat');
  });

  it('toolDefinitions over HTTP and formatTool say the same', () => {
    expectTypeOf(client.toolDefinitions('anthropic', { identifier: 'user-1' })).resolves.toEqualTypeOf<AnthropicTool[]>();
    expectTypeOf(client.toolDefinitions('openai-responses')).resolves.toEqualTypeOf<OpenAiResponsesTool[]>();
    expectTypeOf(client.toolDefinitions('mcp')).resolves.toEqualTypeOf<McpTool[]>();
    expectTypeOf(formatTool(tool, 'openai-strict')).toEqualTypeOf<OpenAiStrictTool>();
    expectTypeOf(formatTool(tool, 'gemini')).toEqualTypeOf<GeminiFunctionDeclaration>();
  });

  it('each is what its SDK takes as a tool', () => {
    expectTypeOf<OpenAiTool>().toExtend<OpenAI.ChatCompletionTool>();
    expectTypeOf<OpenAiStrictTool>().toExtend<OpenAI.ChatCompletionTool>();
    expectTypeOf<OpenAiStrictTool['function']['strict']>().toEqualTypeOf<true>();
    expectTypeOf<OpenAiResponsesTool>().toExtend<OpenAI.Responses.FunctionTool>();
    expectTypeOf<AnthropicTool>().toExtend<Anthropic.Tool>();
    expectTypeOf<McpTool>().toExtend<McpSdkTool>();
    expectTypeOf<GeminiFunctionDeclaration>().toExtend<FunctionDeclaration>();
  });
});
