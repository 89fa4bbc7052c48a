/**
 * Type-level tests: `toolDefinitions(format)`, in process and over HTTP, the HTTP client's `listTools({ format })`
 * and `formatTool` return the definition type of the format asked for, and each definition type is what its model API's own SDK takes as a tool, so the
 * definitions go into a request without a cast (checked by `vitest --typecheck` and by `tsc`). The JSON itself is
 * checked against the same SDKs by formats-conformance.test.ts.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration } from '@google/genai';
import type { Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type { tool as agentsTool } from '@openai/agents-core';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  formatTool,
  toolDefinitions,
  type AnthropicTool,
  type CatalogEntry,
  type CatalogTool,
  type GeminiFunctionDeclaration,
  type HttpClient,
  type ListToolsQuery,
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
declare const query: ListToolsQuery;

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

  it('listTools over HTTP: the catalog by default, else the format asked for', () => {
    expectTypeOf(client.listTools()).resolves.toEqualTypeOf<CatalogTool[]>();
    expectTypeOf(client.listTools({ connector: 'crm', read_only: true })).resolves.toEqualTypeOf<CatalogTool[]>();
    expectTypeOf(client.listTools({ format: 'catalog' })).resolves.toEqualTypeOf<CatalogTool[]>();
    expectTypeOf(client.listTools({ format: 'openai' })).resolves.toEqualTypeOf<OpenAiTool[]>();
    expectTypeOf(client.listTools({ format: 'openai-strict', identifier: 'user-1' })).resolves.toEqualTypeOf<OpenAiStrictTool[]>();
    expectTypeOf(client.listTools({ format: 'openai-responses' })).resolves.toEqualTypeOf<OpenAiResponsesTool[]>();
    expectTypeOf(client.listTools({ format: 'anthropic', query: 'contacts' })).resolves.toEqualTypeOf<AnthropicTool[]>();
    expectTypeOf(client.listTools({ format: 'gemini' })).resolves.toEqualTypeOf<GeminiFunctionDeclaration[]>();
    expectTypeOf(client.listTools({ format: 'mcp' })).resolves.toEqualTypeOf<McpTool[]>();
    // A format chosen at run time (or a query whose format may be left out): any of them.
    type AnyListed = CatalogTool | OpenAiTool | OpenAiStrictTool | OpenAiResponsesTool | AnthropicTool | GeminiFunctionDeclaration | McpTool;
    expectTypeOf(client.listTools({ format: chosen })).resolves.toEqualTypeOf<AnyListed[]>();
    expectTypeOf(client.listTools(query)).resolves.toEqualTypeOf<AnyListed[]>();
    // @ts-expect-error not a format
    void client.listTools({ format: 'openai-chat' });
  });

  it('each is what its SDK takes as a tool', () => {
    expectTypeOf<OpenAiTool>().toExtend<OpenAI.ChatCompletionTool>();
    expectTypeOf<OpenAiStrictTool>().toExtend<OpenAI.ChatCompletionTool>();
    expectTypeOf<OpenAiStrictTool['function']['strict']>().toEqualTypeOf<true>();
    expectTypeOf<OpenAiResponsesTool>().toExtend<OpenAI.Responses.FunctionTool>();
    // The OpenAI Agents SDK's tool(): a strict tool's parameters are a closed object schema listing every property.
    expectTypeOf<OpenAiResponsesTool['parameters']>().toExtend<NonNullable<Parameters<typeof agentsTool>[0]['parameters']>>();
    expectTypeOf<AnthropicTool>().toExtend<Anthropic.Tool>();
    expectTypeOf<McpTool>().toExtend<McpSdkTool>();
    expectTypeOf<GeminiFunctionDeclaration>().toExtend<FunctionDeclaration>();
  });
});
