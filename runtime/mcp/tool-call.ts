/**
 * `tools/call` for one session: the call runs through the same executor as `POST /api/v1/execute_tool`
 * (`EnvironmentScope.executeTool`), with the session's identifier; the arguments are the tool's input and nothing
 * else, so no argument can name another user, connection or environment.
 *
 * Which connection: the session's only connection of the tool's connector; with several, the one where the user has an
 * ACTIVE account. When the user has no usable account, the result is an error carrying a fresh authorization link
 * for this identifier (made by `EnvironmentScope.authorizationLink`, the code path of
 * `POST /api/v1/connected_accounts/magic_link`), for the agent to hand to the user. So does a refusal for a missing
 * scope the provider names (`insufficient_scope` with `details.scopes_to_request`): the link asks for that scope on
 * top of the grant, which a session token cannot ask for itself.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Connector } from '../api.js';
import { ConnectorError, isConnectorError } from '../errors.js';
import type { AllowedTool, SessionScope } from './session-scope.js';
import { errorResult, successResult } from './tool-result.js';

/** Codes meaning "the user must (re)authorize this connection". */
const NEEDS_AUTHORIZATION = new Set(['account_not_found', 'reauthorization_required']);

async function chooseConnection(connector: Connector, scope: SessionScope, allowed: AllowedTool): Promise<string> {
  const [only, ...more] = allowed.connections;
  if (more.length === 0) return only!.name;
  const names = new Set(allowed.connections.map((c) => c.name));
  const active = (await connector.environment(scope.environmentId).listAccounts({ identifier: scope.identifier, status: 'ACTIVE' })).filter((a) =>
    names.has(a.connection_name),
  );
  if (active.length === 1) return active[0]!.connection_name;
  const listed = [...names].join(', ');
  throw new ConnectorError(
    'ambiguous_connection',
    active.length === 0
      ? `This session has several ${allowed.tool.connector} connections (${listed}) and the user is connected to none; the application should mint a session naming one connection.`
      : `The user is connected to several ${allowed.tool.connector} connections of this session (${listed}); the application should mint a session naming one connection.`,
  );
}

/** The scopes the executor says a step-up link should ask for (`details.scopes_to_request`), or none. */
function scopesToRequest(error: ConnectorError): string[] {
  const details = error.details as { scopes_to_request?: unknown } | undefined;
  return Array.isArray(details?.scopes_to_request) ? details.scopes_to_request.filter((s): s is string => typeof s === 'string') : [];
}

function resourceOf(error: ConnectorError): string {
  const resource = (error.details as { resource?: unknown } | undefined)?.resource;
  return typeof resource === 'string' ? ` (${resource})` : '';
}

export async function callTool(connector: Connector, scope: SessionScope, allowed: AllowedTool, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
  const env = connector.environment(scope.environmentId);
  let connectionName: string | undefined;
  try {
    connectionName = await chooseConnection(connector, scope, allowed);
    const { data } = await env.executeTool({ tool_name: allowed.tool.name, connection_name: connectionName, identifier: scope.identifier, tool_input: args }, options);
    return successResult(data);
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    if (connectionName === undefined) return errorResult(error);
    const scopes = error.code === 'insufficient_scope' ? scopesToRequest(error) : [];
    if (scopes.length > 0) {
      const link = await env.authorizationLink({ connection_name: connectionName, identifier: scope.identifier, scopes });
      return errorResult(
        {
          code: error.code,
          message: `The user's authorization does not cover this call${resourceOf(error)}. Ask the user to open authorization_url, which asks them to grant ${scopes.join(' ')}, then call the tool again.`,
          details: error.details,
          executionId: error.executionId,
        },
        { authorization_url: link.link, authorization_url_expires_at: link.expiry },
      );
    }
    if (!NEEDS_AUTHORIZATION.has(error.code)) return errorResult(error);
    const link = await env.authorizationLink({ connection_name: connectionName, identifier: scope.identifier });
    return errorResult(
      {
        code: error.code,
        message: `The user has not connected ${connectionName} (or must connect it again). Ask them to open authorization_url, then call the tool again.`,
        details: undefined,
        executionId: error.executionId,
      },
      { authorization_url: link.link, authorization_url_expires_at: link.expiry },
    );
  }
}
