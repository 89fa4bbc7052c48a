/**
 * OpenAI Chat Completions function tool, non-strict (`format=openai`): the model-facing JSON Schema as it is. The
 * API takes any JSON Schema here but does not guarantee the arguments match it; use `openai-strict` for that.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
import type { JsonSchema } from '../../types.js';
import { modelDescription, modelInputSchema } from './model-schema.js';
import type { ToolSurface } from './surface.js';

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

export function openAiTool(tool: ToolSurface): OpenAiTool {
  return { type: 'function', function: { name: tool.name, description: modelDescription(tool), parameters: modelInputSchema(tool) } };
}
