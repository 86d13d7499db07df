// Counts in messages for people agree with their number: "1 contact", "3 contacts",
// "2 identities", "1 item", "1,000 rows".

/** `word` as it reads after `n`: itself for one, else its plural (`y` after a consonant becomes `ies`). */
export function noun(n: number, word: string): string {
  if (n === 1) return word;
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}

/** `n` and the word that agrees with it, the number with thousands separators. */
export function plural(n: number, word: string): string {
  return `${thousands(n)} ${noun(n, word)}`;
}

/**
 * A count with thousands separators ("1,000"), as toLocaleString('en-US') writes it, without
 * loading ICU's locale data (25 ms of the first call, a third of a command's start-up).
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
