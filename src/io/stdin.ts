import type { Readable } from 'node:stream';
import { UsageError } from '../errors.ts';

/** Read a whole stream as UTF-8 text, refusing more than `maxBytes`. */
export async function readAll(
  stream: Readable,
  what: string,
  maxBytes = 64 * 1024 * 1024,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes)
      throw new UsageError(`${what} is larger than ${Math.round(maxBytes / 1024)} KiB.`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
