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
