/**
 * The known name closest to a mistyped one, for every "did you mean" message (a tool name, a parameter, a workspace
 * column): a case-insensitive equal first (the most common slip, `status` for `Status`), else the one at the smallest
 * edit distance, if that is at most `maxDistance`: by default a third of the name's length (at least 1), so a short
 * name is not matched to an unrelated one.
 *
 * Every unknown key of a caller's input is looked up, so the cost is bounded by what could still match: a known name
 * whose length differs by more than the distance allowed is not compared, and a comparison stops once it cannot come
 * within that distance. A 1 MB key costs a length check per known name, not a million-row table.
 */
export function closestMatch(wanted: string, known: Iterable<string>, maxDistance = Math.max(1, Math.floor(wanted.length / 3))): string | undefined {
  const lower = wanted.toLowerCase();
  let best: string | undefined;
  // The distance a later name must beat (ties keep the first): within maxDistance to be a match at all.
  let limit = maxDistance;
  for (const k of known) {
    if (Math.abs(k.length - wanted.length) > limit) continue;
    const d = editDistanceWithin(lower, k.toLowerCase(), limit);
    if (d <= limit) {
      best = k;
      if (d === 0) break;
      limit = d - 1;
    }
  }
  return best;
}

/** Levenshtein distance, one row at a time; `limit + 1` as soon as every path is already longer than `limit`. */
function editDistanceWithin(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = new Uint32Array(b.length + 1);
  let row = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [prev, row] = [row, prev];
  }
  return prev[b.length]!;
}
