// Random UUIDs (version 4) for the ids the sandbox makes by the thousand (records).
//
// crypto.randomUUID() joins its text from about twenty pieces, which V8 keeps as a tree of
// strings until something flattens it: several hundred bytes per id, kept for the record's
// whole life, slower to hash as a map key and to write as JSON. These ids are written as
// ASCII into a buffer and read back as one flat string of 36 characters.

import { randomFillSync } from 'node:crypto';

/** Random bytes for 256 ids, refilled when used up. */
const pool = Buffer.alloc(16 * 256);
let used = pool.length;
/** The text of one id: xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx. */
const text = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');
/** Where the two hex digits of each of the 16 bytes go in `text`. */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** A random UUID v4 in lower case, as crypto.randomUUID() gives, as one flat string. */
export function randomId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = pool[used + i]!;
    // Version 4 (random) and variant 10xx, as RFC 9562 sets them.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[AT[i]!] = HEX[byte >> 4]!;
    text[AT[i]! + 1] = HEX[byte & 0x0f]!;
  }
  used += 16;
  return text.toString('latin1');
}
