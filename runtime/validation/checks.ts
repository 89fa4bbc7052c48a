/**
 * Structural checks a tool's `check` rule may name (`check: {parameter, with}` in a spec): each takes the parameter's
 * value and its JSON pointer and returns every violation. The generator refuses a name not exported here and emits a
 * direct call in the validator; nothing is looked up by name at run time.
 */
export { checkHubspotFilterGroups as hubspotFilterGroups } from '../helpers/hubspot-filter-groups.js';
export { checkDealProperties as hubspotDealProperties } from '../helpers/crm.js';
