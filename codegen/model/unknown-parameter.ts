import { closestMatch } from '../../runtime/validation/closest-match.js';
import type { ParameterSpec } from '../load/spec-types.js';

/**
 * What a spec error says after "names unknown parameter 'x'" (a rule, a mapping, a path placeholder): the declared
 * parameter it is near, if one is (`: did you mean 'deal_id'?`, the same closeness the validators use for callers),
 * then the tool's parameters, in the spec's order, without the host-computed ones, which none of these may name.
 * `more` is appended inside the parentheses.
 */
export function unknownParameterHint(name: string, params: Readonly<Record<string, ParameterSpec>>, more?: string): string {
  const known = Object.keys(params).filter((k) => params[k]!.host_computed !== true);
  const near = closestMatch(name, known);
  const list = known.length === 0 ? 'the tool declares no parameters' : `the tool's parameters: ${known.join(', ')}`;
  return `${near === undefined ? '' : `: did you mean '${near}'?`} (${list}${more === undefined ? '' : `; ${more}`})`;
}
