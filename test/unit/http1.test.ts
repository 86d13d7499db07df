// HTTP/1.1 as the one-shot transport reads and writes it (src/api/http1.ts): every framing of
// an answer, fed whole and a byte at a time, and what is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerReader, MAX_HEAD_BYTES, requestHead } from '../../src/api/http1.ts';
import type { Answer } from '../../src/api/transport.ts';

const MAX = 1024;

/** Feeds `wire` to a reader in pieces of `step` bytes; the answer, and the reader. */
function read(wire: string | Buffer, { method = 'GET', step = 0, max = MAX } = {}) {
  const bytes = typeof wire === 'string' ? Buffer.from(wire, 'latin1') : wire;
  const reader = new AnswerReader(method, max);
  const size = step || bytes.length;
  for (let at = 0; at < bytes.length; at += size) {
    const answer = reader.push(bytes.subarray(at, at + size));
    if (answer !== undefined) return { answer, reader, rest: bytes.length - at - size };
  }
  return { answer: undefined as Answer | undefined, reader, rest: 0 };
}

/** The answer of `wire` read whole and a byte at a time: both must agree. */
function both(wire: string | Buffer, opts: { method?: string } = {}) {
  const whole = read(wire, opts);
  const bytewise = read(wire, { ...opts, step: 1 });
  assert.deepEqual(bytewise.answer, whole.answer);
  assert.equal(bytewise.reader.reusable, whole.reader.reusable);
  return whole;
}

