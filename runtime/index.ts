/**
 * The package's public entry point: a small, explicit surface. Internals (the HTTP layer, the OAuth protocol
 * pieces, the store's SQL) are not exported; import them from their modules only inside this repository.
 *
 * Two ways to use it: in-process with `createConnector` (this process holds the store and the encryption key), or
 * against a running service with `createClient` (application credentials over HTTP). Both give an object that
 * `createToolClient` turns into typed tool functions.
 *
 * @example
 * import { createClient, createToolClient } from 'agent-connector';
 * const client = createClient({ envUrl: 'http://127.0.0.1:3000', clientId: process.env.AGENT_CONNECTOR_CLIENT_ID!, clientSecret: process.env.AGENT_CONNECTOR_CLIENT_SECRET! });
 * const tools = createToolClient(client);
 * const { data } = await tools.calendar_list_events({}, { identifier: 'user-1' });
 *
 * @example
 * import { createConnector, createToolClient } from 'agent-connector';
 * const connector = await createConnector({ baseUrl: 'http://localhost:3000' });
 * const tools = createToolClient(connector.environment('env_dev'));
 *
 * The sandbox (local fakes of the five providers, a development and test aid) is not part of this entry point:
 * import it from `agent-connector/sandbox`.
 */
export { createConnector } from './connector.js';
export { createClient, ServiceError, type ClientOptions, type HttpClient, type EnvironmentApi, type CatalogTool, type ListedTool, type ListToolsQuery } from './client/index.js';
export { ConnectorError, ERROR_CATALOGUE, isConnectorError, type ErrorCode, type ErrorSide } from './errors.js';
export { toolDefinitions, selectTools, type ToolDefinitionsOptions, type ToolSelection } from './agent/tool-definitions.js';
export {
  formatTool,
  TOOL_FORMATS,
  type AnthropicTool,
  type CatalogEntry,
  type GeminiFunctionDeclaration,
  type McpTool,
  type McpToolAnnotations,
  type OpenAiResponsesTool,
  type OpenAiStrictTool,
  type OpenAiTool,
  type ToolDefinitionFor,
  type ToolFormat,
  type ToolFormatDefinitions,
} from './agent/formats/index.js';
export { createToolClient, type ToolClient, type ToolTransport, type ToolCallOptions } from '../generated/client.gen.js';
export type {
  AccountView,
  AuthorizationLink,
  AuthorizationLinkInput,
  CallOptions,
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
