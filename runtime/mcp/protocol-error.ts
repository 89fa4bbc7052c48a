/**
 * A JSON-RPC error answer (an unknown tool is `-32602`, invalid params) whose wire `message` is our text alone.
 *
 * The SDK's `McpError` writes `MCP error <code>: ` into its own message, and the server sends a thrown error's
 * `message` as the answer's (`Protocol` answers `{code, message: error.message, data}` for any error with an integer
 * `code`); the SDK client then builds its own `McpError` from that answer and adds the prefix again, so a host showed
 * `MCP error -32602: MCP error -32602: Unknown tool ...`, and clients of other SDKs showed our text behind a prefix
 * that is not ours. This subclass keeps `instanceof McpError` (the SDK passes an `McpError` through where it turns
 * any other error into `InternalError`) and keeps the message to the text.
 *
 * @see https://www.jsonrpc.org/specification#error_object
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

export class ProtocolError extends McpError {
  constructor(code: number, text: string, data?: unknown) {
    super(code, text, data);
    this.message = text;
    this.name = 'ProtocolError';
  }
}
