/**
 * The package's public entry point: a small, explicit surface. Internals (the HTTP layer, the OAuth protocol
 * pieces, the store's SQL) are not exported; import them from their modules only inside this repository.
 *
 * @example
 * import { createConnector, createToolClient } from 'agent-connector';
 * const connector = await createConnector({ baseUrl: 'http://localhost:3000' });
 * const env = connector.environment('env_dev');
 * const tools = createToolClient(env);
 * const { data } = await tools.calendar_list_events({}, { identifier: 'user-1' });
 */
export { createConnector } from './connector.js';
export { ConnectorError, ERROR_CATALOGUE, isConnectorError, type ErrorCode } from './errors.js';
export { startSandbox } from './sandbox/index.js';
export { createToolClient, type ToolClient, type ToolTransport, type ToolCallOptions } from '../generated/client.gen.js';
export type {
  AccountView,
  AuthorizationLink,
  AuthorizationLinkInput,
  ConnectionView,
  Connector,
  ConnectorOptions,
  CreateConnectionInput,
  EnvironmentScope,
  ExecuteToolInput,
  ExecuteToolResult,
  OAuthFlow,
  ProxyInput,
  ProxyResult,
  UpdateConnectionInput,
} from './api.js';
export type { AccountStatus, ConnectionOverrides } from './store/types.js';
export type { ConnectorDefinition, ConnectorName, HttpMethod, ToolDefinition, Violation } from './types.js';
export type * from '../generated/types.gen.js';
