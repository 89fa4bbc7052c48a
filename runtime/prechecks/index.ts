/**
 * The pre-checks a tool spec may name (`precheck: <name>`): asynchronous checks the executor runs after validation
 * and before building the request, which may read the upstream through the caller's account and refuse the input
 * (see {@link Precheck}). The generator checks every spec's `precheck` against this registry (an unknown name, a
 * tool of another connector, or a tool lacking a parameter the check reads is a spec error, with file and line) and
 * emits a direct reference: nothing is looked up by name at run time.
 *
 * Adding one: write it (one concept per file), register it here, document it in `docs/spec-format.md`.
 */
import type { ConnectorName } from '../types.js';
import { calendarEventLength } from './calendar-event-length.js';
import { sheetsLinkedTab } from './sheets-linked-tab.js';
import { workspaceColumns } from './workspace-columns.js';
import { workspacePageColumns } from './workspace-page-columns.js';

export { calendarEventLength, sheetsLinkedTab, workspaceColumns, workspacePageColumns };

export interface PrecheckInfo {
  /** The connector whose tools may use it. */
  connector: ConnectorName;
  /** Parameters a tool using it must declare. */
  parameters: readonly string[];
  /** Optional parameters it may fill in (resolved upstream), so a request may use them in its path. */
  provides?: readonly string[];
}

export const precheckRegistry: Readonly<Record<string, PrecheckInfo>> = {
  // A move by a new start alone keeps the event's length: it reads the event and provides end_datetime (a timed
  // start) or event_duration_days (a date alone: an all-day event keeps its number of days).
  calendarEventLength: {
    connector: 'calendar',
    parameters: ['calendar_id', 'event_id', 'start_datetime', 'end_datetime', 'event_duration_hour', 'event_duration_minutes', 'event_duration_days'],
    provides: ['end_datetime', 'event_duration_days'],
  },
  // A range naming no sheet, in a spreadsheet given by the address of a tab other than the first: it reads the tabs.
  sheetsLinkedTab: { connector: 'sheets', parameters: ['spreadsheet_id'] },
  // From Notion-Version 2025-09-03 it resolves the database's data source when the caller gives none.
  workspaceColumns: { connector: 'workspace', parameters: ['database_id'], provides: ['data_source_id'] },
  // The same column check for a page named by its id: it reads the page's parent, then that database's schema.
  workspacePageColumns: { connector: 'workspace', parameters: ['page_id', 'properties'] },
};
