/**
 * Short labels for configurations whose full names share most of their parts (legends, column
 * heads): the comma-separated parts that differ, e.g. "raid-dp 16, moderate layout (raid-dp)"
 * vs "raid10 8 (raid10)". Falls back to the full name, or "#n" when names are identical.
 */
export function shortNames(names: string[]): string[] {
  if (names.length < 2) return names;
  const parts = names.map((n) => n.split(/,\s*/));
  const common = new Set(parts[0]!.filter((p) => parts.every((ps) => ps.includes(p))));
  const out = parts.map((ps, i) => {
    const rest = ps.filter((p) => !common.has(p));
    return rest.length ? rest.join(', ') : names[i]!;
  });
  return out.map((n, i) => (out.indexOf(n) !== i || out.filter((x) => x === n).length > 1 ? `${n} #${i + 1}` : n));
}

/** Short labels for the configurations of a comparison, from the engine's words for each
 * (`configuration_words`: array, drive and layout per pool, flash cache): what tells them apart. */
export function columnLabels(words: string[]): string[] {
  return shortNames(words);
}
