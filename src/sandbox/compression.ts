// Answers compressed as the client asks (Accept-Encoding, RFC 9110 §12.5.3), as the hosted
// service's gateway does: a JSON body of COMPRESS_MIN_BYTES or more goes as gzip or br,
// whichever the client weighs higher, and any smaller body as it is. On a tie (`gzip, br`,
// as ws asks), gzip: it costs both ends less CPU than br for about the same size, and on
// loopback CPU is all compression costs. Gzip at its fastest level (1, a web server's usual
// default for answers made on the fly): a page of import results of 696 KB is 155 KB
// against 149 KB at the default level 6, in half the time (about 4.5 ms against 9). Both
// compress on libuv's thread pool, so a large answer never holds up the sandbox's event loop.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Bodies smaller than this gain less from compression than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/** The encoding to send a body in, from the request's Accept-Encoding (undefined: none). */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (accept === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const item of accept.split(',')) {
    const [name, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br <= 0 && gzip <= 0) return undefined;
  return gzip >= br ? 'gzip' : 'br';
}

/** The payload as sent, and its Content-Encoding (none for a small body or none asked for). */
export async function encodeBody(
  payload: string,
  accept: string | undefined,
): Promise<{ body: string | Buffer; encoding?: 'br' | 'gzip' }> {
  const encoding = Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES && chooseEncoding(accept);
  if (!encoding) return { body: payload };
  const body =
    encoding === 'br'
      ? // Quality 4 of 11: most of the saving at a small part of the time of the highest.
        await brotliAsync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : await gzipAsync(payload, { level: constants.Z_BEST_SPEED });
  return { body, encoding };
}
