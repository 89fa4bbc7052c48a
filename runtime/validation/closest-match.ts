/**
 * The known name closest to a mistyped one, for every "did you mean" message (a tool name, a parameter, a workspace
 * column): a case-insensitive equal first (the most common slip, `status` for `Status`), else the one at the smallest
 * edit distance, if that is at most `maxDistance`: by default a third of the name's length (at least 1), so a short
 * name is not matched to an unrelated one.
 */
export function closestMatch(wanted: string, known: Iterable<string>, maxDistance = Math.max(1, Math.floor(wanted.length / 3))): string | undefined {
  const lower = wanted.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return bestDistance <= maxDistance ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
