import { afterAll, beforeAll, expect } from 'vitest';
import type { ExecuteToolResult } from '../../runtime/api.js';
import { startHarness, type Harness } from './connector-harness.js';

export interface SpreadsheetFixture {
  /** The harness, once the suite has started (inside tests and hooks). */
  readonly harness: Harness;
  /** A Sheets tool call by the fixture's user on its spreadsheet: `spreadsheet_id` is filled in. */
  run(toolName: string, input: Record<string, unknown>): Promise<ExecuteToolResult>;
  /** The message of a range the a1-range format refused, after checking that it is the one violation and nothing was sent. */
  rangeRefusal(toolName: string, input: Record<string, unknown>): Promise<string>;
}

/** How every a1-range refusal begins; what follows says what was wrong and what to send. */
export const A1_SHAPE = "range must be an A1 range, e.g. Sheet1!A1:C10 or 'My Sheet'!A:C";

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
  const run = (toolName: string, input: Record<string, unknown>) => call(toolName, { spreadsheet_id: spreadsheetId, ...input });
  return {
    get harness() {
      if (harness === undefined) throw new Error('the spreadsheet fixture is used before its suite started');
      return harness;
    },
    run,
    async rangeRefusal(toolName, input) {
      harness!.sandbox.control.clearRequests();
      const error = await run(toolName, input).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_input' });
      expect(harness!.sandbox.control.requests()).toHaveLength(0);
      const violations = (error as { details: { violations: Array<{ pointer: string; message: string }> } }).details.violations;
      expect(violations.map((v) => v.pointer)).toEqual(['/range']);
      return violations[0]!.message;
    },
  };
}
