const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HTTP_ADDRESS = /^https?:\/\//i;
/** What the WHATWG URL parser strips from an address before parsing it (tab and newlines anywhere, C0/space at the end). */
const URL_NOISE = /[\t\n\r]/;
const URL_NOISE_ALL = /[\t\n\r]/g;

/**
 * Normalizes a workspace (Notion) id to the hyphenated 8-4-4-4-12 form. Accepts a hyphenated UUID, a bare 32-hex id,
 * or a page/database address whose path ends in the 32-hex id (`https://www.notion.so/Title-<32hex>?v=...`).
 * The id is derived from the last 32 hex characters, as the service specification describes.
 * Returns the input unchanged when it is none of these (the validator's `workspace-id` format refuses such input).
 */
export function workspaceId(id: string): string {
  if (id.length === 36 && UUID.test(id)) return id.toLowerCase();
  const s = clean(id);
  const at = idStart(s);
  if (at === -1) return id;
  let h = '';
  for (let i = at; h.length < 32; i++) if (s.charCodeAt(i) !== 0x2d) h += s[i];
  h = h.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** True when {@link workspaceId} can normalize the value. Used by the `workspace-id` validator format. */
export function isWorkspaceId(value: string): boolean {
  // A hyphenated UUID is 32 hex digits with hyphens, so the general case covers it.
  return idStart(clean(value)) !== -1;
}

/** An address without the tabs and newlines the URL parser drops (rare: tested before anything is copied). */
function clean(id: string): string {
  return URL_NOISE.test(id) && HTTP_ADDRESS.test(id) ? id.replace(URL_NOISE_ALL, '') : id;
}

/**
 * Where the id's 32 hex digits (hyphens between them skipped) start in `id`, or -1. Addresses are cut by hand rather
 * than with `new URL()`, which was most of a workspace tool's validation time: only the path matters, and in it only
 * the last segment, since `/` is not a hex digit. What the URL parser would do to that segment is kept: the query
 * and fragment go, `\` separates segments like `/`, trailing spaces and control characters are trimmed (tabs and
 * newlines, which the parser drops, are gone already: see `clean`).
 */
function idStart(id: string): number {
  let end = id.length;
  let start = 0;
  if (HTTP_ADDRESS.test(id)) {
    while (end > 0 && id.charCodeAt(end - 1) <= 0x20) end--;
    // After `https://` the URL parser skips any further `/` or `\` before the host.
    let i = id.indexOf(':') + 3;
    while (i < end && isSlash(id.charCodeAt(i))) i++;
    const q = id.indexOf('?', i);
    if (q !== -1 && q < end) end = q;
    const h = id.indexOf('#', i);
    if (h !== -1 && h < end) end = h;
    // The host runs to the first separator; an address with no path has no id.
    let path = i;
    while (path < end && !isSlash(id.charCodeAt(path))) path++;
    if (path === end) return -1;
    start = path;
  }
  // Backwards from the end of the last segment: 32 hex digits, hyphens skipped, and nothing else.
  let count = 0;
  for (let i = end - 1; i >= start; i--) {
    const c = id.charCodeAt(i);
    if (c === 0x2d) continue;
    if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) return -1;
    if (++count === 32) return i;
  }
  return -1;
}

function isSlash(c: number): boolean {
  return c === 0x2f || c === 0x5c;
}
