// "Did you mean …?": the known names closest to a mistyped one.

/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Up to `max` candidates close to `input` (case-insensitive; of names that differ only in
 * case, the first), closest first: those within an edit distance of a third of the longer
 * name (at least 2), or where one contains the other (3 characters or more).
 */
export function closest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    const hay = name.toLowerCase();
    if (seen.has(hay)) continue;
    seen.add(hay);
    const distance = editDistance(needle, hay);
    const limit = Math.max(2, Math.floor(Math.max(needle.length, hay.length) / 3));
    if (distance <= limit) scored.push({ name, score: distance });
    else if (
      needle.length >= 3 &&
      hay.length >= 3 &&
      (hay.includes(needle) || needle.includes(hay))
    ) {
      scored.push({ name, score: limit + 1 });
    }
  }
  scored.sort((x, y) => x.score - y.score || x.name.localeCompare(y.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** `Did you mean "a" or "b"?`, or undefined when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const near = closest(input, candidates);
  if (near.length === 0) return undefined;
  const quoted = near.map((n) => `"${n}"`);
  const list =
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return `Did you mean ${list}?`;
}
