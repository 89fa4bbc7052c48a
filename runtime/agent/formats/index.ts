/** Tool definitions in the shapes agent surfaces accept as they are (one file per format). */
export { mcpTool, type McpTool, type McpToolAnnotations, type ToolSurface } from './mcp.js';
export { modelInputSchema, withoutReadOnly } from './model-schema.js';
