/**
 * A request value as a fake's refusal quotes it: a string as it is, anything else as JSON, as Google's parser quotes a
 * value it refuses (`..., {"a":1}`) and HubSpot an association type (`HUBSPOT_DEFINED=279`, `null=3`); never
 * `[object Object]`. For values that were given (an absent one is refused as missing, or passed as null to be quoted).
 */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
