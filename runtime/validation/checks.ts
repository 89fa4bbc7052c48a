/**
 * Structural checks a tool's `check` rule may name (`check: {parameter, with}` in a spec): each takes the parameter's
 * value and its JSON pointer and returns every violation. The generator refuses a name not exported here and emits a
 * direct call in the validator; nothing is looked up by name at run time. The validator passes the whole input as a
 * third argument, for a rule that depends on another parameter (a check that does not need it leaves it out).
 */
import type { Violation } from '../types.js';

/** What a check is called with; one of two parameters is one too. */
export type Check = (value: unknown, pointer: string, input: Record<string, unknown>) => Violation[];

export { checkHubspotFilterGroups as hubspotFilterGroups } from '../helpers/hubspot-filter-groups.js';
export { checkHubspotPropertyList as hubspotPropertyList, checkHubspotPropertyMap as hubspotPropertyMap } from '../helpers/hubspot-property-names.js';
export { checkCompanyProperties as hubspotCompanyProperties, checkDealProperties as hubspotDealProperties } from '../helpers/crm.js';
export { checkAllDayLength as allDayLength, checkRecurrenceZone as recurrenceZone, checkStatusEventCalendar as statusEventCalendar, checkTimedLength as timedLength, checkZoneOffset as eventZoneOffset } from '../helpers/calendar.js';
export { checkWorkspaceFilter as workspaceFilter } from '../helpers/workspace-filter.js';
