/**
 * HubSpot deal priority: the tools keep the specification's `HIGH`/`MEDIUM`/`LOW`, HubSpot's `hs_priority` options
 * are `high`/`medium`/`low` (labels High, Medium, Low; HubSpot's "default deal properties" knowledge base article and
 * the values its API returns), and any other value is refused with INVALID_OPTION.
 */
export function dealPriority(value?: 'HIGH' | 'MEDIUM' | 'LOW'): string | undefined {
  return value === undefined ? undefined : value.toLowerCase();
}
