/**
 * Presence rules (exactly-one-of, required-if, ...) as a TypeScript union of object types, so that breaking a rule
 * is a type error. Every assignment of present/absent to the parameters the rules mention is tried; the ones the
 * rules allow become branches, and branches that differ in one parameter only are merged into "optional".
 */

export type Presence = 'present' | 'absent' | 'optional';

export type PresenceRule =
  | { kind: 'exactly_one_of' | 'at_most_one_of' | 'at_least_one_of'; params: string[] }
  | { kind: 'required_if' | 'forbidden_if'; parameter: string; present: string };

/** Above this many rule parameters the union would be too large to read; the plain type is used instead. */
const MAX_VARS = 8;

/**
 * The branches of the union, each a map from rule parameter to its presence; undefined when no union is needed
 * (no rules, or the rules constrain nothing beyond `required`).
 */
export function presenceBranches(rules: readonly PresenceRule[], required: ReadonlySet<string>, order: readonly string[]): Array<Map<string, Presence>> | undefined {
  const involved = new Set<string>();
  for (const r of rules) {
    if ('params' in r) r.params.forEach((p) => involved.add(p));
    else {
      involved.add(r.parameter);
      involved.add(r.present);
    }
  }
  const vars = order.filter((p) => involved.has(p));
  if (vars.length === 0 || vars.length > MAX_VARS) return undefined;
  let branches: Presence[][] = [];
  for (let mask = 0; mask < 1 << vars.length; mask++) {
    const has = (p: string) => (mask & (1 << vars.indexOf(p))) !== 0;
    if (vars.some((v) => required.has(v) && !has(v))) continue;
    if (rules.every((r) => allows(r, has))) branches.push(vars.map((_, i) => ((mask & (1 << i)) !== 0 ? 'present' : 'absent')));
  }
  branches = merge(branches);
  const plain = branches.length === 1 && branches[0]!.every((v, i) => v === 'optional' || (v === 'present' && required.has(vars[i]!)));
  if (plain || branches.length === 0) return undefined;
  return branches.map((b) => new Map(vars.map((v, i) => [v, b[i]!])));
}

function allows(r: PresenceRule, has: (p: string) => boolean): boolean {
  switch (r.kind) {
    case 'exactly_one_of':
      return r.params.filter(has).length === 1;
    case 'at_most_one_of':
      return r.params.filter(has).length <= 1;
    case 'at_least_one_of':
      return r.params.filter(has).length >= 1;
    case 'required_if':
      return !has(r.present) || has(r.parameter);
    case 'forbidden_if':
      return !has(r.present) || !has(r.parameter);
  }
}

/** Merges pairs differing in exactly one position (present vs absent) into `optional`, until nothing merges. */
function merge(input: Presence[][]): Presence[][] {
  let branches = input;
  for (;;) {
    let merged = false;
    outer: for (let i = 0; i < branches.length; i++) {
      for (let j = i + 1; j < branches.length; j++) {
        const a = branches[i]!;
        const b = branches[j]!;
        const diff = a.map((v, k) => (v === b[k] ? -1 : k)).filter((k) => k >= 0);
        if (diff.length === 1) {
          const k = diff[0]!;
          const pair = new Set([a[k], b[k]]);
          if (pair.has('present') && pair.has('absent')) {
            const m = [...a];
            m[k] = 'optional';
            branches = [...branches.slice(0, i), m, ...branches.slice(i + 1, j), ...branches.slice(j + 1)];
            merged = true;
            break outer;
          }
        }
      }
    }
    if (!merged) return branches;
  }
}
