import type { ToolDefinition } from '../../types.js';

/** The fields of a tool definition the formats read: plain data, so a format is a pure function of it. */
export type ToolSurface = Pick<
  ToolDefinition,
  'name' | 'connector' | 'version' | 'aliases' | 'title' | 'description' | 'annotations' | 'inputSchema' | 'versionParameters' | 'ruleMessages' | 'outputSchema'
>;
