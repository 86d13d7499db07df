// Small text checks done with loops, not regular expressions, on the paths every command
// takes: V8 compiles a regular expression as it first runs it (and again, to machine code,
// as it runs it a second time), ~0.1 ms each, which a one-request command pays for every
// one it meets. A regular expression still does the rewriting where there is some to do.

/**
 * `s` without the slashes it ends with (a base URL as users type it, or its path).
 */
export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}

/** Whether `text` has any of the characters of `chars`. */
export function hasAnyOf(text: string, chars: string): boolean {
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i]!)) return true;
  return false;
}
