// Small text helpers that several layers share.

/** `s` without the slashes it ends with (a base URL as users type it, or its path). */
export function trimTrailingSlashes(s: string): string {
  return s.replace(/\/+$/, '');
}
