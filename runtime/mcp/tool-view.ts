/**
 * A tool as an MCP `Tool` object (`tools/list`, `describe_tool`).
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { llmParameters } from '../service/tool-formats.js';
import type { ToolDefinition } from '../types.js';

export function mcpToolView(tool: ToolDefinition): Tool {
  return { name: tool.name, description: tool.description, inputSchema: llmParameters(tool.inputSchema) as Tool['inputSchema'] };
}
