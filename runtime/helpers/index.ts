/**
 * The helpers a tool's request mapping may call (`{ $call: name, args: [...] }` in a spec). The generator checks
 * every call against this registry (unknown name or wrong arity is a spec error, with file and line) and emits a
 * direct, typed call: nothing is looked up by name at run time.
 *
 * Adding a helper: write it (typed, pure, one concept per file), add it here with its arity, document it in
 * `docs/spec-format.md`.
 */
import { allDayEnd, allDayStart, attendees, conferenceDataVersion, eventEnd, meetConference, sendUpdates, statusEventProperties, timedEnd, timedStart, transparency } from './calendar.js';
import { parseJson, splitList, stringValues, timestampOrNow } from './values.js';
import { googleFileId } from './google-file-id.js';
import { workspaceId } from './workspace-id.js';
import { hostDataSourceParent, hostParent, pageParent } from './workspace-parent.js';
import { keyedObjects, member, mergeObjects, withDefault } from './objects.js';
import { calendarEventFilter } from './calendar-event-filter.js';
import { filterGroups } from './hubspot-filter-groups.js';
import { associatedWith, associations, dealPriority, dealProperties } from './crm.js';
import { propertyIds } from './workspace-property-ids.js';

export { attendees, conferenceDataVersion, eventEnd, meetConference, parseJson, sendUpdates, splitList, stringValues, timestampOrNow, transparency, workspaceId };
export { allDayEnd, allDayStart, associatedWith, associations, calendarEventFilter, timedEnd, timedStart, dealPriority, dealProperties, filterGroups, googleFileId, hostDataSourceParent, hostParent, keyedObjects, member, mergeObjects, pageParent, propertyIds, statusEventProperties, withDefault };

export interface HelperInfo {
  /** Number of arguments the mapping must pass (absent parameters are passed as undefined). */
  arity: number;
  /** Module the generated code imports it from, relative to `runtime/helpers/`. */
  module: string;
}

export const helperRegistry: Readonly<Record<string, HelperInfo>> = {
  workspaceId: { arity: 1, module: 'workspace-id.js' },
  googleFileId: { arity: 1, module: 'google-file-id.js' },
  eventEnd: { arity: 4, module: 'calendar.js' },
  attendees: { arity: 1, module: 'calendar.js' },
  transparency: { arity: 1, module: 'calendar.js' },
  sendUpdates: { arity: 1, module: 'calendar.js' },
  conferenceDataVersion: { arity: 1, module: 'calendar.js' },
  meetConference: { arity: 1, module: 'calendar.js' },
  allDayStart: { arity: 2, module: 'calendar.js' },
  timedStart: { arity: 2, module: 'calendar.js' },
  allDayEnd: { arity: 4, module: 'calendar.js' },
  timedEnd: { arity: 4, module: 'calendar.js' },
  statusEventProperties: { arity: 2, module: 'calendar.js' },
  splitList: { arity: 1, module: 'values.js' },
  parseJson: { arity: 1, module: 'values.js' },
  filterGroups: { arity: 1, module: 'hubspot-filter-groups.js' },
  dealPriority: { arity: 1, module: 'crm.js' },
  dealProperties: { arity: 1, module: 'crm.js' },
  associations: { arity: 4, module: 'crm.js' },
  associatedWith: { arity: 3, module: 'crm.js' },
  stringValues: { arity: 1, module: 'values.js' },
  timestampOrNow: { arity: 1, module: 'values.js' },
  pageParent: { arity: 1, module: 'workspace-parent.js' },
  hostParent: { arity: 2, module: 'workspace-parent.js' },
  hostDataSourceParent: { arity: 2, module: 'workspace-parent.js' },
  member: { arity: 2, module: 'objects.js' },
  mergeObjects: { arity: 2, module: 'objects.js' },
  withDefault: { arity: 2, module: 'objects.js' },
  keyedObjects: { arity: 2, module: 'objects.js' },
  propertyIds: { arity: 1, module: 'workspace-property-ids.js' },
  /** A response transform `(data, input) => data` (used as `response.transform`, not in a request mapping). */
  calendarEventFilter: { arity: 2, module: 'calendar-event-filter.js' },
};
