// The sandbox compresses a JSON answer of 1 KiB or more as the request's Accept-Encoding
// asks (src/sandbox/compression.ts), and sends small ones, or those for a client that asks
// for nothing, as they are.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseEncoding } from '../../src/sandbox/compression.ts';
import { type RunningSandbox, recordsOf } from '../../src/sandbox/index.ts';
import { prism, startFor } from './helpers.ts';

/** GET `path` with this Accept-Encoding; the answer's encoding and its body decoded. */
function get(sandbox: RunningSandbox, path: string, accept?: string) {
  return new Promise<{ encoding: string | undefined; vary: string | undefined; body: unknown }>(
    (resolve, reject) => {
      const headers: Record<string, string> = { 'x-api-key': sandbox.apiKey };
      if (accept !== undefined) headers['accept-encoding'] = accept;
      const req = request(`${sandbox.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text =
            encoding === 'br'
              ? brotliDecompressSync(raw)
              : encoding === 'gzip'
                ? gunzipSync(raw)
                : raw;
          resolve({
            encoding,
            vary: res.headers.vary,
            body: JSON.parse(text.toString('utf8')),
          });
        });
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('compression', () => {
  test('chooses by the weights of Accept-Encoding, br on a tie, nothing for q=0', () => {
    assert.equal(chooseEncoding(undefined), undefined);
    assert.equal(chooseEncoding('gzip, br'), 'br');
    assert.equal(chooseEncoding('gzip;q=1, br;q=0.9'), 'gzip');
    assert.equal(chooseEncoding('br'), 'br');
    assert.equal(chooseEncoding('gzip'), 'gzip');
    assert.equal(chooseEncoding('br;q=0.5, gzip;q=0.8'), 'gzip');
    assert.equal(chooseEncoding('gzip;q=0, br;q=0'), undefined);
    assert.equal(chooseEncoding('identity'), undefined);
    assert.equal(chooseEncoding('*'), 'br');
    assert.equal(chooseEncoding('*, br;q=0.5'), 'gzip');
    assert.equal(chooseEncoding('*;q=0.1, gzip;q=0'), 'br');
    assert.equal(chooseEncoding('deflate'), undefined);
  });

  test('a large page goes compressed as asked, a small answer as it is, the same JSON either way', async (t) => {
    const sandbox = await startFor(t);
    const model = recordsOf(sandbox.store);
    for (let i = 0; i < 50; i++)
      model.create('contact', { default: { name: `Contact ${i}`, email: `c${i}@example.com` } });
    const page = prism(sandbox, 'contact?limit=50');
    const plain = await get(sandbox, page);
    assert.equal(plain.encoding, undefined);
    assert.equal(plain.vary, 'accept-encoding');
    const br = await get(sandbox, page, 'gzip, br');
    const gzip = await get(sandbox, page, 'gzip');
    assert.equal(br.encoding, 'br');
    assert.equal(gzip.encoding, 'gzip');
    assert.deepEqual(br.body, plain.body);
    assert.deepEqual(gzip.body, plain.body);
    const count = await get(sandbox, prism(sandbox, 'contact/count'), 'gzip, br');
    assert.equal(count.encoding, undefined);
    assert.deepEqual(count.body, { total: 50 });
  });
});
