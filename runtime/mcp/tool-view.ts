/**
 * A tool as an MCP `Tool` object (`tools/list`, `describe_tool`): the formats layer's `mcpTool` (title, model-facing
 * input schema, output schema, declared annotations), typed as the SDK's `Tool`.
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpTool } from '../agent/formats/index.js';
import type { ToolDefinition } from '../types.js';

export function mcpToolView(tool: ToolDefinition): Tool {
  return mcpTool(tool) as Tool;
}
