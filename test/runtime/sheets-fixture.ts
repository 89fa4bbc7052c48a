import { afterAll, beforeAll } from 'vitest';
import type { ExecuteToolResult } from '../../runtime/api.js';
import { startHarness, type Harness } from './connector-harness.js';

export interface SpreadsheetFixture {
  /** The harness, once the suite has started (inside tests and hooks). */
  readonly harness: Harness;
  /** A Sheets tool call by the fixture's user on its spreadsheet: `spreadsheet_id` is filled in. */
  run(toolName: string, input: Record<string, unknown>): Promise<ExecuteToolResult>;
}

/**
 * For a suite of Sheets tool calls through the runtime to the sandbox: a harness with a `sheets` connection `sh`, the
 * user `ana` authorized on it, and a spreadsheet of these sheet titles created through `sheets_create_spreadsheet`,
 * started before the suite's tests and closed after.
 */
export function useSpreadsheet(title: string, sheetTitles: readonly string[]): SpreadsheetFixture {
  let harness: Harness | undefined;
  let spreadsheetId = '';
  const call = (tool_name: string, tool_input: Record<string, unknown>) => harness!.env.executeTool({ tool_name, connection_name: 'sh', identifier: 'ana', tool_input });
  beforeAll(async () => {
    harness = await startHarness();
    await harness.connection('sheets', 'sh');
    await harness.authorize('sh', 'ana');
    const made = await call('sheets_create_spreadsheet', { title, sheets: sheetTitles.map((t) => ({ properties: { title: t } })) });
    spreadsheetId = (made.data as { spreadsheetId: string }).spreadsheetId;
  });
  afterAll(() => harness?.close());
  return {
    get harness() {
      if (harness === undefined) throw new Error('the spreadsheet fixture is used before its suite started');
      return harness;
    },
    run: (toolName, input) => call(toolName, { spreadsheet_id: spreadsheetId, ...input }),
  };
}
