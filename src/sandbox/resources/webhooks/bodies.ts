// How much of a delivery's bodies the attempt history keeps: request and response bodies are
// cut at a fixed number of bytes (on a character boundary) and marked as cut, so a client
// that re-sends a logged request body (`ws deliveries replay`) can tell a whole one from a
// cut one.

/** Bytes of a request body kept once no attempt will follow (the whole body until then). */
export const REQUEST_BODY_LIMIT = 65_536;
/** Bytes of a receiver's answer kept per attempt. */
export const RESPONSE_BODY_LIMIT = 65_536;

/** `bytes` as UTF-8 text, cut at `limit` bytes without splitting a character. */
export function cutUtf8(bytes: Buffer, limit: number): { text: string; truncated: boolean } {
  if (bytes.length <= limit) return { text: bytes.toString('utf8'), truncated: false };
  let end = limit;
  // Back up over continuation bytes (10xxxxxx) to the start of the character cut in two.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/** `text` cut at `limit` UTF-8 bytes without splitting a character. */
export function cutText(text: string, limit: number): { text: string; truncated: boolean } {
  // A string of n UTF-16 units has at most 3n UTF-8 bytes: short ones need no encoding.
  if (text.length * 3 <= limit) return { text, truncated: false };
  return cutUtf8(Buffer.from(text, 'utf8'), limit);
}
