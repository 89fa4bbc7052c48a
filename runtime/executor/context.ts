/** What the executor and the proxy share: the store, the upstream client, the refresher and the definitions. */
import type { ExecutionScope } from '../executions/execution-tracker.js';
import type { ConnectionOverridePolicy } from '../connection-override-policy.js';
import type { UpstreamClient } from '../http/client.js';
import type { RefreshCoordinator } from '../oauth/refresh.js';
import type { Store } from '../store/types.js';
import type { ConnectorDefinition, ConnectorName } from '../types.js';
import type { LookupCache } from './lookup-cache.js';
import type { PrecheckCache } from './precheck-cache.js';
import type { TokenRedactions } from './token-redactions.js';
import type { ToolRegistry } from './tool-registry.js';

export interface RuntimeLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

export interface RuntimeContext {
  store: Store;
  http: UpstreamClient;
  refresher: RefreshCoordinator;
  tools: ToolRegistry;
  cache: LookupCache;
  /** What tool pre-checks cache per account (e.g. database schemas). */
  prechecks: PrecheckCache;
  /** What answers and error bodies are scrubbed of, built once per token set. */
  redactions: TokenRedactions;
  /** This connector's policy on connection overrides, checked again at every use of a stored one. */
  overridePolicy: ConnectionOverridePolicy;
  connectorFor(name: ConnectorName): ConnectorDefinition;
  now: () => number;
  logger?: RuntimeLogger;
  /** The call in progress, as the execution history sees it: the send path notes the connection and each answer. */
  execution?: ExecutionScope;
}
