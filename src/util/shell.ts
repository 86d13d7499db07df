// Writing a value into a command line a user can paste into a POSIX shell (hints that say
// which command to run next, the editor's command line).

/** `s` as one shell word: as it is when nothing in it is special, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
