import { describe, expect, it } from 'vitest';
import { unknownToolError } from '../../../runtime/executor/unknown-tool.js';
import { createToolRegistry } from '../../../runtime/executor/tool-registry.js';
import type { ToolDefinition } from '../../../runtime/types.js';

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

  it('makes no guess when nothing is close, and has no pointer for a name from the URL path', () => {
    const error = unknownToolError(registry, 'send_email');
    expect(error.message).toBe('No tool or alias named "send_email".');
    expect(error.details).toBeUndefined();
  });

  it('cuts a long name to 100 characters and copes with a name that is not a string', () => {
    expect(unknownToolError(registry, 'x'.repeat(500)).message).toBe(`No tool or alias named "${'x'.repeat(100)}".`);
    expect(unknownToolError(registry, 42, '/tool_name').message).toBe('No tool or alias named "".');
  });
});
