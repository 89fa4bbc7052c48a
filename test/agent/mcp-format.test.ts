import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools, toolsByName } from '../../generated/tools.gen.js';
import { mcpTool } from '../../runtime/agent/formats/index.js';

const VERSION_PARAMETERS = ['schema_version', 'tool_version', 'workspace_version'];

describe('mcp format', () => {
  it.each(tools.map((t) => [t.name, t] as const))('%s is a valid MCP Tool with exactly the fields tools/list needs', (_name, tool) => {
    const mcp = mcpTool(tool);
    expect(Object.keys(mcp).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
    // The MCP SDK's own schema of a Tool (what a client parses tools/list with); strict so no key slips through.
    expect(ToolSchema.strict().parse(mcp)).toEqual(mcp);
    expect(mcp.title).toBe(tool.title);
    expect(mcp.annotations).toEqual({
      title: tool.title,
      readOnlyHint: tool.annotations.readOnly,
      destructiveHint: tool.annotations.destructive,
      idempotentHint: tool.annotations.idempotent,
      openWorldHint: true,
    });
    const input = JSON.stringify(mcp.inputSchema);
    for (const p of VERSION_PARAMETERS) expect(mcp.inputSchema.properties).not.toHaveProperty(p);
    expect(input).not.toContain('"readOnly":true');
    for (const key of ['oneOf', 'anyOf', 'allOf', '$schema']) expect(mcp.inputSchema).not.toHaveProperty(key);
    // Both schemas compile as JSON Schema 2020-12 (an MCP client validates arguments and structuredContent with them).
    const ajv = new Ajv2020({ strict: false });
    ajv.addFormat('workspace-id', true).addFormat('spreadsheet-id', true).addFormat('document-id', true).addFormat('a1-range', true).addFormat('iana-time-zone', true).addFormat('json-string', true);
    for (const f of ['date-time', 'date', 'email', 'uri']) ajv.addFormat(f, true);
    expect(() => ajv.compile(mcp.inputSchema)).not.toThrow();
    expect(() => ajv.compile(mcp.outputSchema)).not.toThrow();
  });

  it('takes the annotations from the spec, not from the HTTP method', () => {
    // Searches are POSTs that only read.
    for (const name of ['crm_contacts_search', 'workspace_search', 'workspace_database_query']) {
      expect(mcpTool(toolsByName.get(name)!).annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    expect(mcpTool(toolsByName.get('calendar_delete_event')!).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(mcpTool(toolsByName.get('calendar_create_event')!).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(mcpTool(toolsByName.get('docs_update_document')!).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  });

  it('keeps the version parameters in the catalog schema but not in the model-facing one', () => {
    const tool = toolsByName.get('workspace_page_create')!;
    expect(tool.versionParameters).toEqual(['workspace_version', 'schema_version', 'tool_version']);
    for (const p of tool.versionParameters) expect((tool.inputSchema.properties as Record<string, unknown>)[p]).toBeDefined();
    const mcp = mcpTool(tool);
    expect(Object.keys(mcp.inputSchema.properties as object)).not.toContain('_parent');
    expect(mcp.inputSchema.properties).toHaveProperty('database_id');
  });
});
