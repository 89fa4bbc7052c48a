/**
 * Which provider account a token response is for, by the connector's `accountIdentity` pointers into its kept
 * `providerInfo` (Notion's workspace and authorizing user, HubSpot's hub). A re-authorization is refused when the new
 * answer names another account than the stored one: a link is a bearer credential until a browser continues it,
 * and this keeps a leaked one from swapping the user's account for someone else's.
 */

/** The value at an RFC 6901 pointer, or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The pointers whose stored value the new answer does not repeat. A pointer with nothing stored (an account saved
 * before the provider sent it) pins nothing; one stored and now absent counts as changed, so a missing value
 * never passes for a match.
 */
export function changedAccountIdentity(pointers: readonly string[], stored: Record<string, unknown>, fresh: Record<string, unknown>): string[] {
  return pointers.filter((pointer) => {
    const before = valueAt(stored, pointer);
    if (before === undefined || before === null) return false;
    return JSON.stringify(before) !== JSON.stringify(valueAt(fresh, pointer));
  });
}
