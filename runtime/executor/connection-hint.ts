/**
 * What a `connection_not_found` adds after naming the connection that does not exist: the environment's connection
 * it probably misspells (closestMatch's rule, as for tool and parameter names), else the connections there are, so
 * that a caller can correct the name from the answer alone. Only the caller's own environment is ever listed.
 */
import { closestMatch } from '../validation/closest-match.js';

/** Connection names listed when none is close: enough for any real environment, bounded for a large one. */
const MAX_LISTED = 20;

export function connectionNameHint(name: string, names: readonly string[]): string {
  if (names.length === 0) return ' This environment has no connections yet.';
  const near = closestMatch(name, names);
  if (near !== undefined) return ` Did you mean "${near}"?`;
  const sorted = [...names].sort();
  const more = sorted.length > MAX_LISTED ? ` and ${sorted.length - MAX_LISTED} more` : '';
  return ` Its connections: ${sorted.slice(0, MAX_LISTED).join(', ')}${more}.`;
}
