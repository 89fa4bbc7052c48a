/** The URL pieces every HTTP client method builds: a path segment and a query string. */

/** One path segment, escaped. */
export const seg = (value: string): string => encodeURIComponent(value);

/** `?a=1&b=x` from the defined parameters (numbers and booleans as their text), or '' when none is. */
export function queryString(params: object): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