describe('an answer, as the one-shot transport reads it', () => {
  it('framed by Content-Length: status, lower-cased headers, body as UTF-8; reusable', () => {
    const body = Buffer.from('{"name":"Zoë ✓"}');
    const wire = Buffer.concat([
      Buffer.from(
        `HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Request-Id: req_1\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
    const { answer, reader } = both(wire);
    assert.deepEqual(answer, {
      status: 201,
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'req_1',
        'content-length': String(body.length),
      },
      text: '{"name":"Zoë ✓"}',
    });
    assert.equal(reader.reusable, true);
  });

  it('heads past the first KiB, one ending across it, and many chunks in one piece', () => {
    for (const size of [3000, 1022 - 'HTTP/1.1 200 OK\r\nX-Big: \r\nContent-Length: 2'.length]) {
      const wire = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(size)}\r\nContent-Length: 2\r\n\r\nok`;
      const { answer } = both(wire);
      assert.equal(answer?.headers['x-big']?.length, size);
      assert.equal(answer?.text, 'ok');
    }
    const parts = Array.from({ length: 100 }, (_, i) => `part ${i};`);
    const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${parts
      .map((p) => `${p.length.toString(16)}\r\n${p}\r\n`)
      .join('')}0\r\n\r\n`;
    assert.equal(both(chunked).answer?.text, parts.join(''));
  });

  it('chunked, with extensions and trailers; reusable', () => {
    const wire =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '4;name=x\r\n{"a"\r\n' +
      '3\r\n:1}\r\n' +
      '0\r\nX-Trailer: y\r\n\r\n';
    const { answer, reader } = both(wire);
    assert.equal(answer?.text, '{"a":1}');
    assert.equal(reader.reusable, true);
  });

  it('with no body: HEAD (whatever Content-Length says), 204 and 304', () => {
    const head = both('HTTP/1.1 200 OK\r\nContent-Length: 5079\r\n\r\n', { method: 'HEAD' });
    assert.equal(head.answer?.text, '');
    assert.equal(head.answer?.headers['content-length'], '5079');
    assert.equal(head.reader.reusable, true);
    assert.equal(both('HTTP/1.1 204 No Content\r\n\r\n').answer?.status, 204);
    assert.equal(both('HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n').answer?.status, 304);
  });

  it('skips informational answers (100, 103) before the answer', () => {
    const { answer } = both(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    );
    assert.equal(answer?.status, 200);
    assert.equal(answer?.text, 'ok');
    assert.equal(answer?.headers.link, undefined);
  });

  it('framed by the connection’s end: whole at end(), never reusable', () => {
    for (const wire of [
      'HTTP/1.1 200 OK\r\n\r\nall of it',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nall of it',
    ]) {
      const { answer, reader } = read(wire, { step: 3 });
      assert.equal(answer, undefined);
      assert.equal(reader.end().text, 'all of it');
      assert.equal(reader.reusable, false);
    }
  });

  it('is not reusable after Connection: close, from HTTP/1.0, or with bytes past it', () => {
    assert.equal(
      both('HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n').reader
        .reusable,
      false,
    );
    assert.equal(both('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').reader.reusable, false);
    // A status line without a reason, and Connection tokens that are not `close`.
    assert.equal(
      both('HTTP/1.1 204\r\nConnection: keep-alive, closed\r\n\r\n').reader.reusable,
      true,
    );
    // Chunked only as the last coding frames the answer; otherwise the end does.
    const lastCoding = both(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip , CHUNKED \r\n\r\n2\r\nok\r\n0\r\n\r\n',
    );
    assert.equal(lastCoding.answer?.text, 'ok');
    assert.equal(lastCoding.reader.reusable, true);
    const notLast = read('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nraw');
    assert.equal(notLast.answer, undefined);
    assert.equal(notLast.reader.end().text, 'raw');
    const twoFramings = both(
      'HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    );
    assert.equal(twoFramings.answer?.text, 'ok');
    assert.equal(twoFramings.reader.reusable, false);
    const extra = read('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n');
    assert.equal(extra.answer?.text, 'ok');
    assert.equal(extra.reader.reusable, false);
  });

  it('joins repeated headers with ", " and keeps the first of those that cannot repeat', () => {
    const { answer } = both(
      'HTTP/1.1 200 OK\r\nVary: a\r\nvary: b\r\nRetry-After: 1\r\nRetry-After: 9\r\nContent-Length: 0\r\n\r\n',
    );
    assert.equal(answer?.headers.vary, 'a, b');
    assert.equal(answer?.headers['retry-after'], '1');
  });

  it('a connection closed before the answer or in the middle of it: ECONNRESET', () => {
    const none = new AnswerReader('GET', MAX);
    assert.equal(none.nothingYet, true);
    assert.throws(() => none.end(), { code: 'ECONNRESET', message: /before an answer came/ });
    for (const cut of [
      'HTTP/1.1 200 OK\r\nContent-Le',
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{"a"',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n',
    ]) {
      const { reader } = read(cut);
      assert.equal(reader.nothingYet, false);
      assert.throws(() => reader.end(), { code: 'ECONNRESET', message: /mid-answer/ });
    }
  });

  it('refuses what is not HTTP/1.1 it can read (BAD_ANSWER)', () => {
    for (const wire of [
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 2000 OK\r\n\r\n',
      'HTTP/1.1 20 OK\r\n\r\n',
      'HTTP/1.1 200OK\r\n\r\n',
      'HTTP/1.2 200 OK\r\n\r\n',
      'HTTP/1.1  200 OK\r\n\r\n',
      'HTTP/1.1 2a0 OK\r\n\r\n',
      'HTTP/1.1 200 O\nK\r\nContent-Length: 0\r\n\r\n',
      'http/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\n folded: value\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n',
    ]) {
      assert.throws(() => read(wire), { code: 'BAD_ANSWER' }, JSON.stringify(wire));
      assert.throws(() => read(wire, { step: 1 }), { code: 'BAD_ANSWER' }, JSON.stringify(wire));
    }
  });

  it('refuses headers over MAX_HEAD_BYTES without waiting for their end', () => {
    const reader = new AnswerReader('GET', MAX);
    reader.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    const line = Buffer.from(`X-Big: ${'a'.repeat(1000)}\r\n`);
    assert.throws(
      () => {
        for (let sent = 0; sent <= MAX_HEAD_BYTES; sent += line.length) reader.push(line);
      },
      { code: 'BAD_ANSWER', message: /headers are too large/ },
    );
  });

  it('refuses a body over the cap (ANSWER_TOO_LARGE), declared or counted, naming the request id', () => {
    assert.throws(
      () => read(`HTTP/1.1 200 OK\r\nX-Request-Id: req_9\r\nContent-Length: ${MAX + 1}\r\n\r\n`),
      { code: 'ANSWER_TOO_LARGE', maxBytes: MAX, requestId: 'req_9' },
    );
    const big = 'x'.repeat(MAX + 1);
    assert.throws(() => read(`HTTP/1.1 200 OK\r\n\r\n${big}`, { step: 100 }), {
      code: 'ANSWER_TOO_LARGE',
    });
    assert.throws(
      () =>
        read(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(MAX + 1).toString(16)}\r\n`),
      { code: 'ANSWER_TOO_LARGE' },
    );
    // Exactly the cap is read.
    const at = read(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX}\r\n\r\n${'y'.repeat(MAX)}`);
    assert.equal(at.answer?.text.length, MAX);
  });
});

describe('a request, as the one-shot transport writes it', () => {
  // The head is written as latin1: every character must be one byte.
  const text = (head: string) => {
    assert.doesNotMatch(head, /[^\x00-\xff]/);
    return head;
  };

  it('writes the request line, Host and the headers; declares the body’s length in bytes', () => {
    const head = requestHead(
      'POST',
      '/v2/prism/t/contact',
      '127.0.0.1:8080',
      { 'x-api-key': 'wsk_1', 'content-type': 'application/json' },
      '{"name":"Zoë"}',
    );
    assert.equal(
      text(head),
      'POST /v2/prism/t/contact HTTP/1.1\r\nhost: 127.0.0.1:8080\r\nx-api-key: wsk_1\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n',
    );
    assert.match(
      text(requestHead('GET', '/x', 'h', {}, undefined)),
      /^GET \/x HTTP\/1\.1\r\nhost: h\r\n\r\n$/,
    );
    assert.match(text(requestHead('POST', '/x', 'h', {}, undefined)), /content-length: 0\r\n\r\n$/);
  });

  it('writes Host, Content-Length, Transfer-Encoding and Connection itself, whatever a caller passes', () => {
    const head = text(
      requestHead(
        'PUT',
        '/x',
        'h',
        { Host: 'evil', 'Content-Length': '99', 'transfer-encoding': 'chunked', connection: 'x' },
        Buffer.from('abc'),
      ),
    );
    assert.equal(head, 'PUT /x HTTP/1.1\r\nhost: h\r\ncontent-length: 3\r\n\r\n');
  });

  it('refuses a line break or control character in a header value, naming the header, not the value', () => {
    for (const value of ['wsk_abc\n', 'a\r\nx-injected: 1', 'a\u0000b', 'a\u007fb']) {
      assert.throws(
        () => requestHead('GET', '/x', 'h', { 'x-api-key': value }, undefined),
        (err: Error & { code?: string; header?: string }) => {
          assert.equal(err.code, 'BAD_HEADER');
          assert.equal(err.header, 'x-api-key');
          assert.match(err.message, /The x-api-key header has a line break or a control character/);
          assert.ok(!err.message.includes('wsk_abc'));
          return true;
        },
      );
    }
    // Tabs and Latin-1 letters are values a header may carry.
    assert.match(
      text(requestHead('GET', '/x', 'h', { 'x-a': 'a\tb é' }, undefined)),
      /x-a: a\tb é/,
    );
  });

  it('refuses a header name, method or path that cannot be sent', () => {
    assert.throws(() => requestHead('GET', '/x', 'h', { 'bad name': 'v' }, undefined), {
      code: 'BAD_HEADER',
    });
    assert.throws(() => requestHead('GE T', '/x', 'h', {}, undefined), { code: 'BAD_HEADER' });
    assert.throws(() => requestHead('GET', '/a b', 'h', {}, undefined), { code: 'BAD_HEADER' });
    assert.throws(() => requestHead('GET', '/a\r\nb', 'h', {}, undefined), { code: 'BAD_HEADER' });
  });
});
