// Counts in messages for people agree with their number: "1 contact", "3 contacts",
// "2 identities", "1 item", "1,000 rows".

/** `word` as it reads after `n`: itself for one, else its plural (`y` after a consonant becomes `ies`). */
export function noun(n: number, word: string): string {
  if (n === 1) return word;
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}

/** `n` and the word that agrees with it, the number with thousands separators. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${noun(n, word)}`;
}
