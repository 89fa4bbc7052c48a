/** Tool execution and the tool catalog, in any format of runtime/agent/formats/ (the catalog by default). */
import type { FastifyInstance } from 'fastify';
import type { Connector, ExecuteToolInput } from '../../api.js';
import { formatTool, type ToolFormat } from '../../agent/formats/index.js';
import { selectTools } from '../../agent/tool-definitions.js';
import { unknownToolError } from '../../executor/unknown-tool.js';
import type { ConnectorName } from '../../types.js';
import { callOptions } from '../request-observability.js';
import { apiSchemas } from './schemas.js';

export function registerToolRoutes(api: FastifyInstance, deps: { connector: Connector }): void {
  const { tools } = deps.connector;
  const { executeToolBody, executeNamedToolBody, toolsQuery, toolQuery, toolParams } = apiSchemas();

  api.post<{ Body: ExecuteToolInput }>('/execute_tool', { schema: { body: executeToolBody } }, async (request) =>
    request.env.executeTool(request.body, callOptions(request)),
  );

  api.post<{ Params: { tool_name: string }; Body: Omit<ExecuteToolInput, 'tool_name'> }>(
    '/tools/:tool_name/execute',
    { schema: { params: toolParams, body: executeNamedToolBody } },
    async (request) => {
      // Checked here so the error has no /tool_name pointer: the name came from the path, not the body.
      if (!tools.resolve(request.params.tool_name)) throw unknownToolError(tools, request.params.tool_name);
      return request.env.executeTool({ ...request.body, tool_name: request.params.tool_name }, callOptions(request));
    },
  );

  api.get<{ Querystring: { connector?: ConnectorName; query?: string; format?: ToolFormat; identifier?: string; read_only?: 'true' | 'false' } }>(
    '/tools',
    { schema: { querystring: toolsQuery } },
    async (request) => {
      const { connector, query, identifier, read_only, format = 'catalog' } = request.query;
      // With a query, the ranked search's order (best first) and only what it matched.
      const ranked = query ? tools.search(query, { limit: Infinity }).map((hit) => tools.resolve(hit.name)!) : tools.list();
      const list = await selectTools(ranked, { connector, identifier, ...(read_only === undefined ? {} : { read_only: read_only === 'true' }) }, request.env);
      return { tools: list.map((tool) => formatTool(tool, format)) };
    },
  );

  api.get<{ Params: { tool_name: string }; Querystring: { format?: ToolFormat } }>(
    '/tools/:tool_name',
    { schema: { params: toolParams, querystring: toolQuery } },
    async (request) => {
      const tool = tools.resolve(request.params.tool_name);
      if (!tool) throw unknownToolError(tools, request.params.tool_name);
      return formatTool(tool, request.query.format ?? 'catalog');
    },
  );
}
