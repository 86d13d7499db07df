// A short, stable, non-cryptographic hash for naming cache files: FNV-1a over UTF-16 code
// units. node:crypto would do it too, but loading it costs every command that reads a
// cache about a millisecond of start-up; these names guard nothing (the files say whose
// they are inside, and a collision only costs a cache miss).

/** FNV-1a, 32 bits, as 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
