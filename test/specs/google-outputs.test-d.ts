/**
 * Type-level tests: the output type generated for every Google tool (calendar_*, sheets_*, docs_*) names only fields
 * the official Google SDK types have for that response (@googleapis/calendar, sheets, docs), at the top and in the
 * nested objects and array items it describes, with types the SDK admits; a misspelt or invented field fails the
 * typecheck with its path (checked by `vitest --typecheck` and by `tsc`).
 */
import type { calendar_v3 } from '@googleapis/calendar';
import type { docs_v1 } from '@googleapis/docs';
import type { sheets_v4 } from '@googleapis/sheets';
import { describe, expectTypeOf, it } from 'vitest';
import type { CalendarEvent, DocsDocument, SheetsSpreadsheet, SheetsUpdateValuesResponse, SheetsValueRange, ToolName, ToolOutputs } from '../../generated/types.gen.js';
import type { InventedFields } from './upstream-keys.js';

/** Each Google tool's upstream response, as the SDK types it. */
interface Upstream {
  calendar_create_event: calendar_v3.Schema$Event;
  calendar_get_event_by_id: calendar_v3.Schema$Event;
  calendar_update_event: calendar_v3.Schema$Event;
  calendar_list_events: calendar_v3.Schema$Events;
  calendar_list_calendars: calendar_v3.Schema$CalendarList;
  calendar_free_busy: calendar_v3.Schema$FreeBusyResponse;
  /** events.delete answers 204 with no body. */
  calendar_delete_event: Record<string, never>;
  sheets_create_spreadsheet: sheets_v4.Schema$Spreadsheet;
  sheets_read_spreadsheet: sheets_v4.Schema$Spreadsheet;
  sheets_get_values: sheets_v4.Schema$ValueRange;
  sheets_update_values: sheets_v4.Schema$UpdateValuesResponse;
  sheets_append_values: sheets_v4.Schema$AppendValuesResponse;
  sheets_add_sheet: sheets_v4.Schema$BatchUpdateSpreadsheetResponse;
  sheets_clear_values: sheets_v4.Schema$BatchClearValuesResponse;
  docs_create_document: docs_v1.Schema$Document;
  docs_read_document: docs_v1.Schema$Document;
  docs_update_document: docs_v1.Schema$BatchUpdateDocumentResponse;
}

type Invented<N extends keyof Upstream> = InventedFields<ToolOutputs[N], Upstream[N]>;
/** Compiles only when no field is invented; otherwise the error names each one by its path, e.g. `"items.attendees.mail"`. */
type NoneOf<Paths extends never> = Paths;

describe('Google tool outputs name only fields of the SDK response types', () => {
  // A new tool needs no entry here to pass (a tool is its YAML file); naming its SDK response type adds this check.
  it('names tools that exist', () => {
    expectTypeOf<keyof Upstream>().toExtend<ToolName>();
  });

  it('calendar', () => {
    expectTypeOf<NoneOf<Invented<'calendar_create_event'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'calendar_get_event_by_id'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'calendar_update_event'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'calendar_list_events'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'calendar_list_calendars'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'calendar_delete_event'>>>().toEqualTypeOf<never>();
  });

  it('sheets', () => {
    expectTypeOf<NoneOf<Invented<'sheets_create_spreadsheet'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_read_spreadsheet'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_get_values'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_update_values'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_append_values'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_add_sheet'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'sheets_clear_values'>>>().toEqualTypeOf<never>();
  });

  it('docs', () => {
    expectTypeOf<NoneOf<Invented<'docs_create_document'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'docs_read_document'>>>().toEqualTypeOf<never>();
    expectTypeOf<NoneOf<Invented<'docs_update_document'>>>().toEqualTypeOf<never>();
  });

  it('the outputs are deep: events, sheets and document content say what they hold', () => {
    type Event = NonNullable<ToolOutputs['calendar_list_events']['items']>[number];
    expectTypeOf<NonNullable<Event['start']>['dateTime']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<Event['attendees']>[number]['responseStatus']>().toEqualTypeOf<string | undefined>();
    type Sheet = NonNullable<ToolOutputs['sheets_read_spreadsheet']['sheets']>[number];
    expectTypeOf<NonNullable<NonNullable<Sheet['properties']>['gridProperties']>['rowCount']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ToolOutputs['sheets_get_values']['values']>().toEqualTypeOf<Array<Array<string | number | boolean>> | undefined>();
    type Element = NonNullable<NonNullable<ToolOutputs['docs_read_document']['body']>['content']>[number];
    type Run = NonNullable<NonNullable<NonNullable<Element['paragraph']>['elements']>[number]['textRun']>;
    expectTypeOf<Run['content']>().toEqualTypeOf<string | undefined>();
  });
});

describe('a shared schema is a named type, which the outputs that answer it use', () => {
  it('the Event, the Document, the Spreadsheet and the value responses', () => {
    expectTypeOf<ToolOutputs['calendar_get_event_by_id']>().toEqualTypeOf<CalendarEvent>();
    expectTypeOf<NonNullable<ToolOutputs['calendar_list_events']['items']>[number]>().toEqualTypeOf<CalendarEvent>();
    expectTypeOf<ToolOutputs['docs_read_document']>().toEqualTypeOf<DocsDocument>();
    expectTypeOf<ToolOutputs['sheets_create_spreadsheet']>().toEqualTypeOf<SheetsSpreadsheet>();
    expectTypeOf<ToolOutputs['sheets_get_values']>().toEqualTypeOf<SheetsValueRange>();
    expectTypeOf<NonNullable<ToolOutputs['sheets_append_values']['updates']>>().toEqualTypeOf<SheetsUpdateValuesResponse>();
    // A read spreadsheet's sheets hold more than the shared Sheet: its type is written out.
    expectTypeOf<ToolOutputs['sheets_read_spreadsheet']>().not.toEqualTypeOf<SheetsSpreadsheet>();
  });
});

describe('InventedFields finds what the SDK type does not have', () => {
  type Open<T> = T & { [key: string]: unknown };
  it('a top-level field, a nested one, one in array items and one in map values', () => {
    expectTypeOf<InventedFields<Open<{ id?: string; attendes?: unknown[] }>, calendar_v3.Schema$Event>>().toEqualTypeOf<'attendes'>();
    expectTypeOf<InventedFields<Open<{ start?: Open<{ datetime?: string }> }>, calendar_v3.Schema$Event>>().toEqualTypeOf<'start.datetime'>();
    expectTypeOf<InventedFields<Open<{ attendees?: Array<Open<{ mail?: string }>> }>, calendar_v3.Schema$Event>>().toEqualTypeOf<'attendees.mail'>();
    expectTypeOf<InventedFields<Open<{ lists?: Record<string, Open<{ listProps?: unknown }>> }>, docs_v1.Schema$Document>>().toEqualTypeOf<'lists.*.listProps'>();
  });

  it('a field of the wrong type or array depth', () => {
    expectTypeOf<InventedFields<Open<{ sequence?: string }>, calendar_v3.Schema$Event>>().toEqualTypeOf<'sequence (type)'>();
    expectTypeOf<InventedFields<Open<{ recurrence?: string }>, calendar_v3.Schema$Event>>().toEqualTypeOf<'recurrence (array depth)'>();
    expectTypeOf<InventedFields<Open<{ values?: string[] }>, sheets_v4.Schema$ValueRange>>().toEqualTypeOf<'values (array depth)'>();
  });
});
