// Reading the whole of stdin (a request body, a schema, an API key piped in). At a terminal
// the user is told that ws waits for their input and how to end it, and Ctrl-C cancels the
// wait: the command's signal stops the read and lets go of stdin.
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.ts';
import type { IOStreams } from './streams.ts';

/**
 * Read all of stdin as UTF-8 text, refusing more than `maxBytes` (`what` names it in that
 * error). Rejects with the signal's reason when it aborts.
 */
export async function readStdin(
  io: IOStreams,
  what: string,
  opts: { signal: AbortSignal; maxBytes?: number },
): Promise<string> {
  if (io.isStdinTTY)
    io.info('Reading stdin from the terminal: end the input with Ctrl-D (Ctrl-C cancels).');
  return readAll(io.stdin, what, opts);
}

/** Read a whole stream as UTF-8 text, refusing more than `maxBytes`; stop when `signal` aborts. */
async function readAll(
  stream: Readable,
  what: string,
  opts: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<string> {
  const { signal, maxBytes = 64 * 1024 * 1024 } = opts;
  signal?.throwIfAborted();
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) break;
      const chunk = next.value as Buffer | string;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > maxBytes)
        throw new UsageError(`${what} is larger than ${Math.round(maxBytes / 1024)} KiB.`);
      chunks.push(buf);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // A read stopped early lets go of stdin. While a read is pending, the iterator's
    // return() would wait for it (a terminal may never send more): destroy the stream.
    if (signal?.aborted) stream.destroy();
    else await iterator.return?.();
  }
  return Buffer.concat(chunks).toString('utf8');
}
