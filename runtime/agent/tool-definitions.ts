/**
 * Tool definitions for an agent: the tools an application chose (by connector, by whether they only read, by the
 * connectors where one end user has an ACTIVE account), in one format. GET /api/v1/tools, the package's
 * `toolDefinitions` and the HTTP client's `toolDefinitions` all go through {@link selectTools}.
 */
import { tools as generatedTools } from '../../generated/tools.gen.js';
import type { EnvironmentScope } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { ConnectorName, ToolDefinition } from '../types.js';
import { formatTool, type ToolDefinitionFor, type ToolFormat } from './formats/index.js';

export interface ToolSelection {
  /** Only this connector's tools. */
  connector?: ConnectorName;
  /** true: only the tools that only read; false: only the tools that write. */
  read_only?: boolean;
  /** Only the tools of connectors where this end user has an ACTIVE connected account. */
  identifier?: string;
}

/** The tools that match `selection`, in catalog order. `identifier` needs the environment whose accounts count. */
export async function selectTools(
  tools: readonly ToolDefinition[],
  selection: ToolSelection,
  environment?: Pick<EnvironmentScope, 'listAccounts'>,
): Promise<ToolDefinition[]> {
  let active: ReadonlySet<ConnectorName> | undefined;
  if (selection.identifier !== undefined) {
    if (!environment) throw new ConnectorError('invalid_request', 'identifier needs an environment to look its accounts up in.');
    const accounts = await environment.listAccounts({ identifier: selection.identifier, status: 'ACTIVE' });
    active = new Set(accounts.map((a) => a.connector));
  }
  return tools.filter(
    (tool) =>
      (selection.connector === undefined || tool.connector === selection.connector) &&
      (selection.read_only === undefined || tool.annotations.readOnly === selection.read_only) &&
      (active === undefined || active.has(tool.connector)),
  );
}

export interface ToolDefinitionsOptions extends ToolSelection {
  /** Where `identifier`'s accounts are looked up: `connector.environment(id)`. */
  environment?: Pick<EnvironmentScope, 'listAccounts'>;
  /** The tools to choose from; every generated tool by default. */
  tools?: readonly ToolDefinition[];
}

/**
 * Every selected tool in `format` (see runtime/agent/formats/), e.g. `await toolDefinitions('openai-strict',
 * { identifier: 'user-1', environment: connector.environment('env_dev') })` for the `tools` of a Chat Completions
 * request.
 */
export async function toolDefinitions<F extends ToolFormat>(format: F, options: ToolDefinitionsOptions = {}): Promise<ToolDefinitionFor<F>[]> {
  const { environment, tools = generatedTools, ...selection } = options;
  return (await selectTools(tools, selection, environment)).map((tool) => formatTool(tool, format));
}
