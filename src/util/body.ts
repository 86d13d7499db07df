// Reading a request body with a cap, for the small servers of the CLI and the sandbox (the
// webhook receiver of `ws webhooks listen`, the sandbox console) that take only small bodies.

import type { IncomingMessage } from 'node:http';

/**
 * The request body, or undefined when it is over `max` bytes: it is read to its end either
 * way (so the answer can be sent on the connection), but nothing past `max` is kept.
 */
export function readBodyUpTo(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
