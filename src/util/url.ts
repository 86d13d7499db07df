/**
 * `s` without the slashes it ends with (a base URL as users type it, or its path). A loop,
 * not a regular expression: V8 compiles one as it first runs it, which costs every command
 * that sends a request.
 */
export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}
