/**
 * `agent-connector mcp` against a running service: stdio on one side (the local agent host), the service's `/mcp`
 * over Streamable HTTP on the other, messages passed through unchanged. The command mints its own session with the
 * application's credentials (`mint`), so the host config holds no session token, and mints a fresh one when the
 * service answers 401 (the session expired or was revoked), retrying that message once.
 *
 * The service is stateless (no transport session), so a new HTTP transport per session is all a re-mint needs.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface MintedSession {
  url: string;
  token: string;
}

export interface BridgeOptions {
  /** The host's side: a `StdioServerTransport` in the command, anything in tests. */
  local: Transport;
  mint: () => Promise<MintedSession>;
  log: (message: string) => void;
}

/** Runs until the local side closes; resolves then. */
export async function runBridge(options: BridgeOptions): Promise<void> {
  const { local, mint, log } = options;
  let remote: StreamableHTTPClientTransport | undefined;
  let protocolVersion: string | undefined;
  /** Requests sent upstream whose answer is still due, by id: an `initialize` answer carries the protocol version. */
  const initializeIds = new Set<string | number>();

  const connect = async (): Promise<StreamableHTTPClientTransport> => {
    const session = await mint();
    const transport = new StreamableHTTPClientTransport(new URL(session.url), { requestInit: { headers: { authorization: `Bearer ${session.token}` } } });
    transport.onmessage = (message) => {
      if (isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') {
          protocolVersion = version;
          transport.setProtocolVersion(version);
        }
      }
      void local.send(message).catch((error: unknown) => log(`could not write to stdout: ${(error as Error).message}`));
    };
    transport.onerror = (error) => log(`service: ${error.message}`);
    await transport.start();
    if (protocolVersion !== undefined) transport.setProtocolVersion(protocolVersion);
    return transport;
  };

  const forward = async (message: JSONRPCMessage): Promise<void> => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    for (let attempt = 0; ; attempt++) {
      try {
        remote ??= await connect();
        await remote.send(message);
        return;
      } catch (error) {
        if (attempt === 0 && error instanceof StreamableHTTPError && error.code === 401) {
          log('the MCP session was refused (expired or revoked); minting a new one');
          const old = remote;
          remote = undefined;
          await old?.close().catch(() => undefined);
          continue;
        }
        log(`could not reach the service: ${(error as Error).message}`);
        if (isJSONRPCRequest(message)) {
          await local.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: `agent-connector: ${(error as Error).message}` } });
        }
        return;
      }
    }
  };

  // Messages go upstream one at a time, in the order the host sent them (an initialize before its notification).
  let queue = Promise.resolve();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
  });
  local.onmessage = (message) => {
    queue = queue.then(() => forward(message));
  };
  local.onerror = (error) => log(`stdin: ${error.message}`);
  await local.start();
  await closed;
  await queue;
  await remote?.close().catch(() => undefined);
}
