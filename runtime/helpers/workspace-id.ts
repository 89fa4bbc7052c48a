const HEX32 = /([0-9a-f]{32})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Normalizes a workspace (Notion) id to the hyphenated 8-4-4-4-12 form. Accepts a hyphenated UUID, a bare 32-hex id,
 * or a page/database address whose path ends in the 32-hex id (`https://www.notion.so/Title-<32hex>?v=...`).
 * The id is derived from the last 32 hex characters, as the service specification describes.
 * Returns the input unchanged when it is none of these (the validator's `workspace-id` format refuses such input).
 */
export function workspaceId(id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  let candidate = id;
  if (/^https?:\/\//i.test(id)) {
    try {
      candidate = new URL(id).pathname;
    } catch {
      return id;
    }
  }
  const m = HEX32.exec(candidate.replace(/-/g, ''));
  if (!m || !m[1]) return id;
  const h = m[1].toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** True when {@link workspaceId} can normalize the value. Used by the `workspace-id` validator format. */
export function isWorkspaceId(value: string): boolean {
  return UUID.test(workspaceId(value));
}
