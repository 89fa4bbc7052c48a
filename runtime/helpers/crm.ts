import type { Violation } from '../types.js';

/** The `hs_priority` values a deal update takes: the specification's, HubSpot's own, and the two that clear it. */
const DEAL_PRIORITIES: readonly unknown[] = ['HIGH', 'MEDIUM', 'LOW', 'high', 'medium', 'low', '', null];

/**
 * HubSpot deal priority: the tools keep the specification's `HIGH`/`MEDIUM`/`LOW`, HubSpot's `hs_priority` options
 * are `high`/`medium`/`low` (labels High, Medium, Low; HubSpot's "default deal properties" knowledge base article and
 * the values its API returns), and any other value is refused with INVALID_OPTION.
 */
export function dealPriority(value?: 'HIGH' | 'MEDIUM' | 'LOW'): string | undefined {
  return value === undefined ? undefined : value.toLowerCase();
}

/**
 * Deal properties to update, with an `hs_priority` given in the specification's `HIGH`/`MEDIUM`/`LOW` (as
 * `crm_deal_create` takes it) turned into HubSpot's option value by {@link dealPriority}; any other value, HubSpot's
 * own `high`/`medium`/`low` included, is left as it is.
 */
export function dealProperties(props?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (props === undefined) return undefined;
  const priority = props.hs_priority;
  return priority === 'HIGH' || priority === 'MEDIUM' || priority === 'LOW' ? { ...props, hs_priority: dealPriority(priority) } : props;
}

/**
 * The `check` rule of `crm_deal_update`'s `properties` (an open map, so its schema cannot name one key's values without
 * ceasing to be one for the model formats): an `hs_priority` that is none of {@link DEAL_PRIORITIES} is refused at
 * its pointer before anything is sent, as HubSpot would refuse it (INVALID_OPTION).
 */
export function checkDealProperties(value: unknown, pointer: string): Violation[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, 'hs_priority')) return [];
  if (DEAL_PRIORITIES.includes((value as Record<string, unknown>).hs_priority)) return [];
  const name = `${pointer.slice(1)}.hs_priority`;
  return [{ pointer: `${pointer}/hs_priority`, message: `${name} must be one of: HIGH, MEDIUM, LOW (HubSpot's high, medium, low too; "" or null clears it)`, keyword: 'enum' }];
}
