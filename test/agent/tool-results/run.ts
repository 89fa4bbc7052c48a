/**
 * docs/agents.md's `run` (between the markers), as the application's code the per-API snippets beside it call. Only
 * compiled (`tsc`, and through the snippets' type tests); the same steps run in model-calls.test.ts on the sandbox.
 */
import type { HttpClient } from '../../../runtime/index.js';

declare const client: HttpClient;

// docs: from here
import { isConnectorError } from '../../../runtime/index.js';

/** What the model reads back: the tool's data, or the service's error body (`{error: {code, message, ...}}`). */
export async function run(tool_name: string, tool_input: Record<string, unknown>): Promise<{ failed: boolean; body: Record<string, unknown> }> {
  try {
    const { data } = await client.executeTool({ tool_name, identifier: 'user-42', tool_input });
    return { failed: false, body: data as Record<string, unknown> };   // every tool's result is a JSON object
  } catch (e) {
    if (!isConnectorError(e)) throw e;   // over HTTP a ServiceError, a ConnectorError too
    return { failed: true, body: { error: e.toJSON() } };
  }
}
// docs: to here
