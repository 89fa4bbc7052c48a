import { describe, expect, it } from 'vitest';
import { didYouMean, unknownToolError } from '../../../runtime/executor/unknown-tool.js';
import { createToolRegistry } from '../../../runtime/executor/tool-registry.js';
import type { ToolDefinition } from '../../../runtime/types.js';

/** What the ranked search reads of a tool besides its words: these are read-only lookups. */
const READ_ONLY = { readOnly: true, destructive: false, idempotent: true, openWorld: true };
const tool = (name: string, aliases: string[] = []) => ({ name, aliases }) as unknown as ToolDefinition;
const registry = createToolRegistry([tool('calendar_list_events', ['googlecalendar_list_events']), tool('calendar_list_calendars'), tool('crm_contacts_list')]);

describe('unknownToolError', () => {
  it('points at /tool_name and suggests the tool a typo meant', () => {
    const error = unknownToolError(registry, 'calendar_list_event', '/tool_name');
    expect(error).toMatchObject({ code: 'unknown_tool', status: 404 });
    expect(error.message).toBe('No tool or alias named "calendar_list_event". Did you mean "calendar_list_events"?');
    expect(error.details).toEqual({
      violations: [{ pointer: '/tool_name', message: 'tool_name "calendar_list_event" is not a tool or alias. Did you mean "calendar_list_events"?', keyword: 'not_found' }],
    });
  });

  it('suggests the tool of a near-miss alias, ignoring case', () => {
    expect(unknownToolError(registry, 'GoogleCalendar_List_Event').message).toContain('Did you mean "calendar_list_events"?');
  });

  it('names the tools that share the words of a name close to none, and makes no guess when none does', () => {
    // The ranked search reads names, titles, descriptions and parameters: give the three tools theirs.
    const described = (name: string, description: string) => ({ name, aliases: [], title: name, description, inputSchema: { type: 'object', properties: {} }, versionParameters: [], annotations: READ_ONLY }) as unknown as ToolDefinition;
    const tools = createToolRegistry([
      described('docs_read_document', 'Read a Google Docs document.'),
      described('docs_create_document', 'Create a Google Docs document.'),
      described('crm_contacts_list', 'List HubSpot contacts.'),
    ]);
    const reordered = unknownToolError(tools, 'docs_document_read', '/tool_name');
    expect(reordered.message).toBe('No tool or alias named "docs_document_read". Tools with these words: "docs_read_document", "docs_create_document".');
    expect(reordered.details).toEqual({ violations: [expect.objectContaining({ message: expect.stringContaining('Tools with these words: "docs_read_document"') })] });

    const error = unknownToolError(tools, 'send_fax');
    expect(error.message).toBe('No tool or alias named "send_fax".');
    expect(error.details).toBeUndefined();
  });

  it('suggests only tools among those given (an MCP session\'s own)', () => {
    const tools = createToolRegistry([tool('calendar_list_events'), tool('calendar_list_calendars')].map((t) => ({ ...t, title: t.name, description: '', inputSchema: { type: 'object', properties: {} }, versionParameters: [], annotations: READ_ONLY }) as unknown as ToolDefinition));
    expect(didYouMean(tools, 'calendar_list_event', new Set(['calendar_list_calendars']))).toBe(' Tools with these words: "calendar_list_calendars".');
    expect(didYouMean(tools, 'calendar_list_event')).toBe(' Did you mean "calendar_list_events"?');
  });

  it('cuts a long name to 100 characters and copes with a name that is not a string', () => {
    expect(unknownToolError(registry, 'x'.repeat(500)).message).toBe(`No tool or alias named "${'x'.repeat(100)}".`);
    expect(unknownToolError(registry, 42, '/tool_name').message).toBe('No tool or alias named "".');
  });
});
