/** The HTTP client for a running agent-connector service. */
export { createClient, type ClientOptions, type HttpClient, type EnvironmentApi, type CatalogTool, type ListedTool, type ListToolsQuery } from './http-client.js';
export { ServiceError } from './errors.js';
